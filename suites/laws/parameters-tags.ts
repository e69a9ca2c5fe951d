/**
 * The parameters of tag analytics (spec 4.8: limit, offset, search, respondedOnly), tag volume (4.9:
 * tagIds, topTagsLimit, respondedOnly) and engagement (4.12: platforms) each move the answer the way
 * their meaning requires. Row shapes the spec does not show (`data.data` of tag volume) are read
 * only where a row carries the key in question.
 */
import fc from 'fast-check';
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { canonical } from './custom-fields.ts';
import {
  historySpan,
  historyTags,
  type Query,
  readAnalytics,
  wideTagLimit,
  windowQuery,
} from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';

interface TagPage {
  readonly ids: readonly string[];
  readonly breakdown: readonly Record<string, unknown>[];
  readonly volume: readonly Record<string, unknown>[];
  readonly summary: Record<string, unknown>;
  readonly hasMore: boolean;
}

async function tagPage(ctx: Parameters<Law['run']>[0], query: Query): Promise<TagPage> {
  const body = await readAnalytics(ctx, 'getTagAnalytics', { ...windowQuery(historySpan(ctx)), ...query });
  const data = obj(body['data']);
  const breakdown = arr(data['tagBreakdown']).map(obj);
  return {
    ids: breakdown.map((r) => str(r['tagId']) ?? '?'),
    breakdown,
    volume: arr(data['volumeByTag']).map(obj),
    summary: obj(data['summary']),
    hasMore: obj(data['pagination'])['hasMore'] === true,
  };
}

function checkLimit(page: TagPage, limit: number, what: string): void {
  for (const [name, rows] of [
    ['tagBreakdown', page.breakdown],
    ['volumeByTag', page.volume],
  ] as const) {
    if (rows.length > limit)
      violate(
        'TAGS-LIMIT-BOUNDS-ROWS',
        `over-limit:${name}`,
        `tag analytics ${what}: ${rows.length} ${name} rows for limit=${limit}`,
      );
  }
}

const countOf = (page: TagPage): Map<string, number> =>
  new Map(page.breakdown.map((r) => [str(r['tagId']) ?? '?', num(r['count']) ?? 0]));

