import fc from 'fast-check';
import { boundInstant, window } from '../../src/arbitraries/index.ts';
import { type ActionLister, ActionWindowError, actionWindow } from '../../src/client/action-window.ts';
import { runExamples, runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { DAY_MS, HISTORY_DAYS, historyWindow, settledAnchor } from './discover.ts';
import { arr, call, expectConforming, num, obj, str } from './support.ts';

interface ListPage {
  readonly ids: readonly string[];
  readonly items: readonly Record<string, unknown>[];
  readonly body: Record<string, unknown>;
}

/** One action-list page, checked against the contract. */
export async function listPage(
  ctx: LawContext,
  query: Record<string, string | number | boolean>,
  statusRule = 'LIST-RESPONSE-ENVELOPE',
): Promise<ListPage> {
  const res = await call(ctx, 'listActions', { auth: 'read', query });
  const ok = expectConforming(ctx, 'listActions', res, { status: 200, statusRule });
  const body = obj(ok.parsed);
  const items = arr(body['data']).map(obj);
  return { ids: items.map((i) => str(i['actionId']) ?? ''), items, body };
}

function checkTotals(rule: string, what: string, body: Record<string, unknown>, pageSize: number): void {
  const total = num(body['totalRecords']) ?? 0;
  const pages = num(body['totalPages']);
  if (pages !== Math.ceil(total / pageSize)) {
    violate(
      rule,
      'total-pages',
      `${what}: totalPages ${String(pages)} is not ceil(totalRecords ${total} / pageSize ${pageSize})`,
    );
  }
}

export const listPageSize: Law = {
  id: 'paging.list-page-size',
  group: 'paging',
  title:
    'action list: pageSize honoured (default 50), data.length <= pageSize, totalPages = ceil(totalRecords / pageSize)',
  ruleIds: [
    'LIST-PAGESIZE-BOUNDS-DATA',
    'LIST-PAGESIZE-DEFAULT-50',
    'LIST-PAGESIZE-RANGE',
    'LIST-RESPONSE-ENVELOPE',
  ],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const defaults = await runExamples(ctx, async () => {
      const page = await listPage(ctx, { ...historyWindow(ctx) });
      const total = num(page.body['totalRecords']) ?? 0;
      if (num(page.body['pageSize']) !== 50 || page.items.length !== Math.min(50, total)) {
        violate(
          'LIST-PAGESIZE-DEFAULT-50',
          'default-page-size',
          `listActions without pageSize reports pageSize ${String(page.body['pageSize'])} with ${page.items.length} of ${total} records`,
        );
      }
      // Day windows a page of 500 can hold whole, with the legacy responded flag false (4.1): the
      // list it selects counts the records it holds.
      const day = settledAnchor(ctx) - (settledAnchor(ctx) % DAY_MS);
      for (const back of [1, 3, 8]) {
        const w = {
          from: new Date(day - back * DAY_MS).toISOString(),
          to: new Date(day - (back - 1) * DAY_MS).toISOString(),
        };
        const unresponded = await listPage(ctx, { ...w, pageSize: 500, filter: 'responded=false' });
        const count = num(unresponded.body['totalRecords']) ?? 0;
        if (unresponded.items.length !== Math.min(500, count))
          violate(
            'LIST-PAGESIZE-BOUNDS-DATA',
            'short-page:responded-false',
            `listActions filter=responded=false from=${w.from} to=${w.to} pageSize 500 returned ${unresponded.items.length} records with totalRecords ${count}`,
          );
        // A fullFilter of no term (empty or blank; the DSL grammar is not shown, 4.13) may be refused
        // with 400; answered, its page counts what it holds like any other.
        for (const fullFilter of ['', ' ']) {
          const res = await call(ctx, 'listActions', {
            auth: 'read',
            query: { ...w, pageSize: 500, fullFilter },
          });
          if (res.status === 400) continue;
          const ok = expectConforming(ctx, 'listActions', res, { status: 200 });
          const body = obj(ok.parsed);
          const held = arr(body['data']).length;
          const all = num(body['totalRecords']) ?? 0;
          if (held !== Math.min(500, all))
            violate(
              'LIST-PAGESIZE-BOUNDS-DATA',
              'short-page:empty-full-filter',
              `listActions fullFilter=${JSON.stringify(fullFilter)} from=${w.from} to=${w.to} pageSize 500 returned ${held} records with totalRecords ${all}`,
            );
        }
      }
      return 1;
    });
    if (defaults.kind !== 'passed') return defaults;
    const arb = fc.record({
      pageSize: fc.option(fc.integer({ min: 1, max: 500 }), { nil: undefined }),
      w: window({ anchor: ctx.now(), spanDays: HISTORY_DAYS }),
      // The legacy responded flag set false (4.1): the list it selects counts what it holds as well.
      unresponded: fc.boolean(),
    });
    return runProperty(ctx, arb, async ({ pageSize, w, unresponded }) => {
      const query = {
        ...w,
        ...(pageSize === undefined ? {} : { pageSize }),
        ...(unresponded ? { filter: 'responded=false' } : {}),
      };
      const page = await listPage(ctx, query);
      const expected = pageSize ?? 50;
      const rule = pageSize === undefined ? 'LIST-PAGESIZE-DEFAULT-50' : 'LIST-PAGESIZE-BOUNDS-DATA';
      if (num(page.body['pageSize']) !== expected)
        violate(
          rule,
          'page-size-echo',
          `listActions reports pageSize ${String(page.body['pageSize'])}, requested ${expected}`,
        );
      if (page.items.length > expected)
        violate(
          rule,
          'data-over-page-size',
          `listActions returned ${page.items.length} records for pageSize ${expected}`,
        );
      const total = num(page.body['totalRecords']) ?? 0;
      if (page.items.length !== Math.min(expected, total)) {
        violate(
          'LIST-PAGESIZE-BOUNDS-DATA',
          'short-page',
          `listActions returned ${page.items.length} records with totalRecords ${total} and pageSize ${expected}`,
        );
      }
      checkTotals('LIST-RESPONSE-ENVELOPE', 'listActions', page.body, expected);
    });
  },
};

