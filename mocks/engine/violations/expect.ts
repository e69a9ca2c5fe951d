/**
 * Making a test fail on violations: `expectNoViolations(log)` throws a `ViolationError` naming, for
 * each recorded violation, the rule, the message and the request; `onViolation: 'throw'` on the log
 * raises the same error as soon as the request is answered.
 */
import type { Violation, ViolationSeverity } from './types.ts';

const RANK: Readonly<Record<ViolationSeverity, number>> = { error: 3, warning: 2, info: 1 };

/** True when `severity` is `threshold` or graver (`error` ≥ `warning` ≥ `info`). */
export function atLeast(severity: ViolationSeverity, threshold: ViolationSeverity): boolean {
  return RANK[severity] >= RANK[threshold];
}

/** One violation as a line a test report shows: severity, kind, rules, message, the request. */
export function describeViolation(violation: Violation): string {
  const rules = [...new Set(violation.issues.map((i) => i.rule).filter((r): r is string => r !== null))];
  const messages = violation.issues.map((i) =>
    i.hint === undefined ? i.message : `${i.message}. ${i.hint}`,
  );
  return (
    `${violation.severity} ${violation.kind}${rules.length > 0 ? ` [${rules.join(', ')}]` : ''}: ` +
    `${messages.join('; ')} (${violation.request.method} ${violation.request.url} answered ${violation.status})`
  );
}

/** Thrown by `expectNoViolations` and by a log with `onViolation: 'throw'`. */
export class ViolationError extends Error {
  readonly code = 'CONTRACT_VIOLATION';
  constructor(readonly violations: readonly Violation[]) {
    super(
      violations.length === 1
        ? `the client sent a request the contract does not allow: ${describeViolation(violations[0] as Violation)}`
        : `the client sent ${violations.length} requests the contract does not allow:\n${violations
            .map((v) => `  - ${describeViolation(v)}`)
            .join('\n')}`,
    );
    this.name = 'ViolationError';
  }
}

export function isViolationError(error: unknown): error is ViolationError {
  return error instanceof ViolationError;
}

/** Anything that holds a violation log: the log itself, `createHandlers()`'s result, or a list. */
export type ViolationSource =
  | { list(filter?: { severity?: ViolationSeverity }): readonly Violation[] }
  | { readonly violationLog: { list(filter?: { severity?: ViolationSeverity }): readonly Violation[] } }
  | readonly Violation[];

export interface ExpectNoViolationsOptions {
  /** Fail on this severity or graver. Default `warning` (errors and undeclared parameters; not hints). */
  readonly severity?: ViolationSeverity;
}

/**
 * Throws a `ViolationError` when the log holds a violation of `severity` or graver; use it after each
 * test (`afterEach`) so the failing test is the one that sent the request.
 *
 * @example
 * ```ts
 * import { afterEach } from 'vitest';
 * import { createHandlers, expectNoViolations } from 'cca-kit/msw';
 * const mock = createHandlers({ baseUrl: 'https://api.example.test' });
 * afterEach(() => {
 *   try { expectNoViolations(mock); } finally { mock.violationLog.clear(); }
 * });
 * ```
 */
export function expectNoViolations(source: ViolationSource, options: ExpectNoViolationsOptions = {}): void {
  const severity = options.severity ?? 'warning';
  const all: readonly Violation[] = Array.isArray(source)
    ? (source as readonly Violation[])
    : 'violationLog' in (source as object)
      ? (source as { violationLog: { list(): readonly Violation[] } }).violationLog.list()
      : (source as { list(): readonly Violation[] }).list();
  const found = all.filter((v) => atLeast(v.severity, severity));
  if (found.length > 0) throw new ViolationError(found);
}
