/**
 * The figures of agents, queues and the analytics operations, computed from the actions of one
 * createdAt window (the same window the action list reads for the same from/to). Analytics count
 * every window action, responded or not, unless `respondedOnly` is true.
 */

import { FLAG_INGESTED } from '../../../fixtures/generate/table.ts';
import { PLATFORMS } from '../../../fixtures/generate/types.ts';
import {
  dayOf,
  type Metrics,
  MetricsAccumulator,
  percentile,
  round2,
  TagAccumulator,
  weekStart,
} from './analytics.ts';
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
    // A property set on the fresh object, not a spread into another: a spread per agent cost more
    // than the agent's rows did. Keys keep their order: the metrics, then this one.
    const metrics: Metrics & { totalActionsWithResponse?: number } = acc.metrics();
    metrics.totalActionsWithResponse = acc.withResponse;
    return { agentId: agent.userId, metrics, workload: acc.workload() };
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
    metrics: [...byDay.entries()].map(([day, acc]) => acc.metricsAfter({ day })),
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
  const entry = (queueId: string | null, queueName: string | null, acc: MetricsAccumulator) => {
    // Set, not spread (see agentReport).
    const metrics: Metrics & { averageSentimentScore?: number } = acc.metrics();
    metrics.averageSentimentScore = acc.averageSentimentScore();
    return { queueId, queueName, metrics, workload: acc.workload() };
  };
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

/**
 * Per-organization scratch of engagement for seeded customers (numbered `0..n`): by customer and
 * platform slot, the messages summed in this call and the last week each was counted in, for the
 * window's rows and for all of the week's rows. A stamp (a number never used twice until the arrays
 * are cleared) says whether a cell belongs to this call or week, so nothing is cleared per request
 * and no Map or Set is touched per seeded row. Ingested customers (userIds) keep Maps and Sets.
 */
interface Scratch {
  capacity: number;
  sums: Float64Array;
  sumStamp: Uint32Array;
  currentStamp: Uint32Array;
  fullStamp: Uint32Array;
  stamp: number;
}

const SLOTS = PLATFORMS.length + 1;
/** Customer numbers past this (none are seeded so high) go the keyed way rather than grow the arrays. */
const MAX_SCRATCH_CUSTOMERS = 1 << 20;
const scratches = new WeakMap<OrgData, Scratch>();

function scratchOf(org: OrgData): Scratch {
  let scratch = scratches.get(org);
  if (scratch === undefined) {
    scratch = allocate(Math.min(MAX_SCRATCH_CUSTOMERS, Math.max(16, org.catalog.customerPool)));
    scratches.set(org, scratch);
  }
  return scratch;
}

function allocate(capacity: number): Scratch {
  const cells = capacity * SLOTS;
  return {
    capacity,
    sums: new Float64Array(cells),
    sumStamp: new Uint32Array(cells),
    currentStamp: new Uint32Array(cells),
    fullStamp: new Uint32Array(cells),
    stamp: 0,
  };
}

/** Room for customer `customer`: the arrays grow (cells are `customer * SLOTS + slot`, so a copy keeps them). */
function grow(scratch: Scratch, customer: number): void {
  const bigger = allocate(Math.min(MAX_SCRATCH_CUSTOMERS, Math.max(customer + 1, scratch.capacity * 2)));
  bigger.sums.set(scratch.sums);
  bigger.sumStamp.set(scratch.sumStamp);
  bigger.currentStamp.set(scratch.currentStamp);
  bigger.fullStamp.set(scratch.fullStamp);
  scratch.capacity = bigger.capacity;
  scratch.sums = bigger.sums;
  scratch.sumStamp = bigger.sumStamp;
  scratch.currentStamp = bigger.currentStamp;
  scratch.fullStamp = bigger.fullStamp;
}

/**
 * Makes room for `count` more stamps, clearing the arrays when the counter would wrap. Reserved for a
 * whole call before it starts, so no clearing ever happens between a call's stamps.
 */
function reserveStamps(scratch: Scratch, count: number): void {
  if (scratch.stamp + count < 0xffffffff) return;
  scratch.sumStamp.fill(0);
  scratch.currentStamp.fill(0);
  scratch.fullStamp.fill(0);
  scratch.stamp = 0;
}

