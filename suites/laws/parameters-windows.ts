/**
 * from/to on every analytics endpoint (spec 4.5 to 4.12) move the answer the way a window must: a
 * window inside another counts no more (per agent, queue, tag, day, week), two halves of a window
 * count no more together than the whole, and dated rows lie in the window asked for.
 */
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { DAY_MS, sampleAgentIds } from './discover.ts';
import {
  historyTags,
  isoOf,
  type Query,
  readAnalytics,
  type Span,
  spanText,
  splitWindows,
  wideTagLimit,
  windowQuery,
} from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';

/** What one read of one endpoint counts, by entry; `total` only where counts add over disjoint windows. */
interface Counted {
  readonly counts: ReadonlyMap<string, number>;
  /** The answer lists every entry (no page cut it short): an absent entry counts 0. */
  readonly complete: boolean;
  readonly total?: number;
  /** Days (`YYYY-MM-DD`) of daily rows and week starts (epoch ms) of weekly rows, when the answer has them. */
  readonly days: readonly string[];
  readonly weeks: readonly number[];
}

interface CountView {
  readonly operationId: string;
  read(ctx: LawContext, w: Span): Promise<Counted>;
}

function counted(entries: Iterable<readonly [string, number]>, extra: Partial<Counted> = {}): Counted {
  const counts = new Map<string, number>();
  for (const [k, v] of entries) counts.set(k, (counts.get(k) ?? 0) + v);
  return { counts, complete: true, days: [], weeks: [], ...extra };
}

const sum = (values: Iterable<number>): number => {
  let s = 0;
  for (const v of values) s += v;
  return s;
};

const metric = (entry: Record<string, unknown>, key: string): number => num(obj(entry['metrics'])[key]) ?? 0;

function listView(operationId: 'listAgents' | 'listQueues', idKey: 'agentId' | 'queueId'): CountView {
  return {
    operationId,
    read: async (ctx, w) => {
      const body = await readAnalytics(ctx, operationId, windowQuery(w));
      const entries = arr(body['data']).map(obj);
      const label = (e: Record<string, unknown>) => `${idKey} ${str(e[idKey]) ?? '(none)'}`;
      const pairs = entries.flatMap((e) => [
        [`${label(e)} totalActions`, metric(e, 'totalActions')] as const,
        [`${label(e)} totalMessages`, metric(e, 'totalMessages')] as const,
      ]);
      return counted(pairs, { total: sum(entries.map((e) => metric(e, 'totalActions'))) });
    },
  };
}

const agentDetailView: CountView = {
  operationId: 'getAgent',
  read: async (ctx, w) => {
    const id = (await sampleAgentIds(ctx))[0];
    if (id === undefined) return counted([]);
    const body = await readAnalytics(ctx, 'getAgent', windowQuery(w), { id });
    const total = num(obj(obj(body['data'])['aggregatedMetrics'])['totalActions']) ?? 0;
    return counted([[`agent ${id} aggregatedMetrics.totalActions`, total]], { total });
  },
};

const tagsView: CountView = {
  operationId: 'getTagAnalytics',
  read: async (ctx, w) => {
    const body = await readAnalytics(ctx, 'getTagAnalytics', {
      ...windowQuery(w),
      limit: await wideTagLimit(ctx),
    });
    const data = obj(body['data']);
    const summary = obj(data['summary']);
    const total = num(summary['totalActions']) ?? 0;
    const rows = arr(data['tagBreakdown']).map(obj);
    return counted(
      [
        ['summary.totalActions', total],
        ['summary.totalTaggedRecords', num(summary['totalTaggedRecords']) ?? 0],
        ...rows.map((r) => [`tag ${str(r['tagId']) ?? '?'} count`, num(r['count']) ?? 0] as const),
      ],
      { total, complete: obj(data['pagination'])['hasMore'] !== true },
    );
  },
};