export const tagAnalyticsParameters: Law = {
  id: 'parameters.tag-analytics',
  group: 'parameters',
  title:
    'tag analytics: limit bounds both row lists, offset pages join into the larger page, search keeps only matching tags, respondedOnly counts no more',
  ruleIds: [
    'TAGS-LIMIT-BOUNDS-ROWS',
    'TAGS-OFFSET-PAGES-AGREE',
    'TAGS-SEARCH-RESTRICTS',
    'TAGS-SEARCH-TEXT',
    'ANALYTICS-RESPONDED-ONLY-NOT-MORE',
    'TAGS-QUERY-PARAMS',
  ],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const tags = await historyTags(ctx);
    const arb = fc.record({
      a: fc.integer({ min: 1, max: 8 }),
      b: fc.integer({ min: 1, max: 8 }),
      offset: fc.integer({ min: 0, max: Math.max(0, tags.length - 2) }),
      tag: tags.length === 0 ? fc.constant(undefined) : fc.constantFrom(...tags),
    });
    return runProperty(
      ctx,
      arb,
      async ({ a, b, offset, tag }) => {
        const whole = await tagPage(ctx, { limit: a + b, offset });
        const first = await tagPage(ctx, { limit: a, offset });
        const second = await tagPage(ctx, { limit: b, offset: offset + a });
        checkLimit(whole, a + b, `limit=${a + b} offset=${offset}`);
        checkLimit(first, a, `limit=${a} offset=${offset}`);
        checkLimit(second, b, `limit=${b} offset=${offset + a}`);
        const joined = [...first.ids, ...second.ids];
        if (joined.join('\u0000') !== whole.ids.join('\u0000'))
          violate(
            'TAGS-OFFSET-PAGES-AGREE',
            'pages-disagree',
            `tag analytics offset=${offset} limit=${a} then offset=${offset + a} limit=${b} list ${JSON.stringify(joined)}, but offset=${offset} limit=${a + b} lists ${JSON.stringify(whole.ids)}`,
          );

        // search by a tag's own name keeps that tag and only rows that contain the text.
        if (tag !== undefined) {
          const found = await tagPage(ctx, { search: tag.tagName, limit: await wideTagLimit(ctx) });
          const needle = tag.tagName.toLowerCase();
          const stray = found.breakdown.find(
            (r) =>
              ![r['tagName'], r['groupName'], r['tagId']].some((f) => str(f)?.toLowerCase().includes(needle)),
          );
          if (stray !== undefined)
            violate(
              'TAGS-SEARCH-RESTRICTS',
              'search-stray-row',
              `tag analytics search=${JSON.stringify(tag.tagName)} lists tag ${JSON.stringify(stray['tagName'])} (group ${JSON.stringify(stray['groupName'])}), which does not contain the text`,
            );
          if (!found.hasMore && !found.ids.includes(tag.tagId))
            violate(
              'TAGS-SEARCH-RESTRICTS',
              'search-misses-tag',
              `tag analytics search=${JSON.stringify(tag.tagName)} does not list tag ${tag.tagId} of that very name`,
            );
          // A text search reads letters in either case (the rows it keeps are matched ignoring case).
          const otherCase = swapCase(tag.tagName);
          if (otherCase !== tag.tagName) {
            const cased = await tagPage(ctx, { search: otherCase, limit: await wideTagLimit(ctx) });
            if (!cased.hasMore && !cased.ids.includes(tag.tagId))
              violate(
                'TAGS-SEARCH-RESTRICTS',
                'search-case',
                `tag analytics search=${JSON.stringify(otherCase)} does not list tag ${tag.tagId} ${JSON.stringify(tag.tagName)}, though search=${JSON.stringify(tag.tagName)} does: the text search tells letter case apart`,
              );
          }
        }

        // search restricts the analysis at all (TAGS-SEARCH-TEXT): a text no tag contains keeps no row.
        const nothing = `zq${ctx.runId}qz`;
        const none = await tagPage(ctx, { search: nothing, limit: 50 });
        if (none.breakdown.length > 0 || none.volume.length > 0)
          violate(
            'TAGS-SEARCH-TEXT',
            'search-ignored',
            `tag analytics search=${nothing} (no tag contains it) lists ${none.breakdown.length} tags, e.g. ${JSON.stringify(none.breakdown[0]?.['tagName'])}`,
          );

        // respondedOnly: only responded actions, so never more than with respondedOnly=false.
        const all = await tagPage(ctx, { respondedOnly: false, limit: await wideTagLimit(ctx) });
        const responded = await tagPage(ctx, { respondedOnly: true, limit: await wideTagLimit(ctx) });
        const allTotal = num(all.summary['totalActions']) ?? 0;
        const respondedTotal = num(responded.summary['totalActions']) ?? 0;
        if (respondedTotal > allTotal)
          violate(
            'ANALYTICS-RESPONDED-ONLY-NOT-MORE',
            'tags-summary',
            `tag analytics respondedOnly=true counts ${respondedTotal} actions, respondedOnly=false ${allTotal}`,
          );
        const allCounts = countOf(all);
        for (const [id, n] of countOf(responded)) {
          const wide = allCounts.get(id) ?? (all.hasMore ? undefined : 0);
          if (wide !== undefined && n > wide)
            violate(
              'ANALYTICS-RESPONDED-ONLY-NOT-MORE',
              'tags-count',
              `tag ${id}: count ${n} with respondedOnly=true, ${wide} with respondedOnly=false`,
            );
        }
        // A filter of the whole answer: when the unfiltered rows count not-responded actions, the
        // summary of respondedOnly=true counts fewer (a summary left unfiltered disagrees with its rows).
        const leftOut = all.volume.reduce((n, r) => n + (num(r['notResponded']) ?? 0), 0);
        const summaryKeys = ['totalActions', 'totalTaggedRecords'] as const;
        if (
          leftOut > 0 &&
          summaryKeys.every(
            (k) => num(all.summary[k]) !== undefined && num(responded.summary[k]) === num(all.summary[k]),
          )
        )
          violate(
            'ANALYTICS-RESPONDED-ONLY-NOT-MORE',
            'tags-summary-unfiltered',
            `tag analytics: the unfiltered volumeByTag counts ${leftOut} not-responded actions, yet respondedOnly=true answers the same summary (${summaryKeys.map((k) => `${k} ${String(all.summary[k])}`).join(', ')}): the summary is not filtered`,
          );
        const unresponded = responded.volume.find((r) => (num(r['notResponded']) ?? 0) > 0);
        if (unresponded !== undefined)
          violate(
            'ANALYTICS-RESPONDED-ONLY-NOT-MORE',
            'tags-not-responded',
            `tag analytics respondedOnly=true: volumeByTag of ${JSON.stringify(unresponded['tagId'])} counts ${String(unresponded['notResponded'])} not-responded actions`,
          );
      },
      { runs: Math.min(ctx.runs, 5) },
    );
  },
};

