import { ingestionBatch } from '../../src/arbitraries/index.ts';
import { runExamples, runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { DAY_MS, historyWindow } from './discover.ts';
import { hardExternalIds } from './hard-ids.ts';
import { readAnalytics } from './parameters-support.ts';
import { arr, call, expectConforming, num, obj, str } from './support.ts';
import { EVERY_DATE } from './whole-search.ts';

export const ingestionAccepted: Law = {
  id: 'ingestion.accepted',
  group: 'ingestion',
  title:
    'a valid batch, its record ids in every hard shape, gets 202 {status: accepted, accepted: number of records}',
  ruleIds: [
    'ING-202-ACCEPTED',
    'ING-ACCEPTED-COUNT',
    'ING-202-ACCEPTANCE-NOT-COMPLETION',
    'SCHEMA-INGESTION-ACCEPTED',
    'AUTH-IMPORT-KEY-INGEST',
    'SCOPE-INGEST-PERMISSION',
    'ING-STATUSES-DECLARED',
    'ID-STRING-PRESERVED',
  ],
  needs: { keys: ['ingest'], writes: true },
  run: (ctx) =>
    runProperty(ctx, ingestionBatch({ externalIdPrefix: ctx.prefix, maxRecords: 8 }), async (generated) => {
      // Record ids in the hard shapes of section 2 (digits above 2^53, leading zeros, whitespace,
      // non-ASCII, a composed and a decomposed form, the longest): each is a record of its own.
      const hard = Object.values(hardExternalIds(ctx));
      const batch = {
        ...generated,
        records: arr(generated['records']).map((r, i) => ({
          ...obj(r),
          externalId: hard[i % hard.length] ?? ctx.unique('ing'),
        })),
      };
      const res = await call(ctx, 'ingestRecords', { auth: 'ingest', json: batch });
      expectConforming(ctx, 'ingestRecords', res, {
        status: 202,
        statusRule: 'ING-202-ACCEPTED',
        before: (parsed) => {
          const p = obj(parsed);
          if (p['status'] !== 'accepted')
            violate(
              'ING-202-ACCEPTED',
              `status:${String(p['status'])}`,
              `ingestion answered status ${JSON.stringify(p['status'])}`,
            );
          if (p['accepted'] !== batch.records.length)
            violate(
              'ING-ACCEPTED-COUNT',
              'accepted-count',
              `ingestion accepted ${JSON.stringify(p['accepted'])} of ${batch.records.length} records`,
            );
        },
      });
    }),
};

/** Records of the figures law: more than a store keeps spare for new actions is the point. */
const FIGURES_RECORDS = 60;

/**
 * The action list's figures agree with its own data however ingestion went: a batch of records, each
 * its own thread and dated back across the history window, is ingested, then a second batch of one
 * reply record per thread, then new threads a second older than the first, and then every page of
 * the window that holds all its matches (totalRecords <= pageSize; by createdAt, by updatedAt, the
 * ingested platform's actions through fullFilter, two days around the first records) has exactly
 * totalRecords distinct actions and totalPages 1, newest first. Engagement over every date then
 * answers 200, with a percentiles row for the ingested platform where the list shows its actions. Nothing is presumed of the records (spec section 6: processing is not
 * observable; they may or may not have become actions yet): only that an answer counts what it holds.
 */
export const listFiguresAfterIngestion: Law = {
  id: 'ingestion.list-figures-after',
  group: 'ingestion',
  title:
    'after a back-dated batch and a reply in each of its threads are ingested, an action list page that holds all its matches counts exactly its distinct actions',
  ruleIds: [
    'LIST-PAGESIZE-BOUNDS-DATA',
    'LIST-RESPONSE-ENVELOPE',
    'LIST-SORTBY-NEWEST-FIRST',
    'ING-202-ACCEPTED',
    'ENG-COUNTS-ACTION-USERS',
    'ENG-QUERY-PARAMS',
  ],
  needs: { keys: ['ingest', 'read'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const records = Array.from({ length: FIGURES_RECORDS }, (_, i) => ({
        externalId: ctx.unique('fig'),
        threadExternalId: ctx.unique('fig-thread'),
        authorId: ctx.unique('author'),
        authorName: 'cca-kit conformance',
        body: 'a record ingested to check the list figures (conformance check)',
        createdAt: new Date(ctx.now() - ((i % 30) + 1) * DAY_MS).toISOString(),
        recordType: 'post',
      }));
      const serverId = ctx.unique('server');
      const ingest = async (batch: readonly Record<string, unknown>[]) => {
        const res = await call(ctx, 'ingestRecords', {
          auth: 'ingest',
          json: { platform: 'CUSTOM_FORM', serverId, serverName: 'cca-kit conformance', records: batch },
        });
        expectConforming(ctx, 'ingestRecords', res, { status: 202, statusRule: 'ING-202-ACCEPTED' });
        for (let i = 0; i < 5; i++) await ctx.poll();
      };
      await ingest(records);
      // Then each thread grows by a reply record: a store that keeps an action per thread updates the
      // actions it made (their place in its indexes among them), and the figures must still agree.
      await ingest(
        records.map((r) => ({
          ...r,
          externalId: ctx.unique('fig-reply'),
          parentExternalId: r.externalId,
          createdAt: new Date(Date.parse(r.createdAt) + 60_000).toISOString(),
        })),
      );
      // And new threads a second older than the first ones, taken after them: a store that sorts by
      // time must place each before the newer action ingested earlier.
      await ingest(
        records.map((r) => ({
          ...r,
          externalId: ctx.unique('fig-older'),
          threadExternalId: ctx.unique('fig-thread'),
          createdAt: new Date(Date.parse(r.createdAt) - 1000).toISOString(),
        })),
      );
      let checks = 0;
      let ingestedListed = false;
      const queries: Record<string, string | number>[] = [
        { sortBy: 'createdAt' },
        { sortBy: 'updatedAt' },
        // The ingested platform's actions, responded or not (fullFilter adds no responded default; the
        // platform key may be refused with 400, then this page is not read).
        { fullFilter: 'platform=CUSTOM_FORM' },
        // Two days around the first records' date: a window that holds all its matches (the history
        // window may hold more than a page) across the place where the updated actions sit.
        ...records.slice(0, 2).map((r) => {
          const at = Date.parse(r.createdAt);
          return { from: new Date(at - DAY_MS).toISOString(), to: new Date(at + DAY_MS).toISOString() };
        }),
      ];
      for (const extra of queries) {
        const what = new URLSearchParams(Object.entries(extra).map(([k, v]) => [k, String(v)])).toString();
        const query = { ...historyWindow(ctx), pageSize: 500, ...extra };
        const list = await call(ctx, 'listActions', { auth: 'read', query });
        if (extra['fullFilter'] !== undefined && list.status === 400) continue;
        const ok = expectConforming(ctx, 'listActions', list, {
          status: 200,
          statusRule: 'LIST-RESPONSE-ENVELOPE',
        });
        const body = obj(ok.parsed);
        const total = num(body['totalRecords']);
        const ids = new Set(arr(body['data']).map((a) => str(obj(a)['actionId'])));
        if (
          extra['fullFilter'] !== undefined &&
          arr(body['data']).some((a) => obj(a)['platform'] === 'CUSTOM_FORM')
        )
          ingestedListed = true;
        if (total === undefined || total > 500) continue;
        checks += 1;
        if (ids.size !== total || arr(body['data']).length !== total)
          violate(
            'LIST-PAGESIZE-BOUNDS-DATA',
            'figures-after-ingestion',
            `listActions ${what} (history window unless given), after a back-dated ingestion and a reply in each thread: totalRecords ${total}, but data holds ${arr(body['data']).length} records (${ids.size} distinct actions) at pageSize 500`,
          );
        // Newest first by the sortBy field (4.1), the ingested actions among the others.
        const field = extra['sortBy'] === 'updatedAt' ? 'updatedAt' : 'createdAt';
        const times = arr(body['data']).map((a) => Date.parse(str(obj(a)[field]) ?? ''));
        const late = times.findIndex((v, i) => i > 0 && v > (times[i - 1] ?? Number.NaN));
        if (late > 0)
          violate(
            'LIST-SORTBY-NEWEST-FIRST',
            'order-after-ingestion',
            `listActions ${what} (history window unless given), after ingestion: record ${late} (${field} ${new Date(times[late] ?? 0).toISOString()}) comes after an older one (${new Date(times[late - 1] ?? 0).toISOString()}): not newest first`,
          );
        if (num(body['totalPages']) !== (total === 0 ? 0 : 1))
          violate(
            'LIST-RESPONSE-ENVELOPE',
            'total-pages-after-ingestion',
            `listActions ${what}: totalPages ${String(body['totalPages'])} for totalRecords ${total} at pageSize 500`,
          );
      }
      // Engagement over every date answers, ingested customers among the users it counts (spec 2.6):
      // where the ingested platform's actions are listed, they have a percentiles row.
      const engagement = await readAnalytics(ctx, 'getEngagement', EVERY_DATE);
      if (ingestedListed) {
        checks += 1;
        const rows = arr(obj(engagement['data'])['engagementPercentiles']).map(obj);
        if (!rows.some((r) => r['platform'] === 'CUSTOM_FORM'))
          violate(
            'ENG-COUNTS-ACTION-USERS',
            'ingested-platform-row',
            'getEngagement over every date has no engagementPercentiles row for CUSTOM_FORM, though the action list shows the CUSTOM_FORM actions ingested by this run',
          );
      }
      return checks;
    }),
};

export const ingestionLaws: readonly Law[] = [ingestionAccepted, listFiguresAfterIngestion];
