/**
 * Walking `query.search.actions` through `execute`: each script follows `nextCursor` for a few
 * pages and hands back the cursor where it stopped; the next script resumes from it (spec 8: long
 * exports resume with saved cursors). Generated inputs (windows, filters, limits) for the laws.
 */
import fc from 'fast-check';
import { violate } from '../../src/conformance/kit/check.ts';
import { literal, runScript } from '../../src/conformance/kit/mcp/script.ts';
import type { McpSession } from '../../src/conformance/kit/mcp/session.ts';
import { brief, isObj } from './support.ts';

export const SEARCH = 'query.search.actions';

/** A relative window of 4.18 (`{relative: {unit, count, calendar, includeCurrent}}`). */
export interface Relative {
  readonly unit: 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
  readonly count: number;
  readonly calendar: boolean;
  readonly includeCurrent: boolean;
}

export interface SearchInput {
  readonly dateRange: { readonly relative: Relative };
  readonly filter?: {
    readonly filterType: 'and';
    readonly filters: readonly {
      filterType: 'source' | 'status';
      operator: 'in';
      value: readonly string[];
    }[];
  };
  readonly limit: number;
}

export interface Walk {
  readonly ids: readonly string[];
  /** `createdAt` of each item, when items carry it. */
  readonly times: readonly (string | null)[];
  readonly statuses: readonly (string | null)[];
  readonly platforms: readonly (string | null)[];
  /** The `value` of each tag of each item, when items carry a `tags` array (else null). */
  readonly tags: readonly (readonly string[] | null)[];
  /** Whether each item's `handleTime` is null (false when it has a value or has no such key). */
  readonly handleTimeNull: readonly boolean[];
  /** Each item's `totalMessages` (2.1), when it is a number (else null). */
  readonly totalMessages: readonly (number | null)[];
  readonly pageSizes: readonly number[];
  /** The walk reached `nextCursor: null`. */
  readonly ended: boolean;
  /** Executions the walk took (resumptions + 1). */
  readonly executions: number;
  /** Empty pages answered with a non-null cursor (a walk that never ends). */
  readonly emptyPagesWithCursor: number;
  /**
   * A page answered for a cursor held exactly the items of the page before it: the cursor did not
   * move the walk on. The walk stops there (the repeated page is in `ids`): walking on to the page
   * bound would only fetch the same page again.
   */
  readonly repeatedPage: boolean;
}

/**
 * One execution: up to `pages` pages from `cursor`; returns what the pages held and where it stopped.
 * `last` is the item ids of the page before (joined by newlines), to tell a page that repeats it.
 */
function walkScript(input: unknown, cursor: string | null, pages: number, last: string | null): string {
  return `
const input = ${literal(input)};
let cursor = ${literal(cursor)};
let last = ${literal(last)};
const out = { ids: [], times: [], statuses: [], platforms: [], tags: [], handleTimeNull: [], totalMessages: [], sizes: [], ended: false, cursor: null, emptyWithCursor: 0, badIds: [], restKeys: [], repeated: false, last: null };
for (let n = 0; n < ${pages}; n++) {
  const page = await call(${literal(SEARCH)}, cursor === null ? input : Object.assign({}, input, { cursor }));
  if (page === null || typeof page !== 'object' || !Array.isArray(page.items) || !('nextCursor' in page))
    return { shape: page };
  for (const k of ['data', 'currentPage', 'totalPages', 'totalRecords']) if (k in page) out.restKeys.push(k);
  out.sizes.push(page.items.length);
  for (const item of page.items) {
    if (typeof item.actionId !== 'string') out.badIds.push(item.actionId === undefined ? null : item.actionId);
    out.ids.push(String(item.actionId));
    out.times.push(typeof item.createdAt === 'string' ? item.createdAt : null);
    out.statuses.push(typeof item.status === 'string' ? item.status : null);
    out.platforms.push(typeof item.platform === 'string' ? item.platform : null);
    out.handleTimeNull.push(item.handleTime === null);
    out.totalMessages.push(typeof item.totalMessages === 'number' ? item.totalMessages : null);
    out.tags.push(Array.isArray(item.tags) ? item.tags.map((t) => (t !== null && typeof t === 'object' ? t.value : t)).filter((t) => typeof t === 'string') : null);
  }
  const key = page.items.map((item) => String(item.actionId)).join('\\n');
  if (page.items.length > 0 && key === last) { out.repeated = true; break; }
  last = key;
  if (page.nextCursor === null) { out.ended = true; break; }
  if (typeof page.nextCursor !== 'string') return { shape: { nextCursor: page.nextCursor } };
  if (page.items.length === 0) out.emptyWithCursor++;
  if (out.emptyWithCursor > 2) break;
  cursor = page.nextCursor;
}
out.cursor = out.ended ? null : cursor;
out.last = last;
return out;`;
}