async function searchPage(ctx: LawContext, query: Record<string, number | string>) {
  const res = await call(ctx, 'searchConversations', { auth: 'read', query });
  const ok = expectConforming(ctx, 'searchConversations', res, {
    status: 200,
    statusRule: 'SEARCH-PAGE-ECHO',
  });
  const body = obj(ok.parsed);
  const items = arr(body['data']).map(obj);
  return { body, items, keys: items.map((i) => `${str(i['actionId'])}/${str(i['threadId'])}`) };
}

export const searchPaging: Law = {
  id: 'paging.search-pages',
  group: 'paging',
  title: 'conversation search: page echo, defaults 1/50, pages disjoint and stable, totals consistent',
  ruleIds: [
    'SEARCH-PAGE-ECHO',
    'SEARCH-PAGE-DEFAULT-1',
    'SEARCH-PAGESIZE-DEFAULT-50',
    'SEARCH-TOTAL-CAPPED',
    'SEARCH-ENVELOPE',
  ],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const defaults = await runExamples(ctx, async () => {
      const { body, items } = await searchPage(ctx, {});
      if (num(body['currentPage']) !== 1)
        violate(
          'SEARCH-PAGE-DEFAULT-1',
          'default-page',
          `search without page reports currentPage ${String(body['currentPage'])}`,
        );
      if (num(body['pageSize']) !== 50 || items.length > 50) {
        violate(
          'SEARCH-PAGESIZE-DEFAULT-50',
          'default-page-size',
          `search without pageSize reports pageSize ${String(body['pageSize'])} with ${items.length} items`,
        );
      }
      // The last page an exact count implies holds the rest of the items (4.13: only a capped count
      // is not exact), and the page after it none.
      const first = await searchPage(ctx, { pageSize: 100 });
      const total = num(first.body['totalRecords']) ?? 0;
      const last = Math.ceil(total / 100);
      if (first.body['totalRecordsCapped'] === false && last > 1 && last < 10_000) {
        const end = await searchPage(ctx, { page: last, pageSize: 100 });
        const after = await searchPage(ctx, { page: last + 1, pageSize: 100 });
        const expected = total - (last - 1) * 100;
        if (end.items.length !== expected || after.items.length !== 0)
          violate(
            'SEARCH-TOTAL-CAPPED',
            'last-page',
            `search totalRecords ${total} (not capped) implies ${expected} items on page ${last} of pageSize 100 and none on page ${last + 1}, but they hold ${end.items.length} and ${after.items.length}`,
          );
      }
      return 1;
    });
    if (defaults.kind !== 'passed') return defaults;
    const arb = fc.record({
      pageSize: fc.integer({ min: 1, max: 30 }),
      page: fc.integer({ min: 1, max: 4 }),
    });
    return runProperty(ctx, arb, async ({ pageSize, page }) => {
      const a = await searchPage(ctx, { page, pageSize });
      const b = await searchPage(ctx, { page: page + 1, pageSize });
      const again = await searchPage(ctx, { page, pageSize });
      for (const [p, r] of [
        [page, a],
        [page + 1, b],
      ] as const) {
        if (
          num(r.body['currentPage']) !== p ||
          num(r.body['pageSize']) !== pageSize ||
          r.items.length > pageSize
        ) {
          violate(
            'SEARCH-PAGE-ECHO',
            'page-echo',
            `search page ${p} pageSize ${pageSize} reports currentPage ${String(r.body['currentPage'])}, pageSize ${String(r.body['pageSize'])}, ${r.items.length} items`,
          );
        }
      }
      const overlap = a.keys.filter((k) => b.keys.includes(k));
      if (overlap.length > 0)
        violate(
          'SEARCH-PAGE-ECHO',
          'pages-overlap',
          `search pages ${page} and ${page + 1} (pageSize ${pageSize}) share ${overlap.slice(0, 3).join(', ')}`,
        );
      if (again.keys.join() !== a.keys.join())
        violate(
          'SEARCH-PAGE-ECHO',
          'page-unstable',
          `search page ${page} (pageSize ${pageSize}) changed between two reads`,
        );
      const capped = a.body['totalRecordsCapped'] === true;
      const total = num(a.body['totalRecords']) ?? 0;
      if (!capped) {
        const expected = Math.max(0, Math.min(pageSize, total - (page - 1) * pageSize));
        if (a.items.length !== expected) {
          violate(
            'SEARCH-TOTAL-CAPPED',
            'count-inexact',
            `search page ${page} pageSize ${pageSize}: ${a.items.length} items, but totalRecords ${total} (not capped) implies ${expected}`,
          );
        }
        checkTotals('SEARCH-ENVELOPE', 'searchConversations', a.body, pageSize);
      }
    });
  },
};

