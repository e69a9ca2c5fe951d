/**
 * Tag analytics' `search` narrows this organization's tags to those whose text matches (4.8): it
 * never widens the set. Searched for the name of a tag only the other organization has, or for a
 * name both have, the answer holds only tags of this organization's own whole breakdown over the
 * same window, each with the count it has there. A search that reaches into every organization's
 * tags shows as a row this organization has not, or as a count above its own (section 1: "all data
 * returned belongs to that organization").
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { readAnalytics, spanText, widestSplit, wideTagLimit, windowQuery } from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';
import { tagFigures } from './tag-figures.ts';

/** Names searched for: some only the other organization's tags carry, some both carry. */
const FOREIGN_NAMES = 3;
const SHARED_NAMES = 2;

const nameOf = (row: Record<string, unknown>): string | undefined => str(row['tagName']);

export const tagSearchIsolation: Law = {
  id: 'isolation.tag-search',
  group: 'status',
  title:
    "tag analytics searched for another organization's tag name answers only this organization's tags, with their own counts",
  ruleIds: ['ORG-DATA-SCOPED'],
  needs: { keys: ['read', 'otherOrgRead'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const { outer } = widestSplit(ctx, 60);
      const mine = await tagFigures(ctx, outer, 'read');
      // Without every page of this organization's tags, a row missing from them proves nothing.
      if (!mine.whole) return 0;
      const theirs = await tagFigures(ctx, outer, 'otherOrgRead');
      const own = new Map<string, number | undefined>();
      for (const row of mine.breakdown) {
        const id = str(row['tagId']);
        if (id !== undefined) own.set(id, num(row['count']));
      }
      const ownNames = new Set(mine.breakdown.map(nameOf).filter((n) => n !== undefined));
      const theirNames = [...new Set(theirs.breakdown.map(nameOf).filter((n) => n !== undefined))];
      const names = [
        ...theirNames.filter((n) => !ownNames.has(n)).slice(0, FOREIGN_NAMES),
        ...theirNames.filter((n) => ownNames.has(n)).slice(0, SHARED_NAMES),
      ];
      const limit = await wideTagLimit(ctx);
      let checks = 0;
      for (const name of names) {
        const body = await readAnalytics(ctx, 'getTagAnalytics', {
          ...windowQuery(outer),
          search: name,
          limit,
        });
        checks += 1;
        for (const row of arr(obj(body['data'])['tagBreakdown']).map(obj)) {
          const id = str(row['tagId']) ?? '';
          const count = num(row['count']);
          const known = own.has(id);
          const ownCount = own.get(id);
          if (!known || (count !== undefined && ownCount !== undefined && count > ownCount))
            violate(
              'ORG-DATA-SCOPED',
              known ? 'tag-search-adds-other-org' : 'tag-search-foreign-tag',
              `tag analytics ${spanText(outer)} with search=${JSON.stringify(name)} answers tag ${JSON.stringify(id)} (${JSON.stringify(nameOf(row))}) counting ${String(count)}; ${known ? `this organization's whole breakdown over the window counts it ${String(ownCount)}` : "no tag of this organization's whole breakdown over the window has that id"}: the search reaches another organization's tags`,
              { name, window: spanText(outer), tagId: id },
            );
        }
      }
      return checks;
    }),
};
