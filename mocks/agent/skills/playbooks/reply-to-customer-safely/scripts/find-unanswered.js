// Actions waiting for a first answer: open, pending or escalated, no agent response, last DAYS days.
const DAYS = 7;
const MAX = 20;
const input = {
  dateRange: { relative: { unit: 'day', count: DAYS } },
  filter: {
    filterType: 'and',
    filters: [
      { filterType: 'status', operator: 'in', value: ['OPEN', 'PENDING', 'ESCALATED'] },
      { filterType: 'responded', operator: 'in', value: ['false'] },
    ],
  },
  limit: 100,
};
const found = [];
let cursor = null;
do {
  const page = await call('query.search.actions', cursor === null ? input : { ...input, cursor });
  found.push(...page.items);
  cursor = page.nextCursor;
} while (cursor !== null && found.length < 500);

// Oldest first: the longest wait gets the first answer.
found.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
return {
  waiting: found.length,
  actions: found.slice(0, MAX).map((a) => ({
    actionId: a.actionId,
    createdAt: a.createdAt,
    platform: a.platform,
    serverName: a.serverName,
    isPublicPost: a.isPublicPost,
    userName: a.userName,
    actionTitle: a.actionTitle,
    rootMessageText: a.rootMessageText,
    sentiment: a.sentiment,
  })),
};
