/**
 * Cursor laws of `query.search.actions` as properties (fast-check): following nextCursor from the first
 * page visits every matching action exactly once in the listing order and ends with null; a cursor is
 * bound to its exact input; a corrupted cursor is refused; records ingested through REST while an agent
 * pages cause neither duplicates nor skips.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meaningOf } from '../mocks/agent/operations/search-actions.ts';
import { PLATFORMS, STATUSES } from '../mocks/agent/operations/vocabulary.ts';
import { actionIdOfRow, orgData } from '../mocks/engine/records/state.ts';
import { createOperationsHarness, type OperationsHarness, ORG, START } from './agent-operations-support.ts';

const DAY = 86_400_000;
type Item = Record<string, unknown>;

interface Query {
  readonly limit: number;
  readonly days: number;
  readonly sources: readonly string[];
  readonly statuses: readonly string[];
}

const inputOf = (q: Query): Record<string, unknown> => {
  const filters: unknown[] = [];
  if (q.sources.length > 0) filters.push({ filterType: 'source', operator: 'in', value: q.sources });
  if (q.statuses.length > 0) filters.push({ filterType: 'status', operator: 'in', value: q.statuses });
  return {
    dateRange: { from: new Date(START - q.days * DAY).toISOString(), to: new Date(START).toISOString() },
    filter: { filterType: 'and', filters },
    limit: q.limit,
  };
};

/** The expected listing, computed from the store directly: createdAt descending, then actionId ascending. */
function oracle(h: OperationsHarness, q: Query): string[] {
  const org = orgData(h.engine.state.data, ORG);
  const t = org.table;
  const out: { id: string; at: number }[] = [];
  for (let row = 0; row < t.size; row++) {
    const at = t.createdAt[row] ?? 0;
    if (at < START - q.days * DAY || at > START) continue;
    if (q.sources.length > 0 && !q.sources.includes(PLATFORMS[t.platform[row] ?? 0] ?? '')) continue;
    if (q.statuses.length > 0 && !q.statuses.includes(STATUSES[t.status[row] ?? 0] ?? '')) continue;
    out.push({ id: actionIdOfRow(org, row), at });
  }
  out.sort((a, b) => b.at - a.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.map((x) => x.id);
}

async function page(h: OperationsHarness, input: Record<string, unknown>) {
  return (await h.value('query.search.actions', input)) as { items: Item[]; nextCursor: string | null };
}

/** Follows nextCursor to the end; `between` runs after each page (ingestion mid-walk). */
async function walk(
  h: OperationsHarness,
  input: Record<string, unknown>,
  between?: (pageNo: number, last: Item | undefined) => Promise<void>,
) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pageNo = 0;
  do {
    const answer = await page(h, cursor === null ? input : { ...input, cursor });
    expect(answer.items.length).toBeLessThanOrEqual(Number(input['limit']));
    if (pageNo > 0 || answer.nextCursor !== null) expect(answer.items.length).toBeGreaterThan(0);
    ids.push(...answer.items.map((i) => String(i['actionId'])));
    cursor = answer.nextCursor;
    pageNo++;
    // A cursor that does not advance would loop forever: fail instead of hanging.
    if (pageNo > 2000) throw new Error('nextCursor never reached null in 2000 pages');
    if (cursor !== null) await between?.(pageNo, answer.items[answer.items.length - 1]);
  } while (cursor !== null);
  return ids;
}

const shared = createOperationsHarness();
const catalog = orgData(shared.engine.state.data, ORG).catalog;
const query = fc.record({
  limit: fc.integer({ min: 1, max: 30 }),
  days: fc.integer({ min: 1, max: 95 }),
  sources: fc.subarray([...catalog.platforms, 'TIKTOK'], { maxLength: 3 }),
  statuses: fc.subarray([...STATUSES], { maxLength: 2 }),
});

