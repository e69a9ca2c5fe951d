/**
 * The conformance suite's programmatic API (`cca-kit/conformance`): run every law against a target and
 * get a report. This entry is the top of the conformance package: the runner (runner.ts) takes its laws
 * as an argument and imports none, this file gives it the suite's laws (suites/laws) by default, so
 * `runConformance(options)` runs them all and `runConformance(options, { laws })` runs the ones given.
 *
 * @example
 * ```ts
 * import { runConformance } from 'cca-kit/src/conformance/index.ts';
 * import { renderConsoleReport } from 'cca-kit/src/reporters/index.ts';
 * const report = await runConformance({
 *   target: { baseUrl: 'https://staging.example.com', keys: { read: process.env.CCA_READ_KEY } },
 *   seed: 42,
 *   only: ['schemas', 'paging'],
 * });
 * console.log(renderConsoleReport(report));
 * ```
 */

import { allLaws } from '../../suites/laws/index.ts';
import { contract } from '../contract/index.ts';
import type { ConformanceOptions } from './kit/options.ts';
import type { ConformanceReport } from './kit/report.ts';
import { catalogOf, type RunnerDeps, runConformance as runLaws } from './runner.ts';

export {
  type ConsoleReporterOptions,
  consoleProgress,
  renderConsoleReport,
  renderJsonReport,
  renderJunitReport,
  renderMarkdownReport,
} from '../reporters/index.ts';
export { baselineFrom, fingerprintOf, isKnown, parseBaseline } from './kit/baseline.ts';
export {
  BlockedByFailure,
  jsonSafe,
  type PropertyOptions,
  runExamples,
  runProperty,
  Violation,
  violate,
  withRulesAlreadyFailed,
} from './kit/check.ts';
export type { Law, LawContext, LawNeeds } from './kit/law.ts';
export type { Baseline, ConformanceOptions, NormalizedOptions, Target } from './kit/options.ts';
export { isLoopback, newRunId, normalizeOptions } from './kit/options.ts';
export type {
  Blocked,
  CheckOutcome,
  Failed,
  LawFailure,
  LawResult,
  NotRun,
  Passed,
  RuleResult,
  RuleStatus,
} from './kit/outcome.ts';
export type {
  ConformanceReport,
  GroupNotChecked,
  NotRunGroup,
  ProgressEvent,
  Tally,
  Verdict,
} from './kit/report.ts';
export { shellQuote, toCurl, toCurlSequence } from './kit/repro.ts';
export { AGENT_GROUP, preflight, preflightKeys, probeMcp, type RefusedKey } from './preflight.ts';
export {
  aggregateRules,
  type CatalogRule,
  catalogOf,
  MOCK_ONLY_REASON,
  notRunSummary,
  type RunnerDeps,
  runLawAlone,
  selects,
} from './runner.ts';

export { allLaws };

/** The suite's laws, the shared contract and the rules catalog: what `runConformance` runs by default. */
export function defaultDeps(): Required<RunnerDeps> {
  return { laws: allLaws, contract, rules: catalogOf() };
}

/** Runs the laws given (every law of the suite when none are) against a target: see runner.ts. */
export function runConformance(
  options: ConformanceOptions,
  deps: Partial<RunnerDeps> = {},
): Promise<ConformanceReport> {
  return runLaws(options, { ...deps, laws: deps.laws ?? allLaws });
}