export interface WalkOptions {
  /** Pages per execution (default 25). */
  readonly pagesPerExecution?: number;
  /** Total pages before the walk stops unfinished (default 200). */
  readonly maxPages?: number;
  /** Runs between executions (after execution n, 1-based), e.g. to ingest records mid-walk. */
  readonly between?: (execution: number) => Promise<void>;
}

/** Follows `nextCursor` from the first page to `null` (or the page bound), resuming across executions. */
export async function walk(session: McpSession, input: unknown, options: WalkOptions = {}): Promise<Walk> {
  const per = options.pagesPerExecution ?? 25;
  const max = options.maxPages ?? 200;
  const acc = {
    ids: [] as string[],
    times: [] as (string | null)[],
    statuses: [] as (string | null)[],
    platforms: [] as (string | null)[],
    tags: [] as (readonly string[] | null)[],
    handleTimeNull: [] as boolean[],
    totalMessages: [] as (number | null)[],
    pageSizes: [] as number[],
    emptyPagesWithCursor: 0,
  };
  let cursor: string | null = null;
  let last: string | null = null;
  let executions = 0;
  let ended = false;
  let repeatedPage = false;
  while (!ended && acc.pageSizes.length < max) {
    executions += 1;
    const out = await runScript(
      session,
      walkScript(input, cursor, Math.min(per, max - acc.pageSizes.length), last),
    );
    if (out.kind === 'threw')
      violate(
        'AGENT-MCP-SEARCH-CURSOR-SAME-INPUT',
        'walk-threw',
        `following nextCursor of ${SEARCH} threw: ${out.message}`,
        { input, cursor },
      );
    if (out.kind === 'failed')
      violate(
        'AGENT-MCP-EXECUTE-CALL-RETURNS-OUTPUT',
        'walk-failed',
        `execute of a ${SEARCH} walk failed: ${out.text}`,
        { input, cursor },
      );
    const v = out.value;
    if (!isObj(v) || 'shape' in v)
      violate(
        'AGENT-MCP-SEARCH-OUTPUT-ITEMS-NEXTCURSOR',
        'shape',
        `${SEARCH} answered no items array and nextCursor: ${brief(isObj(v) ? v['shape'] : v)}`,
        { input },
      );
    const restKeys = v['restKeys'] as unknown[];
    if (restKeys.length > 0)
      violate(
        'AGENT-MCP-OWN-PAGINATION',
        'rest-envelope',
        `${SEARCH} answered REST paging members ${[...new Set(restKeys)].join(', ')} instead of its own`,
        { input },
      );
    const badIds = v['badIds'] as unknown[];
    if (badIds.length > 0)
      violate(
        'AGENT-MCP-IDS-STRINGS-PRESERVED',
        'id-not-string',
        `${SEARCH} items carry actionId that is not a string: ${brief(badIds)}`,
        { input },
      );
    acc.ids.push(...(v['ids'] as string[]));
    acc.times.push(...(v['times'] as (string | null)[]));
    acc.statuses.push(...(v['statuses'] as (string | null)[]));
    acc.platforms.push(...(v['platforms'] as (string | null)[]));
    acc.tags.push(...(v['tags'] as (readonly string[] | null)[]));
    acc.handleTimeNull.push(...(v['handleTimeNull'] as boolean[]));
    acc.totalMessages.push(...(v['totalMessages'] as (number | null)[]));
    acc.pageSizes.push(...(v['sizes'] as number[]));
    acc.emptyPagesWithCursor += v['emptyWithCursor'] as number;
    ended = v['ended'] === true;
    cursor = (v['cursor'] as string | null) ?? null;
    last = (v['last'] as string | null) ?? null;
    repeatedPage = v['repeated'] === true;
    if (repeatedPage || acc.emptyPagesWithCursor > 2) break;
    if (!ended && cursor === null) break;
    if (!ended) await options.between?.(executions);
  }
  return { ...acc, ended, executions, repeatedPage };
}

export const relativeArb: fc.Arbitrary<Relative> = fc.record({
  unit: fc.constantFrom('hour' as const, 'day' as const, 'week' as const, 'month' as const),
  count: fc.integer({ min: 1, max: 12 }),
  calendar: fc.boolean(),
  includeCurrent: fc.boolean(),
});

/** The filter group of 4.18 with the given source and status values (either may be empty). */
export function filterOf(sources: readonly string[], statuses: readonly string[]): SearchInput['filter'] {
  const filters = [
    ...(sources.length > 0
      ? [{ filterType: 'source' as const, operator: 'in' as const, value: sources }]
      : []),
    ...(statuses.length > 0
      ? [{ filterType: 'status' as const, operator: 'in' as const, value: statuses }]
      : []),
  ];
  return { filterType: 'and', filters };
}

/** Is `inner` contained in `outer` (as sets)? Returns the first id of `inner` not in `outer`. */
export function notIn(inner: readonly string[], outer: readonly string[]): string | undefined {
  const set = new Set(outer);
  return inner.find((id) => !set.has(id));
}

/** The first id seen twice. */
export function duplicate(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}