export const tagPaging: Law = {
  id: 'paging.tags-has-more',
  group: 'paging',
  title:
    'tag analytics: pagination echoes limit/offset and hasMore = offset + page < total (the page ending at the last tag included)',
  ruleIds: ['SCHEMA-PAGINATION', 'TAGS-HAS-MORE-NEXT-PAGE', 'TAGS-QUERY-PARAMS'],
  needs: { keys: ['read'] },
  run: (ctx) => {
    const arb = fc.record({
      limit: fc.integer({ min: 1, max: 15 }),
      offset: fc.integer({ min: 0, max: 40 }),
      w: window({ anchor: ctx.now(), spanDays: HISTORY_DAYS }),
    });
    return runProperty(ctx, arb, async ({ limit, offset, w }) => {
      const res = await call(ctx, 'getTagAnalytics', { auth: 'read', query: { ...w, limit, offset } });
      const ok = expectConforming(ctx, 'getTagAnalytics', res, {
        status: 200,
        statusRule: 'TAGS-QUERY-PARAMS',
        before: (parsed) => {
          const data = obj(obj(parsed)['data']);
          const p = obj(data['pagination']);
          const rows = arr(data['tagBreakdown']).length;
          if (num(p['limit']) !== limit || num(p['offset']) !== offset) {
            violate(
              'TAGS-QUERY-PARAMS',
              'pagination-echo',
              `tag analytics limit=${limit} offset=${offset} reports pagination ${JSON.stringify(p)}`,
            );
          }
          if (rows > limit)
            violate(
              'SCHEMA-PAGINATION',
              'rows-over-limit',
              `tag analytics returned ${rows} rows for limit ${limit}`,
            );
          const total = num(p['total']) ?? 0;
          if (p['hasMore'] !== offset + rows < total) {
            violate(
              'TAGS-HAS-MORE-NEXT-PAGE',
              'has-more',
              `tag analytics hasMore ${String(p['hasMore'])} with offset ${offset}, ${rows} rows, total ${total}`,
            );
          }
        },
      });
      // The page that ends exactly at the last tag (offset + limit == total), which random offsets
      // seldom hit: nothing follows it, so hasMore is false.
      const total = num(obj(obj(obj(ok.parsed)['data'])['pagination'])['total']);
      if (total === undefined || total < 1) return;
      const endLimit = Math.min(limit, total);
      const endOffset = total - endLimit;
      const end = await call(ctx, 'getTagAnalytics', {
        auth: 'read',
        query: { ...w, limit: endLimit, offset: endOffset },
      });
      expectConforming(ctx, 'getTagAnalytics', end, {
        status: 200,
        statusRule: 'TAGS-QUERY-PARAMS',
        before: (parsed) => {
          const p = obj(obj(obj(parsed)['data'])['pagination']);
          if (num(p['total']) === total && p['hasMore'] !== false)
            violate(
              'TAGS-HAS-MORE-NEXT-PAGE',
              'has-more-at-end',
              `tag analytics hasMore ${String(p['hasMore'])} with offset ${endOffset} and limit ${endLimit}: the page ends at the last of ${total} tags`,
            );
        },
      });
    });
  },
};

