// Sentiment per complete calendar week (UTC, weeks start on Monday).
const WEEKS = 4;
const dateRange = { relative: { unit: 'week', count: WEEKS, calendar: true, includeCurrent: false } };

const byLabel = await call('query.analytics.actions', {
  v: 1,
  source: 'actions',
  dateRange,
  lines: [{ measure: 'actions', aggregation: 'count' }],
  groupBy: [{ field: 'week' }, { field: 'sentiment' }],
  options: { fillEmpty: true },
});
const scores = await call('query.analytics.actions', {
  v: 1,
  source: 'actions',
  dateRange,
  lines: [
    { measure: 'actions', aggregation: 'count' },
    { measure: 'sentimentScore', aggregation: 'avg' },
  ],
  groupBy: [{ field: 'week' }],
  options: { fillEmpty: true },
});

const NEGATIVE = ['Very Negative', 'Negative'];
const weeks = scores.rows.map((row) => {
  const labels = {};
  for (const r of byLabel.rows) {
    if (r.group.week === row.group.week) labels[r.group.sentiment ?? 'none'] = r.values['actions.count'];
  }
  const total = row.values['actions.count'];
  const negative = NEGATIVE.reduce((n, label) => n + (labels[label] ?? 0), 0);
  return {
    week: row.group.week,
    actions: total,
    bySentiment: labels,
    negativeShare: total === 0 ? null : Math.round((negative / total) * 1000) / 1000,
    averageScore: row.values['sentimentScore.avg'],
  };
});
console.log(`window ${scores.meta.dateRange.from} .. ${scores.meta.dateRange.to}`);
return { dateRange: scores.meta.dateRange, weeks };
