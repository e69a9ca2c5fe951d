/**
 * The figures of agents, queues and the analytics operations, computed from the actions of one
 * createdAt window (the same window the action list reads for the same from/to). Analytics count
 * every window action, responded or not, unless `respondedOnly` is true.
 */

import { FLAG_INGESTED } from '../../../fixtures/generate/table.ts';
import { PLATFORMS } from '../../../fixtures/generate/types.ts';
import { dayOf, MetricsAccumulator, percentile, round2, TagAccumulator, weekStart } from './analytics.ts';
import type { Window } from './dates.ts';
import { forEachInWindow } from './query.ts';
import type { OrgData } from './state.ts';

const WEEK = 7 * 86_400_000;

export function agentReport(org: OrgData, window: Window) {
  const accumulators = org.catalog.agents.map(() => new MetricsAccumulator());
  forEachInWindow(org, window, false, (row) => {
    accumulators[org.table.assignee[row] ?? -1]?.add(org, row);
  });
  return org.catalog.agents.map((agent, i) => {
    const acc = accumulators[i] ?? new MetricsAccumulator();
    return {
      agentId: agent.userId,
      metrics: { ...acc.metrics(), totalActionsWithResponse: acc.withResponse },
      workload: acc.workload(),
    };
  });
}

export function agentDetail(org: OrgData, window: Window, agentIndex: number) {
  const total = new MetricsAccumulator();
  const byDay = new Map<string, MetricsAccumulator>();
  const byQueue = new Map<number, MetricsAccumulator>();
  forEachInWindow(org, window, false, (row) => {
    if (org.table.assignee[row] !== agentIndex) return;
    total.add(org, row);
    const day = dayOf(org.table.createdAt[row] ?? 0);
    const dayAcc = byDay.get(day) ?? new MetricsAccumulator();
    dayAcc.add(org, row);
    byDay.set(day, dayAcc);
    const queue = org.table.queue[row] ?? -1;
    const queueAcc = byQueue.get(queue) ?? new MetricsAccumulator();
    queueAcc.add(org, row);
    byQueue.set(queue, queueAcc);
  });
  return {
    metrics: [...byDay.entries()].map(([day, acc]) => ({ day, ...acc.metrics() })),
    aggregatedMetrics: total.metrics(),
    currentWorkload: total.workload(),
    queues: [...byQueue.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([queue, acc]) => ({
        queueId: org.catalog.queues[queue]?.id ?? null,
        queueName: org.catalog.queues[queue]?.name ?? null,
        totalActions: acc.totalActions,
        workload: acc.workload(),
      })),
  };
}

export function queueReport(org: OrgData, window: Window) {
  const accumulators = org.catalog.queues.map(() => new MetricsAccumulator());
  const none = new MetricsAccumulator();
  forEachInWindow(org, window, false, (row) => {
    const acc = accumulators[org.table.queue[row] ?? -1] ?? none;
    acc.add(org, row);
  });
  const entry = (queueId: string | null, queueName: string | null, acc: MetricsAccumulator) => ({
    queueId,
    queueName,
    metrics: { ...acc.metrics(), averageSentimentScore: acc.averageSentimentScore() },
    workload: acc.workload(),
  });
  const out = org.catalog.queues.map((q, i) =>
    entry(q.id, q.name, accumulators[i] ?? new MetricsAccumulator()),
  );
  if (none.totalActions > 0) out.push(entry(null, null, none));
  return out;
}

/** Per-tag accumulators over the window, with the window's action counts. */
export function tagCounts(org: OrgData, window: Window, respondedOnly: boolean) {
  const tags = new Map<number, TagAccumulator>();
  let totalActions = 0;
  let tagged = 0;
  forEachInWindow(org, window, respondedOnly, (row) => {
    totalActions++;
    const list = org.table.tagsOf(row);
    if (list.length > 0) tagged++;
    for (const tag of list) {
      const acc = tags.get(tag) ?? new TagAccumulator();
      acc.add(org, row);
      tags.set(tag, acc);
    }
  });
  return { tags, totalActions, tagged };
}

/** Tags by count descending, then tagId ascending. */
export function rankedTags<T extends { readonly total: number }>(
  org: OrgData,
  tags: Map<number, T>,
): [number, T][] {
  return [...tags.entries()].sort((a, b) => {
    if (b[1].total !== a[1].total) return b[1].total - a[1].total;
    const idA = org.catalog.tags[a[0]]?.id ?? '';
    const idB = org.catalog.tags[b[0]]?.id ?? '';
    return idA < idB ? -1 : idA > idB ? 1 : 0;
  });
}

/** The number of window actions carrying each tag: all the ranking of tag volume needs. */
function tagTotals(org: OrgData, window: Window, respondedOnly: boolean): Map<number, { total: number }> {
  const tags = new Map<number, { total: number }>();
  forEachInWindow(org, window, respondedOnly, (row) => {
    for (const tag of org.table.tagsOf(row)) {
      const counted = tags.get(tag);
      if (counted === undefined) tags.set(tag, { total: 1 });
      else counted.total++;
    }
  });
  return tags;
}

