/**
 * Averages of stored scores agree with the records they average (spec 2.1, 2.5, 2.6): a queue entry's
 * averageSentimentScore and a volumeByTag row's avgSentiment are the mean of the stored sentimentScore
 * of the actions they cover. Both are readings of the names (the spec defines neither): `should` rules.
 *
 * Nothing is presumed of the target. The records come from the conversation search read whole (every
 * page, no filter: all of the organization's actions); the figures from a window wider than any date an
 * action carries, so whichever date a deployment windows by, every action is inside. A group is judged
 * only where the target's own figures prove it is the set the law rebuilt: the queue's totalActions (or
 * the tag's total) equals the number of search items of that queue (or carrying that tag). Where they
 * differ (another grouping, records arriving meanwhile) the group is left alone.
 */
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { readAnalytics, wideTagLimit } from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';
import { EVERY_DATE, type SearchedAction, withWholeSearch } from './whole-search.ts';

/**
 * How far a reported mean may lie from the exact one: rounding to two decimals, with room for binary
 * fractions. A deployment that rounds coarser is warned about, as the rule is a should.
 */
const ROUNDING = 0.0051;

/** The means a deployment may report for a set of scores: nulls left out, or counted as 0. */
function means(scores: readonly (number | null)[]): readonly number[] {
  const stored = scores.filter((s): s is number => s !== null);
  if (stored.length === 0) return [];
  const sum = stored.reduce((a, b) => a + b, 0);
  return [sum / stored.length, sum / scores.length];
}

function checkMean(
  rule: string,
  label: string,
  reported: unknown,
  scores: readonly (number | null)[],
): boolean {
  const candidates = means(scores);
  if (typeof reported !== 'number' || candidates.length === 0) return false;
  if (!candidates.some((m) => Math.abs(m - reported) <= ROUNDING))
    violate(
      rule,
      'mean-of-scores',
      `${label} is ${reported}, but the ${scores.length} actions it covers (every page of the conversation search) have sentimentScore mean ${candidates[0]?.toFixed(4)} (nulls left out) or ${candidates[1]?.toFixed(4)} (nulls as 0)`,
    );
  return true;
}

async function queueMeans(ctx: LawContext, actions: readonly SearchedAction[]): Promise<number> {
  const body = await readAnalytics(ctx, 'listQueues', EVERY_DATE);
  let checks = 0;
  for (const entry of arr(body['data']).map(obj)) {
    const labels = [str(entry['queueId']), str(entry['queueName'])].filter((l) => l !== undefined);
    // A queue entry of no queue (queueId null) covers the actions without one.
    const mine =
      labels.length === 0
        ? actions.filter((a) => a.queue === undefined)
        : actions.filter((a) => a.queue !== undefined && labels.includes(a.queue));
    const metrics = obj(entry['metrics']);
    if (num(metrics['totalActions']) !== mine.length || mine.length === 0) continue;
    const name = JSON.stringify(entry['queueName'] ?? entry['queueId'] ?? null);
    if (
      checkMean(
        'QUEUE-AVG-SENTIMENT-MEAN',
        `listQueues over every date: queue ${name} averageSentimentScore`,
        metrics['averageSentimentScore'],
        mine.map((a) => a.score),
      )
    )
      checks += 1;
  }
  return checks;
}

async function tagMeans(ctx: LawContext, actions: readonly SearchedAction[]): Promise<number> {
  const body = await readAnalytics(ctx, 'getTagAnalytics', {
    ...EVERY_DATE,
    respondedOnly: false,
    limit: await wideTagLimit(ctx),
  });
  let checks = 0;
  for (const row of arr(obj(body['data'])['volumeByTag']).map(obj)) {
    const name = str(row['tagName']);
    if (name === undefined) continue;
    const mine = actions.filter((a) => a.tags.includes(name));
    if (num(row['total']) !== mine.length || mine.length === 0 || row['avgSentiment'] === null) continue;
    if (
      checkMean(
        'TAGS-VOLUME-AVG-SENTIMENT-MEAN',
        `tag analytics over every date (respondedOnly=false): volumeByTag ${JSON.stringify(name)} avgSentiment`,
        row['avgSentiment'],
        mine.map((a) => a.score),
      )
    )
      checks += 1;
  }
  return checks;
}

export const figureMeans: Law = {
  id: 'analytics.score-means',
  group: 'parameters',
  title:
    "a queue's averageSentimentScore and a tag's avgSentiment are the mean of the sentimentScore of the actions they cover (the whole search, over every date)",
  ruleIds: ['QUEUE-AVG-SENTIMENT-MEAN', 'TAGS-VOLUME-AVG-SENTIMENT-MEAN'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    withWholeSearch(ctx, figureMeans.ruleIds, async (actions) => {
      const checks = (await queueMeans(ctx, actions)) + (await tagMeans(ctx, actions));
      return checks > 0
        ? checks
        : 'no queue or tag had a count the whole search reproduces (another grouping, or records arriving meanwhile)';
    }),
};
