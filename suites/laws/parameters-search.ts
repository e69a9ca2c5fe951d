/**
 * Conversation search (spec 4.13): the filter's one sample form (`key=value` terms joined with `+`,
 * all of which must hold; `status=OPEN`) holds on every item and a further term (a platform, a tag, a
 * queue of those items) never counts more and, applied, holds on every item too;
 * pages of `pageSize` are slices of one larger page. Keys beyond `status` may be refused with 400.
 */
import fc from 'fast-check';
import { runExamples, runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { arr, call, expectConforming, num, obj, str } from './support.ts';

interface SearchAnswer {
  readonly items: readonly Record<string, unknown>[];
  readonly total: number;
  readonly capped: boolean;
  readonly keys: readonly string[];
}

/** One search page; `refusable` accepts a 400 (a DSL key the spec does not show) as undefined. */
async function search(
  ctx: LawContext,
  query: Record<string, string | number>,
  rule: string,
  refusable = false,
): Promise<SearchAnswer | undefined> {
  const res = await call(ctx, 'searchConversations', { auth: 'read', query });
  if (refusable && res.status === 400) {
    expectConforming(ctx, 'searchConversations', res, { status: 400, statusRule: rule });
    return undefined;
  }
  const ok = expectConforming(ctx, 'searchConversations', res, {
    status: 200,
    statusRule: rule,
    what: `searchConversations ${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`,
  });
  const body = obj(ok.parsed);
  const items = arr(body['data']).map(obj);
  // A first page that holds fewer items than it could is the whole answer: uncapped, its count is exact.
  const asked = Number(query['pageSize'] ?? 50);
  const page = Number(query['page'] ?? 1);
  const total = num(body['totalRecords']);
  if (page === 1 && items.length < asked && body['totalRecordsCapped'] === false && total !== items.length)
    violate(
      'SEARCH-TOTAL-CAPPED',
      'total-not-exact',
      `searchConversations ${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}: page 1 holds every item, ${items.length}, but totalRecords is ${total} with totalRecordsCapped false`,
      { query },
    );
  // Each matching action is one item: an answer that lists one twice counts it twice.
  const ids = items.map((i) => str(i['actionId']));
  const twice = ids.find((id, k) => id !== undefined && ids.indexOf(id) !== k);
  if (twice !== undefined)
    violate(
      'SEARCH-ITEMS-DISTINCT',
      'item-twice',
      `searchConversations ${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}: action ${twice} is listed twice on one page`,
      { query },
    );
  return {
    items,
    total: num(body['totalRecords']) ?? 0,
    capped: body['totalRecordsCapped'] === true,
    keys: items.map((i) => `${str(i['actionId']) ?? '?'}/${str(i['threadId']) ?? '?'}`),
  };
}

/** The first two pages of 100 under a filter (the rule charged if a status other than 200 comes back). */
async function firstPages(
  ctx: LawContext,
  filter: string,
  rule: string,
  refusable: boolean,
): Promise<SearchAnswer | undefined> {
  const one = await search(ctx, { filter, pageSize: 100 }, rule, refusable);
  if (one === undefined || one.items.length < 100) return one;
  const two = await search(ctx, { filter, pageSize: 100, page: 2 }, rule, refusable);
  return two === undefined
    ? one
    : { ...one, items: [...one.items, ...two.items], keys: [...one.keys, ...two.keys] };
}

function checkHolds(
  answer: SearchAnswer,
  filter: string,
  terms: Readonly<Record<string, string>>,
  rule: string,
): void {
  for (const item of answer.items) {
    for (const [key, value] of Object.entries(terms)) {
      if (item[key] !== value)
        violate(
          rule,
          `term-fails:${key}`,
          `search filter=${filter} returns action ${String(item['actionId'])} with ${key} ${JSON.stringify(item[key])}: every term must hold`,
        );
    }
  }
}

/**
 * A further term only narrows: every item of `status=OPEN+k=v` is an item of `status=OPEN`. Checked
 * where the status=OPEN answer is whole (every item on its two pages, the count exact), against it as
 * read before and after the conjunctions, so an action that came in meanwhile (an ingested record
 * processed during the run) is not taken for one the filter added. An item of neither is one no
 * status=OPEN search of this key answers: another organization's, or a record the term drew from
 * outside the filter.
 */
async function checkSubsets(
  ctx: LawContext,
  open: SearchAnswer,
  narrowed: readonly { filter: string; answer: SearchAnswer }[],
): Promise<number> {
  const whole = (a: SearchAnswer): boolean => !a.capped && a.items.length === a.total;
  if (narrowed.length === 0 || !whole(open)) return 0;
  const after = await firstPages(ctx, 'status=OPEN', 'SEARCH-FILTER-STATUS-OPEN', false);
  if (after === undefined) return 0;
  const known = new Set([...open.keys, ...after.keys]);
  let checks = 0;
  for (const { filter, answer } of narrowed) {
    const extra = answer.keys.find((key) => !known.has(key));
    checks += answer.keys.length;
    if (extra !== undefined)
      violate(
        'SEARCH-FILTER-TERMS-NARROW',
        'term-adds-items',
        `search filter=${filter} answers the item ${extra} (actionId/threadId), which filter=status=OPEN does not answer, read whole (${open.total} items) before and after: a further term can only narrow the match`,
        { filter, item: extra },
      );
  }
  return checks;
}

export const searchFilter: Law = {
  id: 'parameters.search-filter',
  group: 'parameters',
  title:
    "conversation search: the spec's sample filter status=OPEN holds on every item; a further term (status=OPEN+platform=P) holds too and never counts more (that key may be refused with 400 or ignored)",
  ruleIds: [
    'SEARCH-FILTER-STATUS-OPEN',
    'SEARCH-FILTER-TERMS-NARROW',
    'SEARCH-FILTER-ALL-TERMS',
    'SEARCH-ENVELOPE',
    'SEARCH-TOTAL-CAPPED',
    'SEARCH-ITEMS-DISTINCT',
  ],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      let checks = 0;
      const unfiltered = await search(ctx, { pageSize: 1 }, 'SEARCH-ENVELOPE');
      const open = await firstPages(ctx, 'status=OPEN', 'SEARCH-FILTER-STATUS-OPEN', false);
      if (open === undefined || unfiltered === undefined) return checks;
      checkHolds(open, 'status=OPEN', { status: 'OPEN' }, 'SEARCH-FILTER-STATUS-OPEN');
      checks += open.items.length;
      if (!open.capped && !unfiltered.capped && open.total > unfiltered.total)
        violate(
          'SEARCH-FILTER-TERMS-NARROW',
          'filter-counts-more',
          `search filter=status=OPEN counts ${open.total}, more than the ${unfiltered.total} of the unfiltered search`,
        );
      // Two platforms of the OPEN items: each conjunction holds and counts no more than status=OPEN.
      const platforms = [
        ...new Set(open.items.flatMap((i) => (typeof i['platform'] === 'string' ? [i['platform']] : []))),
      ];
      // Tags of the OPEN items as a further term (a key beyond the sample: refused, ignored or applied),
      // the most frequent first: a count that takes in records beyond the filter shows on a small page.
      const seen = new Map<string, number>();
      for (const item of open.items)
        for (const t of arr(item['tags'])) {
          const v = str(obj(t)['value']);
          if (v !== undefined && /^[\w -]+$/.test(v)) seen.set(v, (seen.get(v) ?? 0) + 1);
        }
      /** Conjunctions with status=OPEN, each checked against the status=OPEN answer at the end. */
      const narrowed: { filter: string; answer: SearchAnswer }[] = [];
      for (const [tag] of [...seen].sort((a, b) => b[1] - a[1]).slice(0, 6)) {
        const filter = `status=OPEN+tag=${tag}`;
        const withTag = await firstPages(ctx, filter, 'SEARCH-FILTER-TERMS-NARROW', true);
        if (withTag === undefined) break;
        checkHolds(withTag, filter, { status: 'OPEN' }, 'SEARCH-FILTER-ALL-TERMS');
        narrowed.push({ filter, answer: withTag });
        checks += withTag.items.length + 1;
      }
      for (const platform of platforms.slice(0, 2)) {
        const filter = `status=OPEN+platform=${platform}`;
        const both = await firstPages(ctx, filter, 'SEARCH-FILTER-TERMS-NARROW', true);
        if (both === undefined) continue;
        narrowed.push({ filter, answer: both });
        // Every term of a conjunction holds on every item it answers (4.13: "all of which must hold").
        checkHolds(both, filter, { status: 'OPEN' }, 'SEARCH-FILTER-ALL-TERMS');
        // A key beyond the sample may be refused (400) or ignored (the status=OPEN answer exactly);
        // applied, it must hold on every item.
        const ignored = both.total === open.total && both.keys.join() === open.keys.join();
        if (!ignored) checkHolds(both, filter, { platform }, 'SEARCH-FILTER-ALL-TERMS');
        if (!both.capped && !open.capped && both.total > open.total)
          violate(
            'SEARCH-FILTER-TERMS-NARROW',
            'term-counts-more',
            `search filter=${filter} counts ${both.total}, more than the ${open.total} of filter=status=OPEN`,
          );
        checks += both.items.length + 1;
      }
      // The status of the last item of the unfiltered search as the filter: a store that reads the
      // history from one end must not meet that item more than once at the other.
      if (!unfiltered.capped && unfiltered.total > 1 && unfiltered.total <= 10_000) {
        const last = await search(ctx, { pageSize: 1, page: unfiltered.total }, 'SEARCH-ENVELOPE');
        const status = str(last?.items[0]?.['status']);
        if (status !== undefined && /^\w+$/.test(status)) {
          const same = await firstPages(ctx, `status=${status}`, 'SEARCH-FILTER-TERMS-NARROW', true);
          if (same !== undefined) checks += same.items.length;
        }
      }
      // Queues of the OPEN items, a key the full DSL filters by (4.1: the legacy filters cannot filter
      // by platform, queue or status): refused, ignored, or holding on every item it answers.
      const queues = new Map<string, number>();
      for (const item of open.items) {
        const q = str(item['queue']);
        if (q !== undefined && /^[\w -]+$/.test(q)) queues.set(q, (queues.get(q) ?? 0) + 1);
      }
      for (const [queue] of [...queues].sort((a, b) => b[1] - a[1]).slice(0, 2)) {
        const filter = `status=OPEN+queue=${queue}`;
        const both = await firstPages(ctx, filter, 'SEARCH-FILTER-TERMS-NARROW', true);
        if (both === undefined) continue;
        narrowed.push({ filter, answer: both });
        const ignored = both.total === open.total && both.keys.join() === open.keys.join();
        if (!ignored) checkHolds(both, filter, { status: 'OPEN', queue }, 'SEARCH-FILTER-ALL-TERMS');
        checks += both.items.length + 1;
      }
      checks += await checkSubsets(ctx, open, narrowed);
      return checks;
    }),
};