export function tagAnalytics(
  org: OrgData,
  window: Window,
  options: { respondedOnly: boolean; search: string | undefined; limit: number; offset: number },
) {
  const { tags, totalActions, tagged } = tagCounts(org, window, options.respondedOnly);
  const needle = options.search?.trim().toLowerCase() ?? '';
  const matching = rankedTags(org, tags).filter(([k]) => {
    const tag = org.catalog.tags[k];
    return (
      needle === '' ||
      (tag !== undefined &&
        (tag.value.toLowerCase().includes(needle) || tag.group.toLowerCase().includes(needle)))
    );
  });
  const page = matching.slice(options.offset, options.offset + options.limit);
  const groups = new Set([...tags.keys()].map((k) => org.catalog.tags[k]?.group ?? ''));
  return {
    summary: { totalTags: tags.size, totalTagGroups: groups.size, totalTaggedRecords: tagged, totalActions },
    tagBreakdown: page.map(([k, acc]) => ({
      tagId: org.catalog.tags[k]?.id ?? '',
      tagName: org.catalog.tags[k]?.value ?? '',
      groupName: org.catalog.tags[k]?.group ?? null,
      count: acc.total,
      percentage: totalActions === 0 ? 0 : round2((acc.total / totalActions) * 100),
    })),
    volumeByTag: page.map(([k, acc]) => ({
      tagId: org.catalog.tags[k]?.id ?? '',
      tagName: org.catalog.tags[k]?.value ?? '',
      total: acc.total,
      responded: acc.responded,
      notResponded: acc.total - acc.responded,
      ...acc.averages(),
    })),
    pagination: {
      total: matching.length,
      limit: options.limit,
      offset: options.offset,
      hasMore: options.offset + page.length < matching.length,
    },
  };
}

