/**
 * The figures of the tag analytics agree with each other over one window (spec 2.6): a volumeByTag
 * row's responded and notResponded are the two parts of its total, and a tag's sentiment-by-tag
 * mentions are actions of the caller's organization carrying that tag, so never more than tag
 * analytics counts for it. Both are readings of the field names (the spec gives the names, not the
 * sums): `should` rules, a warning, never a failed run. An aggregate that also counts another
 * organization's actions of a tag the caller has too breaks the second (spec 1: all data returned
 * belongs to the key's organization). Two more readings of the same kind: a sentiment-by-tag row's four
 * label counts are counts of its mentions (none below 0, together no more than totalMentions: a mention
 * without a label is in none), and the summary's totalTagGroups counts the groups of the tags the
 * breakdown lists (when the summary's totalTags is the breakdown's length, so both count the same tags).
 */
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import {
  readAnalytics,
  type Span,
  spanText,
  splitWindows,
  widestSplit,
  wideTagLimit,
  windowQuery,
} from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';

/** Pages of tag analytics read for one window at most: a deployment with more tags is judged on what was read. */
const MAX_PAGES = 10;
/** The four label counts of a sentiment-by-tag row (spec 2.6). */
const LABELS = ['veryNegative', 'negative', 'neutral', 'positive'] as const;

export interface TagFigures {
  readonly breakdown: readonly Record<string, unknown>[];
  readonly volume: readonly Record<string, unknown>[];
  readonly summary: Record<string, unknown>;
  /** Every page was read: a tag missing from the breakdown has no count. */
  readonly whole: boolean;
}

/** Every page of tag analytics over one window (responded or not), read with one organization's key. */
export async function tagFigures(
  ctx: LawContext,
  window: Span,
  auth: 'read' | 'otherOrgRead' = 'read',
  respondedOnly = false,
): Promise<TagFigures> {
  const breakdown: Record<string, unknown>[] = [];
  const volume: Record<string, unknown>[] = [];
  let summary: Record<string, unknown> = {};
  const size = await wideTagLimit(ctx);
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const body = await readAnalytics(
      ctx,
      'getTagAnalytics',
      {
        ...windowQuery(window),
        respondedOnly,
        limit: size,
        offset: page * size,
      },
      undefined,
      auth,
    );
    const data = obj(body['data']);
    if (page === 0) summary = obj(data['summary']);
    const rows = arr(data['tagBreakdown']).map(obj);
    breakdown.push(...rows);
    volume.push(...arr(data['volumeByTag']).map(obj));
    if (obj(data['pagination'])['hasMore'] !== true || rows.length === 0)
      return { breakdown, volume, summary, whole: true };
  }
  return { breakdown, volume, summary, whole: false };
}

/**
 * A tagBreakdown percentage is its count's share of one base (spec 2.6 gives `count` and `percentage`
 * only): the window's actions, its tagged records or its tag mentions, as a percentage or a fraction,
 * rounded any way. Whatever the base, a larger count never has a smaller percentage, and the largest
 * count is not 0 % when it is at least 1 % of the largest base it could be measured against.
 */
function checkPercentages(window: Span, figures: TagFigures): void {
  const rows = figures.breakdown
    .map((r) => ({
      id: JSON.stringify(r['tagId']),
      count: num(r['count']),
      percentage: num(r['percentage']),
    }))
    .filter(
      (r): r is { id: string; count: number; percentage: number } =>
        r.count !== undefined && r.percentage !== undefined,
    )
    .sort((a, b) => b.count - a.count);
  const top = rows[0];
  if (top === undefined) return;
  for (const [i, row] of rows.entries()) {
    const larger = rows.slice(0, i).find((r) => r.count > row.count && r.percentage < row.percentage);
    if (larger !== undefined)
      violate(
        'TAGS-PERCENTAGE-SHARE',
        'percentage-order',
        `tag analytics ${spanText(window)}: tag ${larger.id} counts ${larger.count} with percentage ${larger.percentage}, tag ${row.id} counts ${row.count} with percentage ${row.percentage}: a larger count's share is not smaller`,
      );
  }
  const mentions = rows.reduce((sum, r) => sum + r.count, 0);
  const base = Math.max(
    mentions,
    num(figures.summary['totalActions']) ?? 0,
    num(figures.summary['totalTaggedRecords']) ?? 0,
  );
  if (base > 0 && (top.count * 100) / base >= 1 && !(top.percentage > 0))
    violate(
      'TAGS-PERCENTAGE-SHARE',
      'percentage-zero',
      `tag analytics ${spanText(window)}: tag ${top.id} counts ${top.count}, at least 1 % of any base (${base} at most: actions, tagged records or mentions), but its percentage is ${top.percentage}`,
    );
}

