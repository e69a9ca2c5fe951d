import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { rowTagIds, volume } from './parameters-tags.ts';

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
