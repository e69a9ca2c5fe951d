/**
 * `cca-kit drift`: has the live service moved away from the contract, and does the move break clients?
 *
 * @example
 * const outcome = await runDrift({ live: { url: 'https://cca.example.com' } });
 * if (outcome.ok) console.log(outcome.report.verdict);
 */
import { contractDocument } from '../contract/load.ts';
import { classifyDrift } from './classify.ts';
import {
  checkDocument,
  DEFAULT_READ_LIMITS,
  type DocumentResult,
  fetchLiveDocument,
  type ReadLimits,
  readDocumentFile,
} from './document.ts';
import { buildDriftReport, type DriftReport, type FailOn } from './report.ts';
import type { LevelOverrides } from './table.ts';

export type { DriftFinding } from './classify.ts';
export { classifyDrift } from './classify.ts';
export type { DocumentProblem, DocumentResult } from './document.ts';
export {
  checkDocument,
  fetchLiveDocument,
  liveDocumentUrl,
  parseDocument,
  readDocumentFile,
} from './document.ts';
export type { OasdiffResult } from './oasdiff.ts';
export { runOasdiff } from './oasdiff.ts';
export {
  renderDriftConsole,
  renderDriftJson,
  renderDriftJunit,
  renderDriftJunitUnreadable,
  renderDriftMarkdown,
} from './render.ts';
export type { DriftReport, FailOn } from './report.ts';
export { buildDriftReport } from './report.ts';
export type { DriftCheck, DriftCheckId, DriftLevel, LevelOverrides } from './table.ts';
export { DRIFT_CHECKS, parseLevelOverride } from './table.ts';

export type DocumentSource = { readonly url: string } | { readonly file: string };

export interface DriftOptions {
  /** The live document: `{url}/docs/json`, or a saved file. */
  readonly live: DocumentSource;
  /** The base to compare against; the bundled contract when absent. */
  readonly base?: DocumentSource;
  readonly failOn?: FailOn;
  readonly levels?: LevelOverrides;
  readonly limits?: ReadLimits;
}

export type DriftOutcome =
  | {
      readonly ok: true;
      readonly report: DriftReport;
      readonly base: Record<string, unknown>;
      readonly live: Record<string, unknown>;
    }
  | { readonly ok: false; readonly problem: Extract<DocumentResult, { ok: false }> };

export const BUNDLED_CONTRACT = 'bundled contract (contract/openapi.json)';

function read(source: DocumentSource, limits: ReadLimits): Promise<DocumentResult> {
  return 'url' in source ? fetchLiveDocument(source.url, limits) : readDocumentFile(source.file, limits);
}

export async function runDrift(options: DriftOptions): Promise<DriftOutcome> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  const base =
    options.base === undefined
      ? checkDocument(BUNDLED_CONTRACT, structuredClone(contractDocument))
      : await read(options.base, limits);
  if (!base.ok) return { ok: false, problem: base };
  const live = await read(options.live, limits);
  if (!live.ok) return { ok: false, problem: live };
  const findings = classifyDrift(base.document, live.document, options.levels ?? new Map());
  const report = buildDriftReport(
    { source: base.source, version: base.version },
    { source: live.source, version: live.version },
    findings,
    options.failOn ?? 'breaking',
  );
  return { ok: true, report, base: base.document, live: live.document };
}
