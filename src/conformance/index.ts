/**
 * The conformance suite's programmatic API: run every law against a target and get a report.
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

export {
  type ConsoleReporterOptions,
  consoleProgress,
  renderConsoleReport,
  renderJsonReport,
  renderJunitReport,
  renderMarkdownReport,
} from '../reporters/index.ts';
export { baselineFrom, fingerprintOf, isKnown, parseBaseline } from './baseline.ts';
export {
  BlockedByFailure,
  jsonSafe,
  type PropertyOptions,
  runExamples,
  runProperty,
  Violation,
  violate,
  withRulesAlreadyFailed,
} from './check.ts';
export type { Law, LawContext, LawNeeds } from './law.ts';
export type { Baseline, ConformanceOptions, NormalizedOptions, Target } from './options.ts';
export { isLoopback, newRunId, normalizeOptions } from './options.ts';
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
} from './outcome.ts';
export { AGENT_GROUP, preflight, preflightKeys, probeMcp, type RefusedKey } from './preflight.ts';
export type {
  ConformanceReport,
  GroupNotChecked,
  NotRunGroup,
  ProgressEvent,
  Tally,
  Verdict,
} from './report.ts';
export { shellQuote, toCurl, toCurlSequence } from './repro.ts';
export {
  aggregateRules,
  type CatalogRule,
  defaultDeps,
  MOCK_ONLY_REASON,
  notRunSummary,
  type RunnerDeps,
  runConformance,
  runLawAlone,
  selects,
} from './runner.ts';