/**
 * Tag volume with the tags pinned (`tagIds`), so both windows count the same tags. Rows are "arrays
 * of objects" (shape not shown): only a numeric `count`, where every row has one, is summed.
 */
const volumeView: CountView = {
  operationId: 'getTagVolume',
  read: async (ctx, w) => {
    const ids = (await historyTags(ctx)).slice(0, 5).map((t) => t.tagId);
    const query: Query = ids.length === 0 ? windowQuery(w) : { ...windowQuery(w), tagIds: ids.join(',') };
    const body = await readAnalytics(ctx, 'getTagVolume', query);
    const rows = arr(obj(body['data'])['data']).map(obj);
    if (ids.length === 0 || !rows.every((r) => typeof r['count'] === 'number')) return counted([]);
    const total = sum(rows.map((r) => num(r['count']) ?? 0));
    return counted([['sum of row counts', total]], { total });
  },
};

const LABELS = ['Very Negative', 'Negative', 'Neutral', 'Positive'] as const;

const sentimentDayView: CountView = {
  operationId: 'getSentimentByDay',
  read: async (ctx, w) => {
    const body = await readAnalytics(ctx, 'getSentimentByDay', windowQuery(w));
    const rows = arr(body['data']).map(obj);
    const perDay = rows.map(
      (r) => [`day ${str(r['day']) ?? '?'}`, sum(LABELS.map((l) => num(r[l]) ?? 0))] as const,
    );
    return counted(perDay, {
      total: sum(perDay.map(([, n]) => n)),
      days: rows.flatMap((r) => (str(r['day']) === undefined ? [] : [str(r['day']) as string])),
    });
  },
};

const sentimentTagView: CountView = {
  operationId: 'getSentimentByTag',
  read: async (ctx, w) => {
    const body = await readAnalytics(ctx, 'getSentimentByTag', windowQuery(w));
    const rows = arr(body['data']).map(obj);
    const pairs = rows.map(
      (r) => [`tag ${str(r['tagName']) ?? '?'} totalMentions`, num(r['totalMentions']) ?? 0] as const,
    );
    return counted(pairs, { total: sum(pairs.map(([, n]) => n)) });
  },
};

/** Engagement: users per platform and week, and which platforms appear (percentiles do not add up). */
const engagementView: CountView = {
  operationId: 'getEngagement',
  read: async (ctx, w) => {
    const body = await readAnalytics(ctx, 'getEngagement', windowQuery(w));
    const data = obj(body['data']);
    const growth = arr(data['growthTrends']).map(obj);
    const platforms = arr(data['engagementPercentiles']).map((r) => str(obj(r)['platform']) ?? '?');
    return counted(
      [
        ...growth.map(
          (r) =>
            [
              `week ${str(r['week']) ?? '?'} ${str(r['platform']) ?? '?'} currentWeekUsers`,
              num(r['currentWeekUsers']) ?? 0,
            ] as const,
        ),
        ...platforms.map((p) => [`platform ${p} present`, 1] as const),
      ],
      { weeks: growth.map((r) => Date.parse(str(r['week']) ?? '')).filter(Number.isFinite) },
    );
  },
};

export const COUNT_VIEWS: readonly CountView[] = [
  listView('listAgents', 'agentId'),
  agentDetailView,
  listView('listQueues', 'queueId'),
  tagsView,
  volumeView,
  sentimentDayView,
  sentimentTagView,
  engagementView,
];

function checkNarrower(
  op: string,
  inner: Span,
  innerCounts: Counted,
  outer: Span,
  outerCounts: Counted,
): void {
  for (const [key, n] of innerCounts.counts) {
    const wide = outerCounts.counts.get(key) ?? (outerCounts.complete ? 0 : undefined);
    if (wide !== undefined && n > wide) {
      violate(
        'ANALYTICS-WINDOW-NARROWER-NOT-MORE',
        `narrower-more:${op}`,
        `${op}: ${key} is ${n} for ${spanText(inner)} but ${wide} for the wider ${spanText(outer)}`,
      );
    }
  }
}