/**
 * respondedOnly=true restricts tag analytics to responded actions (4.8): a tag whose volumeByTag row
 * of the unrestricted answer counts responded actions is listed with exactly that many.
 */
async function checkRespondedOnly(ctx: LawContext, window: Span, all: TagFigures): Promise<void> {
  const only = await tagFigures(ctx, window, 'read', true);
  if (!only.whole) return;
  const counts = new Map(only.breakdown.map((r) => [str(r['tagId']), num(r['count'])]));
  for (const row of all.volume) {
    const id = str(row['tagId']);
    const responded = num(row['responded']);
    if (id === undefined || responded === undefined || responded === 0) continue;
    const count = counts.get(id);
    if (count !== responded)
      violate(
        'TAGS-RESPONDED-ONLY-COUNTS-RESPONDED',
        'responded-only-count',
        `tag analytics ${spanText(window)}: tag ${JSON.stringify(id)} has responded ${responded} in volumeByTag without the restriction, but respondedOnly=true ${count === undefined ? 'does not list it' : `counts it ${count}`}`,
      );
  }
}

/**
 * The summary's totalActions counts this organization's actions of the window (or its responded
 * ones): never more than the queue list of the same window counts, where that list has the entry for
 * actions without a queue (2.5: "null can stand for no queue"), so that every action of the window is
 * in exactly one entry. Read after the tags, so an action that came in meanwhile only raises the bound.
 * More is another organization's actions, or actions outside the window, counted in the summary.
 */
async function checkSummaryWithinQueues(ctx: LawContext, window: Span, figures: TagFigures): Promise<void> {
  const total = num(figures.summary['totalActions']);
  if (total === undefined) return;
  const body = await readAnalytics(ctx, 'listQueues', windowQuery(window));
  const entries = arr(body['data']).map(obj);
  if (!entries.some((e) => e['queueId'] === null)) return;
  const counted = entries.reduce((sum, e) => sum + (num(obj(e['metrics'])['totalActions']) ?? 0), 0);
  if (total > counted)
    violate(
      'ORG-DATA-SCOPED',
      'tags-summary-over-queues',
      `tag analytics ${spanText(window)}: summary.totalActions is ${total}, but the queue list of the same window, with its entry for actions without a queue, counts ${counted} actions in all: the summary counts actions that are not this organization's in the window`,
    );
}

