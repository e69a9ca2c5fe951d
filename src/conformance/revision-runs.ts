/**
 * An agent law judged over several MCP revisions is one law result: its runs over each revision
 * folded together, every finding naming the revision it was found over (a deployment may serve one
 * revision right and the other wrong).
 */
import type { McpRevision } from './kit/mcp/endpoint.ts';
import type { Blocked, CheckOutcome, Failed } from './kit/outcome.ts';

/** One law's conclusion over one revision. */
export interface RevisionRun {
  readonly revision: McpRevision;
  readonly outcome: CheckOutcome;
  readonly failures: readonly Failed[];
  readonly blocked?: Blocked;
}

const tag = (revision: McpRevision): string => `[MCP ${revision}]`;

/** A finding of `revision`: its message starts with the revision, its fingerprint carries it. */
function named(failure: Failed, revision: McpRevision): Failed {
  const message = failure.message.startsWith('[MCP ')
    ? failure.message
    : `${tag(revision)} ${failure.message}`;
  // 2025-11-25 keeps the fingerprints baselines were written with before a second revision was judged.
  const fingerprint =
    revision === '2025-11-25' || failure.fingerprint.endsWith(`@${revision}`)
      ? failure.fingerprint
      : `${failure.fingerprint}@${revision}`;
  return { ...failure, message, fingerprint };
}

/**
 * Folds the runs: every failure of every revision (in revision order); the first failure is the
 * outcome; with none, a run not done over one revision makes the law not run (a revision not
 * checked is not a pass), else the checks are summed.
 *
 * @example
 * ```ts
 * const run = mergeRevisionRuns(law.ruleIds, [{ revision: '2025-11-25', ...a }, { revision: '2026-07-28', ...b }]);
 * ```
 */
export function mergeRevisionRuns(
  ruleIds: readonly string[],
  runs: readonly RevisionRun[],
): Omit<RevisionRun, 'revision'> {
  const only = runs.length === 1 ? runs[0] : undefined;
  if (only !== undefined) {
    const failures = only.failures.map((f) => named(f, only.revision));
    const outcome = only.outcome.kind === 'failed' ? named(only.outcome, only.revision) : only.outcome;
    return { outcome, failures, ...(only.blocked === undefined ? {} : { blocked: only.blocked }) };
  }
  const failures = runs.flatMap((r) => r.failures.map((f) => named(f, r.revision)));
  const blockedRuns = runs.filter((r) => r.blocked !== undefined);
  const blocked: Blocked | undefined =
    blockedRuns.length === 0
      ? undefined
      : {
          ruleIds: [...new Set(blockedRuns.flatMap((r) => r.blocked?.ruleIds ?? []))],
          reason: blockedRuns.map((r) => `${tag(r.revision)} ${r.blocked?.reason ?? ''}`).join('; '),
        };
  const withBlocked = blocked === undefined ? {} : { blocked };
  const firstFailure = failures[0];
  if (firstFailure !== undefined) return { outcome: firstFailure, failures, ...withBlocked };
  const notRun = runs.filter((r) => r.outcome.kind === 'not-run');
  if (notRun.length > 0) {
    const reason = notRun
      .map((r) => `${tag(r.revision)} ${r.outcome.kind === 'not-run' ? r.outcome.reason : ''}`)
      .join('; ');
    return { outcome: { kind: 'not-run', ruleIds, reason }, failures, ...withBlocked };
  }
  const checks = runs.reduce((n, r) => n + (r.outcome.kind === 'passed' ? r.outcome.checks : 0), 0);
  return {
    outcome: { kind: 'passed', ruleIds, checks },
    failures,
    ...withBlocked,
  };
}