describe('cursor laws of query.search.actions', () => {
  it('AGENT-MCP-SEARCH-CURSOR-SAME-INPUT, AGENT-MCP-SEARCH-NEXTCURSOR-NULL-AT-END: every matching action exactly once, in order, then null', async () => {
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const ids = await walk(shared, inputOf(q));
        expect(ids).toEqual(oracle(shared, q));
        expect(new Set(ids).size).toBe(ids.length);
      }),
      { numRuns: 40 },
    );
    expect(shared.engine.selfCheckFailures).toEqual([]);
  });

  it('AGENT-MCP-SEARCH-WINDOW-SUBSET: a narrower window or fewer values gathers a subset; the same query walked twice gathers the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.integer({ min: 0, max: 60 }),
        fc.nat(3),
        async (wide, shorter, dropValues) => {
          const narrow: Query = {
            ...wide,
            days: Math.max(1, wide.days - shorter),
            sources:
              wide.sources.length === 0
                ? []
                : wide.sources.slice(0, Math.max(1, wide.sources.length - dropValues)),
          };
          const wideIds = new Set(await walk(shared, inputOf(wide)));
          for (const id of await walk(shared, inputOf(narrow))) expect(wideIds.has(id)).toBe(true);
          expect(new Set(await walk(shared, inputOf(wide)))).toEqual(wideIds);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH: the analytics count equals what search gathers over the same window and filter; groupBy rows sum to the total', async () => {
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.constantFrom('source', 'status', 'sentiment', 'queue', 'assignee', 'responded', 'day', 'week'),
        async (q, field) => {
          const { dateRange, filter } = inputOf(q);
          const lines = [{ measure: 'actions', aggregation: 'count' }];
          const total = (
            await shared.value('query.analytics.actions', {
              v: 1,
              source: 'actions',
              dateRange,
              filter,
              lines,
            })
          )['rows'] as {
            values: Record<string, number>;
          }[];
          const gathered = await walk(shared, inputOf(q));
          expect(total[0]?.values['actions.count']).toBe(gathered.length);
          const grouped = (
            await shared.value('query.analytics.actions', {
              v: 1,
              source: 'actions',
              dateRange,
              filter,
              lines,
              groupBy: [{ field }],
            })
          )['rows'] as {
            values: Record<string, number>;
          }[];
          expect(grouped.reduce((n, row) => n + (row.values['actions.count'] ?? 0), 0)).toBe(gathered.length);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('AGENT-MCP-SEARCH-CURSOR-BOUND-TO-INPUT: a cursor with any other input is invalid input naming cursor; key order does not matter', async () => {
    const change = fc.oneof(
      fc.record({ limit: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ dateRange: fc.constant({ relative: { unit: 'day', count: 30 } }) }),
      fc.record({
        filter: fc.constant({
          filterType: 'and',
          filters: [{ filterType: 'status', operator: 'in', value: ['OPEN'] }],
        }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        query.filter((q) => oracle(shared, q).length > q.limit),
        change,
        async (q, delta) => {
          const input = inputOf(q);
          const first = await page(shared, input);
          expect(first.nextCursor).not.toBeNull();
          const reordered = Object.fromEntries(
            Object.entries({ ...input, cursor: first.nextCursor }).reverse(),
          );
          expect((await shared.call('query.search.actions', reordered)).ok).toBe(true);
          const other = { ...input, ...delta, cursor: first.nextCursor };
          // A change of bytes that keeps the meaning (a default written out) keeps the cursor valid.
          fc.pre(JSON.stringify(meaningOf(input)) !== JSON.stringify(meaningOf(other)));
          const outcome = await shared.call('query.search.actions', other);
          expect(outcome.ok).toBe(false);
          if (!outcome.ok) expect(outcome.failure).toMatchObject({ kind: 'invalid_input', field: '/cursor' });
        },
      ),
      { numRuns: 30 },
    );
  });

  it('a corrupted cursor (any character changed, cut or extended) is refused naming cursor', async () => {
    const input = inputOf({ limit: 3, days: 60, sources: [], statuses: [] });
    const cursor = (await page(shared, input)).nextCursor ?? '';
    expect(cursor).not.toBe('');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=%/';
    const corrupt = fc.oneof(
      fc
        .record({ at: fc.nat(cursor.length - 1), ch: fc.constantFrom(...alphabet) })
        .map(({ at, ch }) => cursor.slice(0, at) + ch + cursor.slice(at + 1)),
      fc.nat(cursor.length - 1).map((n) => cursor.slice(0, n)),
      fc.string({ minLength: 1, maxLength: 8 }).map((s) => cursor + s),
    );
    await fc.assert(
      fc.asyncProperty(corrupt, async (bad) => {
        fc.pre(bad !== cursor && bad.length > 0);
        const outcome = await shared.call('query.search.actions', { ...input, cursor: bad });
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(outcome.failure).toMatchObject({ kind: 'invalid_input', field: '/cursor' });
      }),
      { numRuns: 200 },
    );
  });

  it('stable while records are ingested mid-walk (REST ingestion, settled on the engine clock): no duplicates, no skips', async () => {
    const arrival = fc.record({
      afterPage: fc.integer({ min: 1, max: 4 }),
      offsets: fc.uniqueArray(fc.integer({ min: 1, max: 30 * DAY - 1 }), { minLength: 1, maxLength: 15 }),
    });
    await fc.assert(
      fc.asyncProperty(arrival, async ({ afterPage, offsets }) => {
        const h = createOperationsHarness({ actions: 300 });
        const q: Query = { limit: 8, days: 30, sources: [], statuses: [] };
        const before = oracle(h, q);
        let boundary: number | null = null;
        const ids = await walk(h, inputOf(q), async (pageNo, last) => {
          if (pageNo !== afterPage) return;
          boundary = Date.parse(String(last?.['createdAt']));
          const records = offsets.map((offset, i) => ({
            externalId: `mid-walk-${i}`,
            authorId: '000123',
            authorName: 'Ana',
            body: `arrived while paging ${i}`,
            createdAt: new Date(START - offset).toISOString(),
            recordType: 'message',
          }));
          const answer = await h.rest(
            'POST',
            '/v0/ingest/records',
            { platform: 'DISCORD', serverId: '0042', serverName: 'Guild', records },
            h.importKey,
          );
          expect(answer.status).toBe(202);
          h.engine.admin.advanceClock(500);
        });
        expect(new Set(ids).size).toBe(ids.length);
        for (const id of before) expect(ids).toContain(id);
        const added = ids.filter((id) => !before.includes(id));
        // Ingested actions older than the page boundary are met once in their place; newer ones were already passed.
        const expectedAdded =
          boundary === null ? 0 : offsets.filter((o) => START - o < (boundary ?? 0)).length;
        expect(added).toHaveLength(expectedAdded);
        expect(added.every((id) => id.startsWith('ing_'))).toBe(true);
        expect(h.engine.selfCheckFailures).toEqual([]);
        expect(h.engine.unexpectedErrors).toEqual([]);
      }),
      { numRuns: 12 },
    );
  });
});
