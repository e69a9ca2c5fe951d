/**
 * What a conformance check returns: data, never a thrown string. A law yields exactly one
 * `CheckOutcome`; the runner folds them into one `RuleResult` per rule of the catalog.
 */

/** A check held for every generated case. */
export interface Passed {
  readonly kind: 'passed';
  readonly ruleIds: readonly string[];
  /** How many generated cases (or requests, for example-based laws) were checked. */
  readonly checks: number;
}

/** A check found a counterexample (already shrunk when fast-check found it). */
export interface Failed {
  readonly kind: 'failed';
  readonly ruleId: string;
  /** Spec section the rule comes from, e.g. `4.1`. */
  readonly section: string;
  readonly message: string;
  readonly counterexample: unknown;
  /** Seed that reproduces the case (`--seed`). */
  readonly seed: number;
  /** fast-check replay path, when the failure came from a property. */
  readonly path?: string;
  /** Ready-to-run curl command(s) that reproduce the failure; keys as env var references. */
  readonly repro: string;
  /** Stable across runs and seeds: rule id, law id and the kind of violation. Used by baselines. */
  readonly fingerprint: string;
}

/** A check that could not run: missing key, writes not allowed, excluded, budget exhausted... */
export interface NotRun {
  readonly kind: 'not-run';
  readonly ruleIds: readonly string[];
  readonly reason: string;
}

export type CheckOutcome = Passed | Failed | NotRun;

export type RuleStatus = 'passed' | 'failed' | 'known-failure' | 'not-run' | 'not-covered';

/** One law's run inside a conformance run. */
export interface LawResult {
  readonly lawId: string;
  readonly group: string;
  readonly title: string;
  readonly ruleIds: readonly string[];
  readonly outcome: CheckOutcome;
  readonly durationMs: number;
  readonly requests: number;
  /** True when the failure's fingerprint is in the baseline (known, does not fail the run). */
  readonly known: boolean;
}

/** The aggregate per rule of the catalog: what every law that names the rule concluded. */
export interface RuleResult {
  readonly ruleId: string;
  readonly title: string;
  readonly section: string;
  readonly kind: string;
  readonly status: RuleStatus;
  /** Laws that name this rule. */
  readonly lawIds: readonly string[];
  readonly checks: number;
  /** Why the rule was not run or not covered (check kind mock-only, missing key, ...). */
  readonly reasons: readonly string[];
  readonly failures: readonly Failed[];
}

export function isFailed(outcome: CheckOutcome): outcome is Failed {
  return outcome.kind === 'failed';
}
