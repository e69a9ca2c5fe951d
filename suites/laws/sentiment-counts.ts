/**
 * Sentiment analytics count the actions of each label (spec 2.6, 4.10, 4.11): over a window holding
 * every date, each label's column of sentiment by day, summed over the days, is the number of the
 * organization's actions carrying that sentiment label; and a sentiment-by-tag row counts under each
 * label the actions of that label among those carrying the tag. Readings of the names (the spec gives
 * the keys, not what they count): `should` rules.
 *
 * The actions come from the whole conversation search. A label is matched whatever its spelling
 * (`Very Negative`, `veryNegative`, `VERY_NEGATIVE`); where an action carries a label that is none of
 * the four, the count it would belong to is unknown and the law does not judge. A tag row is judged
 * only where its totalMentions equals the search's count of actions carrying the tag, which proves
 * the row counts the set the law rebuilt. If the search's count moved while the law read (records
 * arriving), nothing is judged.
 */
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { readAnalytics } from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';
import { EVERY_DATE, type SearchedAction, withWholeSearch } from './whole-search.ts';

/** The four labels: the key of a day row (2.6) and of a tag row. */
const LABELS = [
  ['Very Negative', 'veryNegative'],
  ['Negative', 'negative'],
  ['Neutral', 'neutral'],
  ['Positive', 'positive'],
] as const;

const spelling = (label: string): string => label.toLowerCase().replace(/[^a-z]/g, '');
const KNOWN = LABELS.map(([day]) => spelling(day));

/** Actions per label (index of LABELS), or undefined when one carries a label none of the four is. */
function labelCounts(actions: readonly SearchedAction[]): readonly number[] | undefined {
  const counts = LABELS.map(() => 0);
  for (const a of actions) {
    if (a.sentiment === null) continue;
    const i = KNOWN.indexOf(spelling(a.sentiment));
    if (i < 0) return undefined;
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

/** The search's count now, to tell a changed organization from a wrong figure. */
async function unchanged(ctx: LawContext, actions: readonly SearchedAction[]): Promise<boolean> {
  const body = await readAnalytics(ctx, 'searchConversations', { pageSize: 1 });
  return num(body['totalRecords']) === actions.length;
}

async function dayCounts(ctx: LawContext, actions: readonly SearchedAction[]): Promise<number> {
  const expected = labelCounts(actions);
  if (expected === undefined) return 0;
  const rows = arr((await readAnalytics(ctx, 'getSentimentByDay', EVERY_DATE))['data']).map(obj);
  const sums = LABELS.map(([day]) => rows.reduce((sum, row) => sum + (num(row[day]) ?? 0), 0));
  if (sums.every((s, i) => s === expected[i])) return 1;
  if (!(await unchanged(ctx, actions))) return 0;
  violate(
    'SENT-DAY-LABELS-COUNT-ACTIONS',
    'day-label-sums',
    `getSentimentByDay over every date: the columns summed over ${rows.length} day rows are ${LABELS.map(([day], i) => `${day} ${sums[i]}`).join(', ')}, but the ${actions.length} actions of the conversation search carry ${LABELS.map(([day], i) => `${day} ${expected[i]}`).join(', ')}`,
  );
  return 1;
}

async function tagCounts(ctx: LawContext, actions: readonly SearchedAction[]): Promise<number> {
  const rows = arr((await readAnalytics(ctx, 'getSentimentByTag', EVERY_DATE))['data']).map(obj);
  let checks = 0;
  const wrong: string[] = [];
  for (const row of rows) {
    const name = str(row['tagName']);
    if (name === undefined) continue;
    const mine = actions.filter((a) => a.tags.includes(name));
    const expected = labelCounts(mine);
    if (num(row['totalMentions']) !== mine.length || mine.length === 0 || expected === undefined) continue;
    checks += 1;
    const reported = LABELS.map(([, key]) => num(row[key]));
    if (reported.some((n, i) => n !== expected[i]))
      wrong.push(
        `${JSON.stringify(name)} has ${LABELS.map(([, key], i) => `${key} ${String(reported[i])}`).join(', ')} for ${mine.length} actions carrying ${LABELS.map(([, key], i) => `${key} ${expected[i]}`).join(', ')}`,
      );
  }
  if (wrong.length > 0 && (await unchanged(ctx, actions)))
    violate(
      'SENT-TAG-LABELS-COUNT-ACTIONS',
      'tag-label-counts',
      `getSentimentByTag over every date: ${wrong.slice(0, 3).join('; ')} (the conversation search's actions carrying the tag)`,
    );
  return checks;
}

export const sentimentCounts: Law = {
  id: 'analytics.sentiment-counts',
  group: 'parameters',
  title:
    "sentiment by day and by tag count the actions of each label: over every date, a day column's sum and a tag row's label counts are those of the whole search's actions",
  ruleIds: ['SENT-DAY-LABELS-COUNT-ACTIONS', 'SENT-TAG-LABELS-COUNT-ACTIONS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    withWholeSearch(ctx, sentimentCounts.ruleIds, async (actions) => {
      const checks = (await dayCounts(ctx, actions)) + (await tagCounts(ctx, actions));
      return checks > 0
        ? checks
        : 'no sentiment figure could be rebuilt from the search (labels other than the four, or no tag count the search reproduces)';
    }),
};
