// Export actions page by page; resumable. Set CURSOR to the nextCursor of the previous run.
// Keep INPUT exactly the same between runs: the cursor is bound to it.
const INPUT = {
  dateRange: { relative: { unit: 'day', count: 30 } },
  filter: { filterType: 'and', filters: [] },
  limit: 100,
};
const CURSOR = null;
// Pages per run: one page of trimmed records keeps the result well inside the result size limit
// (32 KiB by default) and the run inside the time-out; run again with the nextCursor it returns.
const MAX_PAGES = 1;

let cursor = CURSOR;
let pages = 0;
const items = [];
do {
  const page = await call('query.search.actions', cursor === null ? INPUT : { ...INPUT, cursor });
  for (const action of page.items) {
    items.push({
      actionId: action.actionId,
      createdAt: action.createdAt,
      platform: action.platform,
      status: action.status,
      queue: action.queue,
      sentiment: action.sentiment,
      actionTitle: action.actionTitle,
    });
  }
  cursor = page.nextCursor;
  pages += 1;
} while (cursor !== null && pages < MAX_PAGES);

console.log(`exported ${items.length} actions in ${pages} pages; done: ${cursor === null}`);
return { items, pages, nextCursor: cursor, done: cursor === null };
