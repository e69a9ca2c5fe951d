// Rank the unanswered open actions of one queue: most negative first, then longest waiting.
const QUEUE = null; // a queue name, or null for the queue with most unanswered actions
const DAYS = 14;
const TOP = 15;
const dateRange = { relative: { unit: 'day', count: DAYS } };
const unanswered = { filterType: 'responded', operator: 'in', value: ['false'] };
const open = { filterType: 'status', operator: 'in', value: ['OPEN', 'PENDING', 'ESCALATED'] };

let queue = QUEUE;
if (queue === null) {
  const load = await call('query.analytics.actions', {
    v: 1,
    source: 'actions',
    dateRange,
    filter: { filterType: 'and', filters: [unanswered, open] },
    lines: [{ measure: 'actions', aggregation: 'count' }],
    groupBy: [{ field: 'queue' }],
  });
  const busiest = load.rows.filter((r) => r.group.queue !== null).sort((a, b) => b.values['actions.count'] - a.values['actions.count'])[0];
  if (busiest === undefined) return { queue: null, actions: [], note: 'no queue has unanswered open actions' };
  queue = busiest.group.queue;
}

const input = {
  dateRange,
  filter: { filterType: 'and', filters: [{ filterType: 'queue', operator: 'in', value: [queue] }, unanswered, open] },
  limit: 100,
};
const actions = [];
let cursor = null;
do {
  const page = await call('query.search.actions', cursor === null ? input : { ...input, cursor });
  actions.push(...page.items);
  cursor = page.nextCursor;
} while (cursor !== null && actions.length < 1000);

const RANK = { 'Very Negative': 0, Negative: 1, Neutral: 2, Positive: 3 };
const rank = (a) => RANK[a.sentiment] ?? 2;
actions.sort((a, b) => rank(a) - rank(b) || (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
return {
  queue,
  unanswered: actions.length,
  actions: actions.slice(0, TOP).map((a) => ({
    actionId: a.actionId,
    actionTitle: a.actionTitle,
    userName: a.userName,
    platform: a.platform,
    sentiment: a.sentiment,
    status: a.status,
    createdAt: a.createdAt,
  })),
};
