/** The drift report: what was compared, every finding, what the mock and suite would miss, the verdict. */
import type { DriftFinding } from './classify.ts';
import type { DriftLevel } from './table.ts';

/** `breaking` fails only on breaking changes (the default); `additive` on any change to the API. */
export type FailOn = 'breaking' | 'additive';

export interface DriftReport {
  readonly base: { readonly source: string; readonly version: string };
  readonly live: { readonly source: string; readonly version: string };
  readonly findings: readonly DriftFinding[];
  readonly counts: Readonly<Record<DriftLevel, number>>;
  /** Present live, absent from the base: the mock does not serve it, the suite does not check it. */
  readonly uncovered: {
    readonly operations: readonly string[];
    readonly properties: readonly string[];
    readonly parameters: readonly string[];
  };
  readonly failOn: FailOn;
  readonly verdict: 'unchanged' | 'additive' | 'breaking';
  /** 0 or 1, as the CLI exits. */
  readonly exitCode: 0 | 1;
}

export interface DriftSide {
  readonly source: string;
  readonly version: string;
}

export function buildDriftReport(
  base: DriftSide,
  live: DriftSide,
  findings: readonly DriftFinding[],
  failOn: FailOn,
): DriftReport {
  const counts = { breaking: 0, additive: 0, info: 0 };
  for (const f of findings) counts[f.level] += 1;
  const pick = (ids: readonly string[], text: (f: DriftFinding) => string): string[] =>
    findings.filter((f) => ids.includes(f.checkId)).map(text);
  const uncovered = {
    operations: pick(
      ['op-added'],
      (f) => `${f.operation}${f.operationId === undefined ? '' : ` (${f.operationId})`}`,
    ),
    properties: pick(
      ['response-property-added', 'request-property-added-optional', 'request-property-added-required'],
      (f) => `${f.operation}: ${f.location}`,
    ),
    parameters: pick(
      ['param-added-optional', 'param-added-required'],
      (f) => `${f.operation}: ${f.location}`,
    ),
  };
  const verdict = counts.breaking > 0 ? 'breaking' : counts.additive > 0 ? 'additive' : 'unchanged';
  const fails = verdict === 'breaking' || (failOn === 'additive' && verdict === 'additive');
  return { base, live, findings, counts, uncovered, failOn, verdict, exitCode: fails ? 1 : 0 };
}

/** Whether one finding fails the run under `failOn`. */
export function failsRun(finding: DriftFinding, failOn: FailOn): boolean {
  return finding.level === 'breaking' || (failOn === 'additive' && finding.level === 'additive');
}

/** Findings grouped by operation, operations in order of first appearance. */
export function byOperation(findings: readonly DriftFinding[]): Map<string, DriftFinding[]> {
  const groups = new Map<string, DriftFinding[]>();
  for (const f of findings) {
    const group = groups.get(f.operation) ?? [];
    group.push(f);
    groups.set(f.operation, group);
  }
  return groups;
}