export function tagVolume(
  org: OrgData,
  window: Window,
  options: { respondedOnly: boolean; topTagsLimit: number; tagIds: readonly string[] | undefined },
) {
  let selected: number[];
  if (options.tagIds !== undefined) {
    selected = options.tagIds.flatMap((id) => {
      const k = org.catalog.tags.findIndex((t) => t.id === id);
      return k < 0 ? [] : [k];
    });
    selected = [...new Set(selected)];
  } else {
    selected = rankedTags(org, tagTotals(org, window, options.respondedOnly))
      .slice(0, options.topTagsLimit)
      .map(([k]) => k);
  }
  // One counter pair per selected tag and day, in the order the tags were selected: the rows come
  // out by day, then by that order, without a key string per cell or a sort of every cell.
  const position = new Map(selected.map((k, i) => [k, i]));
  const width = selected.length;
  const days = new Map<string, { count: Int32Array; responded: Int32Array }>();
  forEachInWindow(org, window, options.respondedOnly, (row) => {
    let cells: { count: Int32Array; responded: Int32Array } | undefined;
    for (const tag of org.table.tagsOf(row)) {
      const i = position.get(tag);
      if (i === undefined) continue;
      if (cells === undefined) {
        const day = dayOf(org.table.createdAt[row] ?? 0);
        cells = days.get(day);
        if (cells === undefined) {
          cells = { count: new Int32Array(width), responded: new Int32Array(width) };
          days.set(day, cells);
        }
      }
      cells.count[i] = (cells.count[i] ?? 0) + 1;
      if (org.table.responded(row)) cells.responded[i] = (cells.responded[i] ?? 0) + 1;
    }
  });
  const data: { day: string; tagId: string; tagName: string; count: number; responded: number }[] = [];
  for (const day of [...days.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const cells = days.get(day);
    if (cells === undefined) continue;
    for (let i = 0; i < width; i++) {
      const count = cells.count[i] ?? 0;
      if (count === 0) continue;
      const tag = org.catalog.tags[selected[i] ?? -1];
      data.push({
        day,
        tagId: tag?.id ?? '',
        tagName: tag?.value ?? '',
        count,
        responded: cells.responded[i] ?? 0,
      });
    }
  }
  return {
    data,
    tags: selected.map((k) => org.catalog.tags[k]?.value ?? ''),
  };
}

export function sentimentByDay(org: OrgData, window: Window) {
  const days = new Map<string, number[]>();
  forEachInWindow(org, window, false, (row) => {
    const label = org.table.sentiment[row] ?? -1;
    if (label < 0) return;
    const day = dayOf(org.table.createdAt[row] ?? 0);
    const counts = days.get(day) ?? [0, 0, 0, 0];
    counts[label] = (counts[label] ?? 0) + 1;
    days.set(day, counts);
  });
  return [...days.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([day, c]) => ({
      day,
      'Very Negative': c[0] ?? 0,
      Negative: c[1] ?? 0,
      Neutral: c[2] ?? 0,
      Positive: c[3] ?? 0,
    }));
}

export function sentimentByTag(org: OrgData, window: Window) {
  const { tags } = tagCounts(org, window, false);
  return rankedTags(org, tags).map(([k, acc]) => ({
    tagName: org.catalog.tags[k]?.value ?? '',
    veryNegative: acc.labels[0] ?? 0,
    negative: acc.labels[1] ?? 0,
    neutral: acc.labels[2] ?? 0,
    positive: acc.labels[3] ?? 0,
    totalMentions: acc.total,
  }));
}

/**
 * Customer identity within a platform: the customer number for seeded rows, the userId for ingested
 * ones. A number and a string never equal each other as map keys, so the two kinds stay apart
 * without building a string per seeded row.
 */
function customerKey(org: OrgData, row: number): number | string {
  if (org.table.hasFlag(row, FLAG_INGESTED)) return `i:${org.ingested.get(row)?.user.userId ?? ''}`;
  return org.table.customer[row] ?? 0;
}

export function engagement(org: OrgData, window: Window, platforms: ReadonlySet<string> | undefined) {
  const included = (row: number): boolean =>
    platforms === undefined || platforms.has(PLATFORMS[org.table.platform[row] ?? 0] ?? '');
  const perPlatform = new Map<string, Map<number | string, number>>();
  // Week start, then platform name: maps of maps rather than a key string built per row.
  const weekUsers = new Map<number, Map<string, Set<number | string>>>();
  const funnel = { conversations: 0, responded: 0, assigned: 0, closed: 0, rated: 0 };
  forEachInWindow(org, window, false, (row) => {
    if (!included(row)) return;
    const platform = PLATFORMS[org.table.platform[row] ?? 0] ?? '';
    let users = perPlatform.get(platform);
    if (users === undefined) {
      users = new Map();
      perPlatform.set(platform, users);
    }
    const who = customerKey(org, row);
    users.set(who, (users.get(who) ?? 0) + (org.table.msgUser[row] ?? 0));
    const week = weekStart(org.table.createdAt[row] ?? 0);
    let platforms = weekUsers.get(week);
    if (platforms === undefined) {
      platforms = new Map();
      weekUsers.set(week, platforms);
    }
    let set = platforms.get(platform);
    if (set === undefined) {
      set = new Set();
      platforms.set(platform, set);
    }
    set.add(who);
    funnel.conversations++;
    if (org.table.responded(row)) funnel.responded++;
    if ((org.table.assignee[row] ?? -1) >= 0) funnel.assigned++;
    if (org.table.status[row] === 3) funnel.closed++;
    if ((org.table.csat[row] ?? -1) > 0) funnel.rated++;
  });
  const engagementPercentiles = [...perPlatform.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([platform, users]) => {
      const counts = [...users.values()].sort((a, b) => a - b);
      return {
        platform,
        p25MessagesPerUser: percentile(counts, 0.25),
        medianMessagesPerUser: percentile(counts, 0.5),
        p75MessagesPerUser: percentile(counts, 0.75),
      };
    });
  const previousWeekUsers = previousWeekCounter(org);
  const growthTrends = [...weekUsers.entries()]
    .flatMap(([week, platforms]) =>
      [...platforms.entries()].map(([platform, users]) => ({ week, platform, users })),
    )
    .map(({ week, platform, users }) => {
      const previous = previousWeekUsers(week, platform);
      const current = users.size;
      return {
        week: new Date(week).toISOString(),
        platform,
        currentWeekUsers: current,
        previousWeekUsers: previous,
        growthPercentage:
          previous === 0 ? (current > 0 ? 100 : 0) : round2(((current - previous) / previous) * 100),
      };
    })
    .sort((a, b) => (a.week < b.week ? -1 : a.week > b.week ? 1 : a.platform < b.platform ? -1 : 1));
  const pct = (n: number): number =>
    funnel.conversations === 0 ? 0 : round2((n / funnel.conversations) * 100);
  const conversionFunnel = (Object.keys(funnel) as (keyof typeof funnel)[]).map((stage) => ({
    stage,
    count: funnel[stage],
    percentage: pct(funnel[stage]),
  }));
  return { engagementPercentiles, growthTrends, conversionFunnel };
}

/**
 * Distinct customers per platform in the whole calendar week before `week` (not clipped to the
 * window), computed once per week.
 */
function previousWeekCounter(org: OrgData): (week: number, platform: string) => number {
  const cache = new Map<number, Map<string, Set<number | string>>>();
  return (week, platform) => {
    let byPlatform = cache.get(week);
    if (byPlatform === undefined) {
      const built = new Map<string, Set<number | string>>();
      forEachInWindow(org, { from: week - WEEK, to: week - 1 }, false, (row) => {
        const name = PLATFORMS[org.table.platform[row] ?? 0] ?? '';
        let users = built.get(name);
        if (users === undefined) {
          users = new Set();
          built.set(name, users);
        }
        users.add(customerKey(org, row));
      });
      cache.set(week, built);
      byPlatform = built;
    }
    return byPlatform.get(platform)?.size ?? 0;
  };
}