export const tagFiguresAgree: Law = {
  id: 'analytics.tag-figures-agree',
  group: 'parameters',
  title:
    "tag analytics over one window: volumeByTag's responded and notResponded add up to its total; totalTagGroups counts the breakdown's groups; percentages are shares of the counts; respondedOnly=true counts a tag's responded actions; sentiment by tag counts no more mentions of a tag than tag analytics counts actions with it, nor more labels than mentions",
  ruleIds: [
    'TAGS-VOLUME-PARTS-ADD-UP',
    'SENT-TAG-WITHIN-TAG-COUNT',
    'SENT-TAG-LABELS-WITHIN-MENTIONS',
    'TAGS-SUMMARY-GROUPS-AGREE',
    'TAGS-PERCENTAGE-SHARE',
    'TAGS-RESPONDED-ONLY-COUNTS-RESPONDED',
    'ORG-DATA-SCOPED',
    'TAGS-QUERY-PARAMS',
    'SENT-TAG-QUERY-PARAMS',
  ],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runProperty(
      ctx,
      splitWindows(ctx, 60),
      async ({ outer }) => {
        const figures = await tagFigures(ctx, outer);
        for (const row of figures.volume) {
          const total = num(row['total']);
          const responded = num(row['responded']);
          const notResponded = num(row['notResponded']);
          if (total !== undefined && responded !== undefined && notResponded !== undefined)
            if (responded + notResponded !== total)
              violate(
                'TAGS-VOLUME-PARTS-ADD-UP',
                'volume-parts',
                `tag analytics ${spanText(outer)}: volumeByTag of tag ${JSON.stringify(row['tagId'])} has total ${total}, responded ${responded} and notResponded ${notResponded}`,
              );
        }
        const body = await readAnalytics(ctx, 'getSentimentByTag', windowQuery(outer));
        const sentimentRows = arr(body['data']).map(obj);
        for (const row of sentimentRows) {
          const mentions = num(row['totalMentions']);
          const labels = LABELS.map((k) => num(row[k]));
          if (mentions === undefined || labels.some((n) => n === undefined)) continue;
          const counts = labels as readonly number[];
          const sum = counts.reduce((a, b) => a + b, 0);
          if (counts.some((n) => n < 0) || sum > mentions)
            violate(
              'SENT-TAG-LABELS-WITHIN-MENTIONS',
              'labels-over-mentions',
              `sentiment by tag ${spanText(outer)}: ${JSON.stringify(row['tagName'])} has ${LABELS.map((k, i) => `${k} ${counts[i]}`).join(', ')} for ${mentions} mentions`,
            );
        }
        await checkSummaryWithinQueues(ctx, outer, figures);
        if (!figures.whole) return;
        checkPercentages(outer, figures);
        await checkRespondedOnly(ctx, outer, figures);
        const totalTags = num(figures.summary['totalTags']);
        const totalGroups = num(figures.summary['totalTagGroups']);
        if (totalTags === figures.breakdown.length && totalGroups !== undefined) {
          // A tag without a group (groupName null) may or may not make a group of its own.
          const named = new Set(
            figures.breakdown.map((r) => r['groupName']).filter((g): g is string => typeof g === 'string'),
          );
          const ungrouped = figures.breakdown.some((r) => typeof r['groupName'] !== 'string');
          if (totalGroups < named.size || totalGroups > named.size + (ungrouped ? 1 : 0))
            violate(
              'TAGS-SUMMARY-GROUPS-AGREE',
              'groups-count',
              `tag analytics ${spanText(outer)}: summary totalTagGroups ${totalGroups}, but its ${totalTags} tags (the whole breakdown) carry ${named.size} group names${ungrouped ? ' and some none' : ''}`,
            );
        }
        // Tags are named by tagName in sentiment by tag, by tagId in the breakdown: same-named tags add up.
        const countByName = new Map<string, number>();
        for (const row of figures.breakdown) {
          const name = str(row['tagName']);
          if (name !== undefined)
            countByName.set(name, (countByName.get(name) ?? 0) + (num(row['count']) ?? 0));
        }
        for (const row of sentimentRows) {
          const name = str(row['tagName']);
          const mentions = num(row['totalMentions']);
          if (name === undefined || mentions === undefined) continue;
          const count = countByName.get(name) ?? 0;
          if (mentions > count)
            violate(
              'SENT-TAG-WITHIN-TAG-COUNT',
              'mentions-over-count',
              `${spanText(outer)}: sentiment by tag counts ${mentions} mentions of ${JSON.stringify(name)}, tag analytics (respondedOnly=false) counts ${count} actions with a tag of that name: another organization's actions counted, or actions out of the window`,
            );
        }
      },
      // The widest window first: the one most likely to hold a whole breakdown of several groups.
      { runs: Math.min(ctx.runs, 4), examples: [widestSplit(ctx, 60)] },
    ),
};
