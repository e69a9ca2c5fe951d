/**
 * Sentiment by tag names its rows by tag name, and two organizations may each have a tag of the same
 * name: an aggregate that joins on the name alone counts the other organization's actions. Section 1:
 * "all data returned belongs to that organization". What proves it, read from both organizations'
 * own answers over one settled window: a name that only the other organization's tags carry, or a
 * row whose mentions exceed this organization's tagged actions and equal the other's row, or the sum
 * of both organizations' counts.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { readAnalytics, spanText, widestSplit, windowQuery } from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';
import { type TagFigures, tagFigures } from './tag-figures.ts';

type Side = 'read' | 'otherOrgRead';

const countsByName = (figures: TagFigures): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const row of figures.breakdown) {
    const name = str(row['tagName']);
    if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + (num(row['count']) ?? 0));
  }
  return counts;
};

const mentionsByName = (body: Record<string, unknown>): Map<string, number> => {
  const mentions = new Map<string, number>();
  for (const row of arr(body['data']).map(obj)) {
    const name = str(row['tagName']);
    const n = num(row['totalMentions']);
    if (name !== undefined && n !== undefined) mentions.set(name, n);
  }
  return mentions;
};

export const sentimentTagIsolation: Law = {
  id: 'isolation.sentiment-by-tag',
  group: 'status',
  title:
    "sentiment by tag counts only this organization's tagged actions: no row of a name only the other organization's tags carry, no row that adds the other organization's actions of a same-named tag",
  ruleIds: ['ORG-DATA-SCOPED'],
  needs: { keys: ['read', 'otherOrgRead'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const { outer } = widestSplit(ctx, 60);
      const side = async (auth: Side) => {
        const figures = await tagFigures(ctx, outer, auth);
        const body = await readAnalytics(ctx, 'getSentimentByTag', windowQuery(outer), undefined, auth);
        return { whole: figures.whole, counts: countsByName(figures), mentions: mentionsByName(body) };
      };
      const mine = await side('read');
      const theirs = await side('otherOrgRead');
      let checks = 0;
      for (const [name, mentions] of mine.mentions) {
        checks += 1;
        const own = mine.counts.get(name);
        const other = theirs.counts.get(name) ?? 0;
        // A name none of this organization's tags carry (its whole breakdown read), but the other's do.
        if (own === undefined && mine.whole && other > 0 && mentions > 0)
          violate(
            'ORG-DATA-SCOPED',
            'sentiment-tag-foreign-name',
            `sentiment by tag ${spanText(outer)} lists ${JSON.stringify(name)} with ${mentions} mentions; no tag of this organization has that name over the window (its whole tag analytics), the other organization's tags of that name count ${other} actions`,
            { name, window: spanText(outer) },
          );
        if (own === undefined || other === 0 || mentions <= own) continue;
        const theirMentions = theirs.mentions.get(name);
        if (mentions === own + other || (theirMentions === mentions && theirMentions > other))
          violate(
            'ORG-DATA-SCOPED',
            'sentiment-tag-adds-other-org',
            `sentiment by tag ${spanText(outer)} counts ${mentions} mentions of ${JSON.stringify(name)}; this organization's tag analytics counts ${own} actions with a tag of that name, the other organization's ${other}${theirMentions === undefined ? '' : ` and its sentiment by tag ${theirMentions} mentions`}: the other organization's actions are counted`,
            { name, window: spanText(outer), own, other, theirMentions },
          );
      }
      return checks;
    }),
};
