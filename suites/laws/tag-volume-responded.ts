/**
 * Tag volume's `respondedOnly=true` counts responded actions only (4.9, read as in tag analytics 4.8):
 * a tag that tag analytics with `respondedOnly=true` does not count over a window (no responded
 * action of the window carries it, proved over every page) has no counted row in tag volume with
 * `respondedOnly=true` and `tagIds=<that tag>` over the same window. The row shape of tag volume is not
 * shown (2.5): only rows that name the tag by `tagId` with a numeric `count` are read, and only when
 * the same query with `respondedOnly=false` answers such a row, so a deployment shaping its rows
 * otherwise is not judged.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { DAY_MS, settledAnchor } from './discover.ts';
import { readAnalytics, type Span, spanText, windowQuery } from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';
import { tagFigures } from './tag-figures.ts';

/** Tags tried per window. */
const TAGS = 3;

/** The counted rows of tag volume that name `tagId`. */
async function countedRows(
  ctx: Parameters<Law['run']>[0],
  window: Span,
  tagId: string,
  respondedOnly: boolean,
) {
  const body = await readAnalytics(ctx, 'getTagVolume', {
    ...windowQuery(window),
    tagIds: tagId,
    respondedOnly,
  });
  return arr(obj(body['data'])['data'])
    .map(obj)
    .filter((r) => r['tagId'] === tagId && (num(r['count']) ?? 0) > 0);
}

export const tagVolumeRespondedOnly: Law = {
  id: 'parameters.tag-volume-responded-only',
  group: 'parameters',
  title:
    'tag volume with respondedOnly=true has no counted row for a tag that tag analytics with respondedOnly=true does not count over the same window',
  ruleIds: ['ANALYTICS-RESPONDED-ONLY-NOT-MORE'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const anchor = settledAnchor(ctx);
      const windows: Span[] = [
        { from: anchor - 90 * DAY_MS, to: anchor },
        { from: anchor - 7 * DAY_MS, to: anchor },
        { from: anchor - DAY_MS, to: anchor },
      ];
      let checks = 0;
      for (const window of windows) {
        const all = await tagFigures(ctx, window, 'read', false);
        const responded = await tagFigures(ctx, window, 'read', true);
        // Only every page of the responded breakdown proves a tag absent from it.
        if (!all.whole || !responded.whole) continue;
        const counted = new Set(
          responded.breakdown.filter((r) => (num(r['count']) ?? 0) > 0).flatMap((r) => str(r['tagId']) ?? []),
        );
        const unanswered = all.breakdown
          .filter((r) => (num(r['count']) ?? 0) > 0)
          .flatMap((r) => str(r['tagId']) ?? [])
          .filter((id) => !counted.has(id))
          .slice(0, TAGS);
        for (const tagId of unanswered) {
          // The shape is readable here only if the unrestricted volume names the tag in a counted row.
          if ((await countedRows(ctx, window, tagId, false)).length === 0) continue;
          const rows = await countedRows(ctx, window, tagId, true);
          checks += 1;
          if (rows.length > 0)
            violate(
              'ANALYTICS-RESPONDED-ONLY-NOT-MORE',
              'volume-counts-unresponded',
              `tag volume ${spanText(window)} tagIds=${tagId} respondedOnly=true answers ${rows.length} row(s) counting ${rows.reduce((s, r) => s + (num(r['count']) ?? 0), 0)} for the tag, while tag analytics respondedOnly=true over the same window (every page) does not count it: no responded action carries it`,
              { window: spanText(window), tagId },
            );
        }
      }
      return checks;
    }),
};