export interface VolumeAnswer {
  readonly tags: readonly unknown[];
  readonly rows: readonly Record<string, unknown>[];
}

export async function volume(ctx: Parameters<Law['run']>[0], query: Query): Promise<VolumeAnswer> {
  const body = await readAnalytics(ctx, 'getTagVolume', { ...windowQuery(historySpan(ctx)), ...query });
  const data = obj(body['data']);
  return { tags: arr(data['tags']), rows: arr(data['data']).map(obj) };
}

export const rowTagIds = (rows: readonly Record<string, unknown>[]): Set<string> =>
  new Set(rows.flatMap((r) => (typeof r['tagId'] === 'string' ? [r['tagId']] : [])));

export const tagVolumeParameters: Law = {
  id: 'parameters.tag-volume',
  group: 'parameters',
  title:
    'tag volume: tagIds restricts the tags and rows to those ids, topTagsLimit bounds the tags, respondedOnly counts no more',
  ruleIds: [
    'VOLUME-TAGIDS-RESTRICTS',
    'VOLUME-TOP-TAGS-LIMIT',
    'ANALYTICS-RESPONDED-ONLY-NOT-MORE',
    'VOLUME-QUERY-PARAMS',
  ],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const tags = await historyTags(ctx);
    if (tags.length === 0)
      return {
        kind: 'not-run',
        ruleIds: tagVolumeParameters.ruleIds,
        reason: 'tag analytics lists no tag in the last 90 days',
      };
    const arb = fc.record({
      picked: fc.uniqueArray(fc.constantFrom(...tags), {
        minLength: 1,
        maxLength: Math.min(3, tags.length),
        selector: (t) => t.tagId,
      }),
      top: fc.integer({ min: 1, max: 5 }),
    });
    return runProperty(
      ctx,
      arb,
      async ({ picked, top }) => {
        const ids = picked.map((t) => t.tagId);
        const pinned = await volume(ctx, { tagIds: ids.join(','), respondedOnly: false });
        // What the strings of `tags` are (ids, names, labels) is not shown: only their number is judged.
        if (pinned.tags.length > ids.length)
          violate(
            'VOLUME-TAGIDS-RESTRICTS',
            'more-tags',
            `tag volume tagIds=${ids.join(',')} (${ids.length} ids) answers ${pinned.tags.length} tags: ${JSON.stringify(pinned.tags.slice(0, 12))}`,
          );
        const strayId = [...rowTagIds(pinned.rows)].find((id) => !ids.includes(id));
        if (strayId !== undefined)
          violate(
            'VOLUME-TAGIDS-RESTRICTS',
            'foreign-row',
            `tag volume tagIds=${ids.join(',')} has a row for tag ${strayId}`,
          );

        const topped = await volume(ctx, { topTagsLimit: top });
        if (topped.tags.length > top || rowTagIds(topped.rows).size > top)
          violate(
            'VOLUME-TOP-TAGS-LIMIT',
            'over-top',
            `tag volume topTagsLimit=${top} answers ${topped.tags.length} tags (${JSON.stringify(topped.tags.slice(0, 12))}) and rows for ${rowTagIds(topped.rows).size} tag ids`,
          );

        const responded = await volume(ctx, { tagIds: ids.join(','), respondedOnly: true });
        const counts = (rows: readonly Record<string, unknown>[]) =>
          rows.every((r) => typeof r['count'] === 'number')
            ? rows.reduce((s, r) => s + (num(r['count']) ?? 0), 0)
            : undefined;
        const all = counts(pinned.rows);
        const some = counts(responded.rows);
        if (all !== undefined && some !== undefined && some > all)
          violate(
            'ANALYTICS-RESPONDED-ONLY-NOT-MORE',
            'volume-count',
            `tag volume tagIds=${ids.join(',')}: rows count ${some} with respondedOnly=true, ${all} with respondedOnly=false`,
          );
      },
      { runs: Math.min(ctx.runs, 5) },
    );
  },
};