export const movingWindow: Law = {
  id: 'paging.moving-window',
  group: 'paging',
  title:
    "the spec's recipe (move the to bound, deduplicate on actionId) gathers every action of a window exactly once",
  ruleIds: ['LIST-NO-PAGE-INPUT', 'LIST-TO-INCLUSIVE', 'ID-ACTIONID-STABLE'],
  needs: { keys: ['read'] },
  run: (ctx) => {
    const arb = fc.record({
      w: window({ anchor: settledAnchor(ctx), spanDays: 20 }),
      pageSize: fc.integer({ min: 5, max: 60 }),
    });
    return runProperty(
      ctx,
      arb,
      async ({ w: window0, pageSize }) => {
        let w = window0;
        // The ground truth is one page of 500: on a busy deployment, narrow the window until it fits.
        let truth = await listPage(ctx, { ...w, pageSize: 500 }, 'LIST-NO-PAGE-INPUT');
        for (let i = 0; i < 12 && (num(truth.body['totalRecords']) ?? 0) > 500; i++) {
          const lo = boundInstant(w.from);
          w = { from: new Date(lo + (boundInstant(w.to) - lo) / 2).toISOString(), to: w.to };
          truth = await listPage(ctx, { ...w, pageSize: 500 }, 'LIST-NO-PAGE-INPUT');
        }
        if ((num(truth.body['totalRecords']) ?? 0) > 500) return;
        // The recipe is the client's own (`api.actions.all`), each page it asks for checked here.
        const lister: ActionLister = {
          call: async (_operationId, input) => {
            const page = await listPage(ctx, { ...input.query }, 'LIST-NO-PAGE-INPUT');
            return { ok: true, status: 200, body: page.body } as unknown as Awaited<
              ReturnType<ActionLister['call']>
            >;
          },
        };
        const seen = new Set<string>();
        try {
          for await (const action of actionWindow(lister, { ...w, pageSize })) seen.add(action.actionId);
        } catch (error) {
          if (!(error instanceof ActionWindowError)) throw error;
          violate(
            'LIST-NO-PAGE-INPUT',
            'recipe-incomplete',
            `moving windows (pageSize ${pageSize}) over ${w.from}..${w.to} stopped: ${error.message}`,
          );
        }
        const missing = truth.ids.filter((id) => !seen.has(id));
        const extra = [...seen.keys()].filter((id) => !truth.ids.includes(id));
        if (missing.length > 0 || extra.length > 0) {
          violate(
            'LIST-NO-PAGE-INPUT',
            'recipe-incomplete',
            `moving windows (pageSize ${pageSize}) over ${w.from}..${w.to} missed ${missing.length} (${missing.slice(0, 3).join(', ')}) and added ${extra.length} of ${truth.ids.length} actions`,
          );
        }
      },
      { runs: Math.min(ctx.runs, 8) },
    );
  },
};

export const pagingLaws: readonly Law[] = [listPageSize, searchPaging, tagPaging, movingWindow];
