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
  /**
   * Rules checked (passed, failed or known failure) of the rules a live target can check (every
   * catalog rule but the `mock-only` ones): what the run actually covered.
   */
  readonly coverage: { readonly checked: number; readonly checkable: number };
  /**
   * The environment variables of required keys (read, write, ingest) whose absence kept laws from
   * running, unless the run allowed it (`allowNotRun`); optional keys never appear here.
   */
  readonly missingKeys: readonly string[];
  /**
   * `not-conformant`: a new failure; `not-checked`: no new failure, but laws could not run for a
   * missing required key; `conformant`: neither. The CLI exits 1, 3 and 0 on them.
   */
  readonly verdict: Verdict;
  /** True when no law failed outside the baseline. */
  readonly ok: boolean;
}

export type Verdict = 'conformant' | 'not-conformant' | 'not-checked';

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