const nextStamp = (scratch: Scratch): number => ++scratch.stamp;

/** Distinct customers of one week, by platform slot. */
interface WeekUsers {
  readonly week: number;
  /** The stamp of this week's cells in the scratch. */
  readonly stamp: number;
  /** Seeded customers of the window's rows in this week. */
  readonly current: Int32Array;
  /** Seeded customers of all of this week's rows (the window's and, for the first weeks, those before it). */
  readonly full: Int32Array;
  /** Other customers (userIds) of the window's rows in this week. */
  readonly currentKeyed: (Set<number | string> | undefined)[];
  /** Other customers of the rows of this week before the window's start. */
  readonly beforeKeyed: (Set<number | string> | undefined)[];
}

function addTo(sets: (Set<number | string> | undefined)[], slot: number, who: number | string): void {
  let set = sets[slot];
  if (set === undefined) {
    set = new Set();
    sets[slot] = set;
  }
  set.add(who);
}

/** Distinct customers of a platform over a whole week: those of the window and those before it. */
function weekSize(entry: WeekUsers | undefined, slot: number): number {
  if (entry === undefined) return 0;
  const seeded = entry.full[slot] ?? 0;
  const current = entry.currentKeyed[slot];
  const before = entry.beforeKeyed[slot];
  if (before === undefined) return seeded + (current?.size ?? 0);
  if (current === undefined) return seeded + before.size;
  let n = before.size;
  for (const who of current) if (!before.has(who)) n++;
  return seeded + n;
}