const dayOf = (t: number): string => isoOf(t).slice(0, 10);

/** Daily rows lie on a day of the window and weekly rows start in a week touching it (a day of slack either side for time zones). */
function checkRowsInside(op: string, w: Span, c: Counted): void {
  const lo = dayOf(w.from - DAY_MS);
  const hi = dayOf(w.to + DAY_MS);
  for (const day of c.days) {
    if (day < lo || day > hi)
      violate(
        'ANALYTICS-ROWS-INSIDE-WINDOW',
        `day-outside:${op}`,
        `${op}: a daily row for ${day} in the answer for ${spanText(w)}`,
      );
  }
  for (const week of c.weeks) {
    if (week < w.from - 8 * DAY_MS || week > w.to + DAY_MS)
      violate(
        'ANALYTICS-ROWS-INSIDE-WINDOW',
        `week-outside:${op}`,
        `${op}: a weekly row for the week of ${isoOf(week)} in the answer for ${spanText(w)}`,
      );
  }
}

export const analyticsWindows: Law = {
  id: 'parameters.analytics-windows',
  group: 'parameters',
  title:
    'from/to on agents, agent detail, queues, tags, tag volume, sentiment and engagement: a window inside another counts no more, two halves count no more than the whole, dated rows lie in the window',
  ruleIds: [
    'ANALYTICS-WINDOW-NARROWER-NOT-MORE',
    'ANALYTICS-WINDOW-HALVES-NOT-MORE',
    'AGENT-LIST-WINDOW-DATE-RULES',
    'ANALYTICS-ROWS-INSIDE-WINDOW',
    'AGENT-LIST-ENVELOPE',
    'AGENT-DETAIL-QUERY-PARAMS',
    'QUEUE-QUERY-PARAMS',
    'TAGS-QUERY-PARAMS',
    'VOLUME-QUERY-PARAMS',
    'SENT-DAY-QUERY-PARAMS',
    'SENT-TAG-QUERY-PARAMS',
    'ENG-QUERY-PARAMS',
  ],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runProperty(
      ctx,
      splitWindows(ctx, 60),
      async (w) => {
        for (const v of COUNT_VIEWS) {
          const outer = await v.read(ctx, w.outer);
          const first = await v.read(ctx, w.first);
          const second = await v.read(ctx, w.second);
          checkRowsInside(v.operationId, w.first, first);
          checkRowsInside(v.operationId, w.second, second);
          checkNarrower(v.operationId, w.first, first, w.outer, outer);
          checkNarrower(v.operationId, w.second, second, w.outer, outer);
          if (outer.total !== undefined && first.total !== undefined && second.total !== undefined) {
            // The agent list takes from/to with the action list's date rules (4.5), one instant per
            // action, so two halves that share no instant cannot each count all of the whole: that
            // answer is the window not applied at all.
            if (
              v.operationId === 'listAgents' &&
              outer.total > 0 &&
              first.total === outer.total &&
              second.total === outer.total
            )
              violate(
                'AGENT-LIST-WINDOW-DATE-RULES',
                'window-ignored',
                `listAgents: the halves ${spanText(w.first)} and ${spanText(w.second)} each count ${first.total} actions, as many as the whole ${spanText(w.outer)}: from/to are not applied`,
              );
            if (first.total + second.total > outer.total)
              violate(
                'ANALYTICS-WINDOW-HALVES-NOT-MORE',
                `halves-more:${v.operationId}`,
                `${v.operationId}: the halves ${spanText(w.first)} and ${spanText(w.second)} count ${first.total} + ${second.total}, more than the ${outer.total} of the whole ${spanText(w.outer)}: the window is not applied`,
              );
          }
        }
      },
      { runs: Math.min(ctx.runs, 4) },
    ),
};
