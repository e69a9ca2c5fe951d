// Last complete week, per source: volume, average score, negative actions. Worst average first.
const dateRange = { relative: { unit: 'week', count: 1, calendar: true, includeCurrent: false } };
const lines = [
  { measure: 'actions', aggregation: 'count' },
  { measure: 'sentimentScore', aggregation: 'avg' },
];
const all = await call('query.analytics.actions', { v: 1, source: 'actions', dateRange, lines, groupBy: [{ field: 'source' }] });
const negative = await call('query.analytics.actions', {
  v: 1,
  source: 'actions',
  dateRange,
  filter: { filterType: 'and', filters: [{ filterType: 'sentiment', operator: 'in', value: ['Very Negative', 'Negative'] }] },
  lines: [{ measure: 'actions', aggregation: 'count' }],
  groupBy: [{ field: 'source' }],
});
const negativeBySource = {};
for (const row of negative.rows) negativeBySource[row.group.source] = row.values['actions.count'];
const sources = all.rows
  .map((row) => ({
    source: row.group.source,
    actions: row.values['actions.count'],
    averageScore: row.values['sentimentScore.avg'],
    negative: negativeBySource[row.group.source] ?? 0,
  }))
  .sort((a, b) => (a.averageScore ?? 0) - (b.averageScore ?? 0));
return { dateRange: all.meta.dateRange, emptyReason: all.emptyReason, sources };
