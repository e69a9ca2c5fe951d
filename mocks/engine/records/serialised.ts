/**
 * Pre-serialised records: the UTF-8 JSON of each row's action summary, search item and detail, built once and
 * reused by every page that shows the row. List and search pages are then copies of cached fragments
 * instead of a fresh derivation, `JSON.stringify` and UTF-8 encoding of fifty records per request.
 *
 * The cache is bounded per organization (oldest entries go first), so a million-action data set keeps
 * only the rows that pages actually show; a row's entries are dropped whenever the row changes
 * (a custom-field write, an ingested thread rebuilt).
 */
import type { OrgData } from './state.ts';
import { actionDetail, actionSummary, searchItem } from './view.ts';

/** Rows kept per organization and kind; ~1.6 KB each, so at most ~40 MB per organization. */
export const SERIALISED_CAPACITY = 25_000;

interface RowTexts {
  summary: Map<number, Uint8Array>;
  search: Map<number, Uint8Array>;
  detail: Map<number, Uint8Array>;
}

const utf8 = new TextEncoder();

const texts = new WeakMap<OrgData, RowTexts>();

function textsOf(org: OrgData): RowTexts {
  let cached = texts.get(org);
  if (cached === undefined) {
    cached = { summary: new Map(), search: new Map(), detail: new Map() };
    texts.set(org, cached);
  }
  return cached;
}

function remember(cache: Map<number, Uint8Array>, row: number, build: () => unknown): Uint8Array {
  const hit = cache.get(row);
  if (hit !== undefined) return hit;
  const text = utf8.encode(JSON.stringify(build()));
  if (cache.size >= SERIALISED_CAPACITY) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(row, text);
  return text;
}

/** The UTF-8 JSON of `actionSummary(org, row, false)`. */
export const summaryBytes = (org: OrgData, row: number): Uint8Array =>
  remember(textsOf(org).summary, row, () => actionSummary(org, row, false));

/** The UTF-8 JSON of `searchItem(org, row)`. */
export const searchItemBytes = (org: OrgData, row: number): Uint8Array =>
  remember(textsOf(org).search, row, () => searchItem(org, row));

/** The UTF-8 JSON of `actionDetail(org, row)`. */
export const detailBytes = (org: OrgData, row: number): Uint8Array =>
  remember(textsOf(org).detail, row, () => actionDetail(org, row));

/** Forgets a row's texts. Writers call `rowChanged` (answer-cache.ts), which also drops answers. */
export function forgetRow(org: OrgData, row: number): void {
  const cached = texts.get(org);
  cached?.summary.delete(row);
  cached?.search.delete(row);
  cached?.detail.delete(row);
}
