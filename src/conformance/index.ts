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
} from '../reporters/index.ts';
export { baselineFrom, fingerprintOf, isKnown, parseBaseline } from './baseline.ts';
export { jsonSafe, type PropertyOptions, runExamples, runProperty, Violation, violate } from './check.ts';
export type { Law, LawContext, LawNeeds } from './law.ts';
export type { Baseline, ConformanceOptions, NormalizedOptions, Target } from './options.ts';
export { isLoopback, newRunId, normalizeOptions } from './options.ts';
export type { CheckOutcome, Failed, LawResult, NotRun, Passed, RuleResult, RuleStatus } from './outcome.ts';
export type { ConformanceReport, ProgressEvent, Tally } from './report.ts';
export { shellQuote, toCurl, toCurlSequence } from './repro.ts';
export {
  aggregateRules,
  type CatalogRule,
  defaultDeps,
  type RunnerDeps,
  runConformance,
  selects,
} from './runner.ts';
