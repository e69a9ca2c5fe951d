// Load per queue over the last DAYS days.
const DAYS = 7;
const dateRange = { relative: { unit: 'day', count: DAYS } };
const all = await call('query.analytics.actions', {
  v: 1,
  source: 'actions',
  dateRange,
  lines: [
    { measure: 'actions', aggregation: 'count' },
    { measure: 'firstResponseTime', aggregation: 'avg' },
  ],
  groupBy: [{ field: 'queue' }],
});
const unanswered = await call('query.analytics.actions', {
  v: 1,
  source: 'actions',
  dateRange,
  filter: { filterType: 'and', filters: [{ filterType: 'responded', operator: 'in', value: ['false'] }] },
  lines: [{ measure: 'actions', aggregation: 'count' }],
  groupBy: [{ field: 'queue' }],
});
const waiting = {};
for (const row of unanswered.rows) waiting[String(row.group.queue)] = row.values['actions.count'];
const queues = all.rows
  .map((row) => ({
    queue: row.group.queue,
    actions: row.values['actions.count'],
    unanswered: waiting[String(row.group.queue)] ?? 0,
    averageFirstResponseSeconds: row.values['firstResponseTime.avg'],
  }))
  .sort((a, b) => b.unanswered - a.unanswered);
return { dateRange: all.meta.dateRange, queues };
