/**
 * What a conformance check returns: data, never a thrown string. A law run yields one
 * `CheckOutcome`; after a failure the runner runs the law again with that rule recorded as failed
 * (each rule stands alone), and folds every law's failures into one `RuleResult` per catalog rule.
 */
import type { RuleLevel } from '../../contract/rules.ts';

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
  /** The check crashed (an exception, not an assertion): nothing after it in the law was checked. */
  readonly crashed?: true;
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

/** One failure of a law, with what makes it count or not. */
export type LawFailure = Failed & {
  /** The failure's fingerprint is in the baseline (known, does not fail the run). */
  readonly known: boolean;
  /** The failed rule's level: only a `must` failure (or a `should` one under `--strict`) fails a run. */
  readonly level: RuleLevel;
};

/** Rules of a law that did not run because an earlier failure of the law stopped it. */
export interface Blocked {
  readonly ruleIds: readonly string[];
  /** e.g. `blocked by LIST-PAGESIZE-RANGE (the law cannot go on past it)`. */
  readonly reason: string;
}

/** One law's run inside a conformance run. */
export interface LawResult {
  readonly lawId: string;
  readonly group: string;
  readonly title: string;
  readonly ruleIds: readonly string[];
  /** The first failure when there is one, else how the law ended (passed or not run). */
  readonly outcome: CheckOutcome;
  /** Every rule the law found failing, one entry per rule, in the order found. */
  readonly failures: readonly LawFailure[];
  /** The law's rules that never ran because a failure stopped the law (absent when none). */
  readonly blocked?: Blocked;
  readonly durationMs: number;
  readonly requests: number;
  /** True when the law failed and every one of its failures is in the baseline. */
  readonly known: boolean;
}

/** The aggregate per rule of the catalog: what every law that names the rule concluded. */
export interface RuleResult {
  readonly ruleId: string;
  readonly title: string;
  readonly section: string;
  readonly kind: string;
  /** `must`, `should` or `mock-only` (contract/audit.json): how much a failure weighs. */
  readonly level: RuleLevel;
  /** The group of the first law that checks the rule (JUnit classname), `catalog` when none does. */
  readonly group: string;
  /** Time spent by the laws that check the rule (a law's time shared among its rules). */
  readonly durationMs: number;
  readonly status: RuleStatus;
  /** Laws that name this rule. */
  readonly lawIds: readonly string[];
  readonly checks: number;
  /** Why the rule was not run or not covered (check kind mock-only, missing key, ...). */
  readonly reasons: readonly string[];
  readonly failures: readonly LawFailure[];
}

export function isFailed(outcome: CheckOutcome): outcome is Failed {
  return outcome.kind === 'failed';
}
