/**
 * The action list counts what it holds at the edges of its newest actions (4.1): with either sortBy,
 * a window that ends (or starts) at the creation or update time of one of the newest responded actions
 * holds min(pageSize, totalRecords) records, like any other window. The newest actions are the ones a
 * deployment changed last (an agent's answer delivered, a thread grown), and a count kept apart from
 * the records (an index of responded actions updated on each change) goes wrong exactly at the edge of
 * the action it moved.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { DAY_MS } from './discover.ts';
import { listPage } from './paging.ts';
import { num, str } from './support.ts';

const SORTS = ['createdAt', 'updatedAt'] as const;
/** The newest actions of each sort whose edges are read. */
const NEWEST = 4;
const PAGE = 500;

const iso = (ms: number): string => new Date(ms).toISOString();

export const listCountsAtEdges: Law = {
  id: 'paging.list-counts-at-edges',
  group: 'paging',
  title:
    'action list: a window ending or starting at one of the newest actions (sortBy createdAt and updatedAt) holds min(pageSize, totalRecords) records',
  ruleIds: ['LIST-PAGESIZE-BOUNDS-DATA'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      let checks = 0;
      for (const sortBy of SORTS) {
        // The default list (the past seven days, responded actions), newest first by the sort's field.
        const newest = await listPage(ctx, { sortBy, pageSize: PAGE });
        const times = newest.items
          .map((i) => Date.parse(str(i[sortBy]) ?? ''))
          .filter((t) => Number.isFinite(t))
          .slice(0, NEWEST);
        for (const t of times) {
          for (const [from, to] of [
            [t - DAY_MS, t],
            [t, t + DAY_MS],
          ] as const) {
            const query = { sortBy, from: iso(from), to: iso(to), pageSize: PAGE };
            const page = await listPage(ctx, query);
            const total = num(page.body['totalRecords']) ?? 0;
            checks += 1;
            if (page.items.length !== Math.min(PAGE, total))
              violate(
                'LIST-PAGESIZE-BOUNDS-DATA',
                `edge-count:${sortBy}`,
                `listActions sortBy=${sortBy} from=${query.from} to=${query.to} pageSize ${PAGE} (a window at the ${sortBy} of one of the newest actions) returned ${page.items.length} records with totalRecords ${total}`,
                query,
              );
          }
        }
      }
      return checks;
    }),
};
