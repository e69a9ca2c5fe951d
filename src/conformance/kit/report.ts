import type { ExistingWrite } from './law.ts';
import type { McpRevision } from './mcp/endpoint.ts';
import type { LawResult, RuleResult } from './outcome.ts';

/** Counts per status. */
export interface Tally {
  readonly passed: number;
  readonly failed: number;
  readonly knownFailures: number;
  readonly notRun: number;
}

/** Rules not run for one reason (e.g. `creates objects: needs --allow-writes`). */
export interface NotRunGroup {
  readonly reason: string;
  readonly ruleIds: readonly string[];
}

/** A group of laws the run could not check at all (e.g. `agent` without an MCP endpoint). */
export interface GroupNotChecked {
  readonly group: string;
  readonly reason: string;
}

/** Everything a conformance run concluded; what reporters render and `--json` writes. */
export interface ConformanceReport {
  readonly tool: 'cca-kit conform';
  readonly runId: string;
  readonly seed: number;
  readonly runs: number;
  readonly baseUrl: string;
  readonly allowWrites: boolean;
  /** `--strict`: a failure of a `should` rule fails the run too. */
  readonly strict: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly requests: number;
  /** Generated cases and example requests checked, summed over laws. */
  readonly checks: number;
  readonly laws: readonly LawResult[];
  readonly rules: readonly RuleResult[];
  /**
   * Per rule: `failed` counts the new failures that fail the run (`must`, and `should` under
   * `--strict`); `warnings` the new failures of `should` rules that do not.
   */
  readonly summary: {
    readonly laws: Tally;
    readonly rules: Tally & { readonly notCovered: number; readonly warnings: number };
  };
  /**
   * Rules checked (passed, failed or known failure) of the rules a live target can check (every
   * catalog rule but the `mock-only` ones): what the run actually covered.
   */
  readonly coverage: { readonly checked: number; readonly checkable: number; readonly minimum?: number };
  /** Every rule not run, grouped by why: never hidden by a baseline. */
  readonly notRun: readonly NotRunGroup[];
  /** Rules not run because writes were off (`conformant for reads; N write rules not run`). */
  readonly writeRulesNotRun: number;
  /** Writes to records the run did not create (custom fields of existing actions), each restored or not. */
  readonly existingWrites: readonly ExistingWrite[];
  /**
   * The MCP revisions the agent laws were judged over (the one asked for, both, or those the
   * deployment offered); absent when the agent group did not run.
   */
  readonly mcpRevisions?: readonly McpRevision[];
  /** Groups of laws not checked at all (the agent interface without an MCP endpoint). */
  readonly groupsNotChecked: readonly GroupNotChecked[];
  /** Set when the coverage is below `--min-coverage`: why the verdict is `not-checked`. */
  readonly shortOfCoverage?: string;
  /** Set when the target stopped answering mid-run: what happened (the verdict is `unreachable`). */
  readonly stoppedAnswering?: string;
  /**
   * The environment variables of required keys (read, write, ingest) whose absence kept laws from
   * running, unless the run allowed it (`allowNotRun`); optional keys never appear here.
   */
  readonly missingKeys: readonly string[];
  /**
   * `not-conformant`: a new failure of a `must` rule (or a `should` one under `--strict`);
   * `not-checked`: none, but laws could not run for a missing required key, a group could not be
   * checked, or the coverage is below `--min-coverage`; `unreachable`: the target stopped answering
   * mid-run; `conformant`: none of these. The CLI exits 1, 3, 2 and 0 on them.
   */
  readonly verdict: Verdict;
  /** True when no failure outside the baseline fails the run (warnings do not). */
  readonly ok: boolean;
}

export type Verdict = 'conformant' | 'not-conformant' | 'not-checked' | 'unreachable';

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
