import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { historySpan } from './parameters-support.ts';
import { rowTagIds, volume } from './parameters-tags.ts';
import { num, str } from './support.ts';
import { tagFigures } from './tag-figures.ts';

/**
 * `tagIds` restricts tag volume to the listed tags (spec 4.9: comma-separated tag ids), so it keeps
 * them: a tag that has rows in the unrestricted answer of the same window still has rows when it is
 * listed. "At most the listed tags" alone passes a deployment that splits or reads the list wrongly
 * and answers nothing.
 */
export const tagVolumeKeepsListed: Law = {
  id: 'parameters.tag-volume-keeps-listed',
  group: 'parameters',
  title: 'tag volume with tagIds keeps the rows of the listed tags that the same window has',
  ruleIds: ['VOLUME-TAGIDS-RESTRICTS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const all = await volume(ctx, { respondedOnly: false, topTagsLimit: 50 });
      const present = [...rowTagIds(all.rows)];
      // One id alone, then two: a list of one and a list with a separator are both read.
      const lists = [present.slice(0, 1), present.slice(1, 3)].filter((ids) => ids.length > 0);
      for (const ids of lists) {
        const pinned = await volume(ctx, { respondedOnly: false, topTagsLimit: 50, tagIds: ids.join(',') });
        const kept = rowTagIds(pinned.rows);
        const dropped = ids.filter((id) => !kept.has(id));
        if (dropped.length > 0)
          violate(
            'VOLUME-TAGIDS-RESTRICTS',
            'dropped-listed',
            `tag volume tagIds=${ids.join(',')} has no row for ${dropped.join(', ')}, which the same window without tagIds shows`,
          );
      }
      return lists.length;
    }),
};

/**
 * Tag volume's `tags` name the tags its volume covers (spec 4.9: `tags: array of string`; the query
 * names tags by id and bounds the top tags): each is the name or the id of a tag that tag analytics of
 * the same window lists, and without tagIds a window whose tag analytics counts a tag has a top tag.
 */
export const tagVolumeNamesTags: Law = {
  id: 'parameters.tag-volume-names-tags',
  group: 'parameters',
  title:
    "tag volume without tagIds answers tags where the window's tag analytics counts one, each the name or id of a listed tag",
  ruleIds: ['VOLUME-TAGS-NAME-TAGS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const figures = await tagFigures(ctx, historySpan(ctx));
      const known = new Set(
        figures.breakdown.flatMap((r) => [str(r['tagName']), str(r['tagId'])].filter((s) => s !== undefined)),
      );
      const counted = figures.breakdown.some((r) => (num(r['count']) ?? 0) > 0);
      const answer = await volume(ctx, { respondedOnly: false, topTagsLimit: 10 });
      if (counted && answer.tags.length === 0)
        violate(
          'VOLUME-TAGS-NAME-TAGS',
          'no-top-tag',
          'tag volume over the history window without tagIds (topTagsLimit 10) answers no tag, while tag analytics of the same window counts tagged actions',
        );
      // Only a whole breakdown knows every tag of the window.
      const strange = figures.whole ? answer.tags.filter((t) => typeof t !== 'string' || !known.has(t)) : [];
      if (strange.length > 0)
        violate(
          'VOLUME-TAGS-NAME-TAGS',
          'unknown-tag',
          `tag volume over the history window answers tags ${strange
            .slice(0, 3)
            .map((t) => JSON.stringify(t))
            .join(', ')}, none the name or id of a tag the whole tag analytics of the same window lists`,
        );
      return 1;
    }),
};