interface EngagementRows {
  readonly percentiles: readonly Record<string, unknown>[];
  readonly growth: readonly Record<string, unknown>[];
}

async function engagement(ctx: Parameters<Law['run']>[0], query: Query): Promise<EngagementRows> {
  const body = await readAnalytics(ctx, 'getEngagement', { ...windowQuery(historySpan(ctx)), ...query });
  const data = obj(body['data']);
  return {
    percentiles: arr(data['engagementPercentiles']).map(obj),
    growth: arr(data['growthTrends']).map(obj),
  };
}

const rowsOf = (rows: readonly Record<string, unknown>[], platform: string): string[] =>
  rows
    .filter((r) => r['platform'] === platform)
    .map(canonical)
    .sort();

export const engagementPlatforms: Law = {
  id: 'parameters.engagement-platforms',
  group: 'parameters',
  title:
    'engagement: platforms (chosen among those the answer shows) keeps only rows of those platforms, each as it reads without the parameter',
  ruleIds: ['ENG-PLATFORMS-FILTER', 'ENG-PLATFORMS-ROWS-UNCHANGED', 'ENG-QUERY-PARAMS'],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const all = await engagement(ctx, {});
    const seen = [
      ...new Set(
        [...all.percentiles, ...all.growth].flatMap((r) =>
          typeof r['platform'] === 'string' ? [r['platform']] : [],
        ),
      ),
    ].sort();
    if (seen.length === 0)
      return {
        kind: 'not-run',
        ruleIds: engagementPlatforms.ruleIds,
        reason: 'engagement shows no platform in the last 90 days',
      };
    // A proper subset when there is more than one platform, so ignoring the parameter shows.
    const arb = fc.uniqueArray(fc.constantFrom(...seen), {
      minLength: 1,
      maxLength: Math.max(1, seen.length - 1),
    });
    return runProperty(
      ctx,
      arb,
      async (platforms) => {
        const only = await engagement(ctx, { platforms: platforms.join(',') });
        for (const row of [...only.percentiles, ...only.growth]) {
          const p = str(row['platform']);
          if (p !== undefined && !platforms.includes(p))
            violate(
              'ENG-PLATFORMS-FILTER',
              'foreign-platform',
              `engagement platforms=${platforms.join(',')} has a row of platform ${p}`,
            );
        }
        for (const p of platforms) {
          for (const [name, a, b] of [
            ['engagementPercentiles', all.percentiles, only.percentiles],
            ['growthTrends', all.growth, only.growth],
          ] as const) {
            if (rowsOf(a, p).join('\n') !== rowsOf(b, p).join('\n'))
              violate(
                'ENG-PLATFORMS-ROWS-UNCHANGED',
                `rows-changed:${name}`,
                `engagement ${name} rows of ${p} differ with platforms=${platforms.join(',')} from the rows without the parameter`,
              );
          }
        }
      },
      { runs: Math.min(ctx.runs, 5) },
    );
  },
};

/** Upper case letters lower, lower upper (a name with no cased letter comes back as it is). */
function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}