export function engagement(org: OrgData, window: Window, platforms: ReadonlySet<string> | undefined) {
  const t = org.table;
  // Platforms by their number in the table; one more slot for a number outside PLATFORMS (named '').
  const names = [...PLATFORMS, ''];
  const other = PLATFORMS.length;
  const included = names.map((name) => platforms === undefined || platforms.has(name));
  const scratch = scratchOf(org);
  // One stamp for the call and one per week the scan can meet (the week before the window's first, to
  // the window's last).
  const weeksSpanned = Math.floor((window.to - weekStart(window.from)) / WEEK) + 3;
  reserveStamps(scratch, Math.max(3, weeksSpanned));
  const call = nextStamp(scratch);
  /** Seeded customers with messages summed in this call, by slot. */
  const touched: number[][] = names.map(() => []);
  const keyedSums: (Map<number | string, number> | undefined)[] = [];
  const weeks: WeekUsers[] = [];
  const funnel = { conversations: 0, responded: 0, assigned: 0, closed: 0, rated: 0 };
  // One pass from the calendar week before the window's first week: the growth of a week compares it
  // with the whole previous week, which for the first weeks begins before the window does.
  const index = org.byCreated;
  const lo = index.lowerBound(weekStart(window.from) - WEEK);
  const start = index.lowerBound(window.from);
  const hi = index.upperBound(window.to);
  let entry: WeekUsers | undefined;
  let weekEnd = Number.NEGATIVE_INFINITY;
  for (let pos = lo; pos < hi; pos++) {
    const row = index.rowAt(pos);
    const raw = t.platform[row] ?? 0;
    const slot = raw < other ? raw : other;
    if (!included[slot]) continue;
    const created = t.createdAt[row] ?? 0;
    // Rows come oldest first, so a week starts only where the previous one ended.
    if (entry === undefined || created >= weekEnd) {
      const week = weekStart(created);
      entry = {
        week,
        stamp: nextStamp(scratch),
        current: new Int32Array(SLOTS),
        full: new Int32Array(SLOTS),
        currentKeyed: [],
        beforeKeyed: [],
      };
      weeks.push(entry);
      weekEnd = week + WEEK;
    }
    const inWindow = pos >= start;
    const customer = t.hasFlag(row, FLAG_INGESTED) ? -1 : (t.customer[row] ?? 0);
    if (customer >= 0 && customer < MAX_SCRATCH_CUSTOMERS) {
      if (customer >= scratch.capacity) grow(scratch, customer);
      const cell = customer * SLOTS + slot;
      if (scratch.fullStamp[cell] !== entry.stamp) {
        scratch.fullStamp[cell] = entry.stamp;
        entry.full[slot] = (entry.full[slot] ?? 0) + 1;
      }
      if (!inWindow) continue;
      if (scratch.currentStamp[cell] !== entry.stamp) {
        scratch.currentStamp[cell] = entry.stamp;
        entry.current[slot] = (entry.current[slot] ?? 0) + 1;
      }
      if (scratch.sumStamp[cell] !== call) {
        scratch.sumStamp[cell] = call;
        scratch.sums[cell] = 0;
        touched[slot]?.push(customer);
      }
      scratch.sums[cell] = (scratch.sums[cell] ?? 0) + (t.msgUser[row] ?? 0);
    } else {
      const who = customerKey(org, row);
      if (!inWindow) {
        addTo(entry.beforeKeyed, slot, who);
        continue;
      }
      addTo(entry.currentKeyed, slot, who);
      let users = keyedSums[slot];
      if (users === undefined) {
        users = new Map();
        keyedSums[slot] = users;
      }
      users.set(who, (users.get(who) ?? 0) + (t.msgUser[row] ?? 0));
    }
    funnel.conversations++;
    if (t.responded(row)) funnel.responded++;
    if ((t.assignee[row] ?? -1) >= 0) funnel.assigned++;
    if (t.status[row] === 3) funnel.closed++;
    if ((t.csat[row] ?? -1) > 0) funnel.rated++;
  }
  const engagementPercentiles = names
    .flatMap((platform, slot) => {
      const seeded = touched[slot] ?? [];
      const keyed = keyedSums[slot];
      return seeded.length === 0 && keyed === undefined ? [] : [{ platform, slot, seeded, keyed }];
    })
    .sort((a, b) => (a.platform < b.platform ? -1 : 1))
    .map(({ platform, slot, seeded, keyed }) => {
      // Sorted natively: a comparator function per comparison is what the native sort avoids.
      const counts = new Float64Array(seeded.length + (keyed?.size ?? 0));
      let i = 0;
      for (const customer of seeded) counts[i++] = scratch.sums[customer * SLOTS + slot] ?? 0;
      if (keyed !== undefined) for (const n of keyed.values()) counts[i++] = n;
      counts.sort();
      return {
        platform,
        p25MessagesPerUser: percentile(counts, 0.25),
        medianMessagesPerUser: percentile(counts, 0.5),
        p75MessagesPerUser: percentile(counts, 0.75),
      };
    });
  const byWeek = new Map(weeks.map((w) => [w.week, w]));
  const growthTrends: {
    week: string;
    platform: string;
    currentWeekUsers: number;
    previousWeekUsers: number;
    growthPercentage: number;
  }[] = [];
  for (const { week, current, currentKeyed } of weeks) {
    let text: string | undefined;
    const previousWeek = byWeek.get(week - WEEK);
    for (let slot = 0; slot < SLOTS; slot++) {
      const count = (current[slot] ?? 0) + (currentKeyed[slot]?.size ?? 0);
      if (count === 0) continue;
      text ??= new Date(week).toISOString();
      const previous = weekSize(previousWeek, slot);
      growthTrends.push({
        week: text,
        platform: names[slot] ?? '',
        currentWeekUsers: count,
        previousWeekUsers: previous,
        growthPercentage:
          previous === 0 ? (count > 0 ? 100 : 0) : round2(((count - previous) / previous) * 100),
      });
    }
  }
  growthTrends.sort((a, b) =>
    a.week < b.week ? -1 : a.week > b.week ? 1 : a.platform < b.platform ? -1 : 1,
  );
  const pct = (n: number): number =>
    funnel.conversations === 0 ? 0 : round2((n / funnel.conversations) * 100);
  const conversionFunnel = (Object.keys(funnel) as (keyof typeof funnel)[]).map((stage) => ({
    stage,
    count: funnel[stage],
    percentage: pct(funnel[stage]),
  }));
  return { engagementPercentiles, growthTrends, conversionFunnel };
}
