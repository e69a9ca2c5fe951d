import type { LawResult, RuleResult } from './outcome.ts';

/** Counts per status. */
export interface Tally {
  readonly passed: number;
  readonly failed: number;
  readonly knownFailures: number;
  readonly notRun: number;
}

/** Everything a conformance run concluded; what reporters render and `--json` writes. */
export interface ConformanceReport {
  readonly tool: 'cca-kit conform';
  readonly runId: string;
  readonly seed: number;
  readonly runs: number;
  readonly baseUrl: string;
  readonly allowWrites: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly requests: number;
  /** Generated cases and example requests checked, summed over laws. */
  readonly checks: number;
  readonly laws: readonly LawResult[];
  readonly rules: readonly RuleResult[];
  readonly summary: { readonly laws: Tally; readonly rules: Tally & { readonly notCovered: number } };
  /** True when no law failed outside the baseline. */
  readonly ok: boolean;
}

/** Progress events while a run goes. */
export type ProgressEvent =
  | {
      readonly type: 'start';
      readonly total: number;
      readonly runId: string;
      readonly seed: number;
      readonly baseUrl: string;
    }
  | {
      readonly type: 'law-start';
      readonly index: number;
      readonly total: number;
      readonly lawId: string;
      readonly group: string;
    }
  | { readonly type: 'law-end'; readonly index: number; readonly total: number; readonly result: LawResult }
  | { readonly type: 'end'; readonly report: ConformanceReport };