export const searchPages: Law = {
  id: 'parameters.search-pages',
  group: 'parameters',
  title: 'conversation search: page p of pageSize s is the slice [(p-1)s, ps) of page 1 of pageSize p*s',
  ruleIds: ['SEARCH-PAGES-AGREE', 'SEARCH-PAGE-ECHO', 'SEARCH-ITEMS-DISTINCT'],
  needs: { keys: ['read'] },
  run: (ctx) => {
    const arb = fc
      .record({ size: fc.integer({ min: 1, max: 25 }), page: fc.integer({ min: 2, max: 4 }) })
      .filter(({ size, page }) => size * page <= 100);
    return runProperty(
      ctx,
      arb,
      async ({ size, page }) => {
        const big = await search(ctx, { page: 1, pageSize: size * page }, 'SEARCH-PAGE-ECHO');
        const small = await search(ctx, { page, pageSize: size }, 'SEARCH-PAGE-ECHO');
        const again = await search(ctx, { page: 1, pageSize: size * page }, 'SEARCH-PAGE-ECHO');
        // A deployment receiving conversations meanwhile shifts the pages: judge only a still picture.
        if (big === undefined || small === undefined || again === undefined) return;
        if (again.keys.join() !== big.keys.join()) return;
        const slice = big.keys.slice((page - 1) * size, page * size);
        if (small.keys.join() !== slice.join())
          violate(
            'SEARCH-PAGES-AGREE',
            'page-not-slice',
            `search page=${page} pageSize=${size} lists ${JSON.stringify(small.keys.slice(0, 5))}..., not items ${(page - 1) * size + 1}..${page * size} of page 1 pageSize=${size * page} (${JSON.stringify(slice.slice(0, 5))}...)`,
          );
      },
      { runs: Math.min(ctx.runs, 6) },
    );
  },
};
