/**
 * The report functions of mocks/engine/records/reports.ts were rewritten for speed (one pass, numbered
 * platforms, counters in arrays). Their answers must not change by a byte: each is compared here with
 * the straightforward version it replaced (kept below as the reference), over random windows of every
 * organization, with ingested actions (customers keyed by userId, scores as loaded) mixed in.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolutionQualityOf, rubricScoreOf, sentimentChangeOf } from '../fixtures/generate/derive.ts';
import { FLAG_INGESTED, NULL_SCORE } from '../fixtures/generate/table.ts';
import { PLATFORMS } from '../fixtures/generate/types.ts';
import { createEngine, type Engine } from '../mocks/engine/index.ts';
import {
  dayOf,
  type Metrics,
  percentile,
  round2,
  type Workload,
  weekStart,
} from '../mocks/engine/records/analytics.ts';
import type { Window } from '../mocks/engine/records/dates.ts';
import type { ActionExtras, ActionScores } from '../mocks/engine/records/ingest-types.ts';
import { forEachInWindow } from '../mocks/engine/records/query.ts';
import { agentDetail, agentReport, engagement, queueReport } from '../mocks/engine/records/reports.ts';
import { type OrgData, orgData } from '../mocks/engine/records/state.ts';
import { keyOf } from './support/keys.ts';

const WEEK = 7 * 86_400_000;
const DAY = 86_400_000;

// ---- the reference: the versions before the rewrite, unchanged but for their names ----

class Mean {
  sum = 0;
  n = 0;
  add(x: number): void {
    this.sum += x;
    this.n++;
  }
  /** A figure a data file may leave out: an action without it counts in no average of it. */
  addDefined(x: number | undefined): void {
    if (x !== undefined) this.add(x);
  }
  /** The mean, rounded to two decimals; 0 when there is no value (the spec's metrics are all numbers). */
  value(): number {
    return this.n === 0 ? 0 : round2(this.sum / this.n);
  }
  /** The mean or null when there is no value (where the contract allows null). */
  valueOrNull(): number | null {
    return this.n === 0 ? null : round2(this.sum / this.n);
  }
}

/** Status index → workload bucket: OPEN, PENDING, ESCALATED are active; CLOSED closed; CANCELLED cancelled. */
const BUCKET = ['active', 'active', 'active', 'closed', 'cancelled'] as const;

/** Accumulates the metrics and workload of a set of rows. */
class ReferenceMetricsAccumulator {
  totalActions = 0;
  withResponse = 0;
  private messages = 0;
  private agentMessages = 0;
  private userMessages = 0;
  private readonly csat = new Mean();
  private readonly response = new Mean();
  private readonly handle = new Mean();
  private readonly estimated = new Mean();
  private readonly quality = new Mean();
  private readonly sentimentChange = new Mean();
  private readonly rubric = new Mean();
  private readonly sentiment = new Mean();
  private readonly buckets: Workload = { active: 0, closed: 0, cancelled: 0 };

  add(org: OrgData, row: number): void {
    const t = org.table;
    this.totalActions++;
    if (t.responded(row)) this.withResponse++;
    this.messages += t.msgTotal[row] ?? 0;
    this.agentMessages += t.msgAgent[row] ?? 0;
    this.userMessages += t.msgUser[row] ?? 0;
    const csat = t.csat[row] ?? -1;
    if (csat > 0) this.csat.add(csat);
    const response = t.responseSec[row] ?? -1;
    if (response >= 0) this.response.add(response);
    const close = t.closeSec[row] ?? -1;
    if (close >= 0) this.handle.add(close - Math.max(0, t.claimSec[row] ?? 0));
    const estimated = t.estimatedCsat[row] ?? -1;
    if (estimated >= 0) this.estimated.add(estimated / 100);
    const score = t.sentimentScore[row] ?? NULL_SCORE;
    if (score !== NULL_SCORE) this.sentiment.add(score / 1000);
    if (!t.hasFlag(row, FLAG_INGESTED)) {
      const seed = t.seed[row] ?? 0;
      this.quality.add(resolutionQualityOf(seed));
      this.sentimentChange.add(sentimentChangeOf(seed));
      this.rubric.add(rubricScoreOf(seed));
    } else {
      const scores = org.ingested.get(row)?.extras?.scores;
      if (scores !== undefined) {
        this.quality.addDefined(scores.resolutionQuality);
        this.sentimentChange.addDefined(scores.sentimentChange);
        this.rubric.addDefined(scores.rubricScore);
      }
    }
    const bucket = BUCKET[t.status[row] ?? 0] ?? 'active';
    this.buckets[bucket]++;
  }

  metrics(): Metrics {
    return {
      totalActions: this.totalActions,
      totalMessages: this.messages,
      totalAgentMessages: this.agentMessages,
      totalUserMessages: this.userMessages,
      averageCsat: this.csat.value(),
      averageResponseTime: this.response.value(),
      averageHandleTime: this.handle.value(),
      averageEstimatedCsat: this.estimated.value(),
      averageResolutionQuality: this.quality.value(),
      averageSentimentChange: this.sentimentChange.value(),
      averageRubricScore: this.rubric.value(),
    };
  }

  averageSentimentScore(): number {
    return this.sentiment.value();
  }

  workload(): Workload {
    return { ...this.buckets };
  }
}

function customerKey(org: OrgData, row: number): number | string {
  if (org.table.hasFlag(row, FLAG_INGESTED)) return `i:${org.ingested.get(row)?.user.userId ?? ''}`;
  return org.table.customer[row] ?? 0;
}

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

function referenceEngagement(org: OrgData, window: Window, platforms: ReadonlySet<string> | undefined) {
  const included = (row: number): boolean =>
    platforms === undefined || platforms.has(PLATFORMS[org.table.platform[row] ?? 0] ?? '');
  const perPlatform = new Map<string, Map<number | string, number>>();
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

function referenceAgentReport(org: OrgData, window: Window) {
  const accumulators = org.catalog.agents.map(() => new ReferenceMetricsAccumulator());
  forEachInWindow(org, window, false, (row) => {
    accumulators[org.table.assignee[row] ?? -1]?.add(org, row);
  });
  return org.catalog.agents.map((agent, i) => {
    const acc = accumulators[i] ?? new ReferenceMetricsAccumulator();
    return {
      agentId: agent.userId,
      metrics: { ...acc.metrics(), totalActionsWithResponse: acc.withResponse },
      workload: acc.workload(),
    };
  });
}

function referenceAgentDetail(org: OrgData, window: Window, agentIndex: number) {
  const total = new ReferenceMetricsAccumulator();
  const byDay = new Map<string, ReferenceMetricsAccumulator>();
  const byQueue = new Map<number, ReferenceMetricsAccumulator>();
  forEachInWindow(org, window, false, (row) => {
    if (org.table.assignee[row] !== agentIndex) return;
    total.add(org, row);
    const day = dayOf(org.table.createdAt[row] ?? 0);
    const dayAcc = byDay.get(day) ?? new ReferenceMetricsAccumulator();
    dayAcc.add(org, row);
    byDay.set(day, dayAcc);
    const queue = org.table.queue[row] ?? -1;
    const queueAcc = byQueue.get(queue) ?? new ReferenceMetricsAccumulator();
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

function referenceQueueReport(org: OrgData, window: Window) {
  const accumulators = org.catalog.queues.map(() => new ReferenceMetricsAccumulator());
  const none = new ReferenceMetricsAccumulator();
  forEachInWindow(org, window, false, (row) => {
    const acc = accumulators[org.table.queue[row] ?? -1] ?? none;
    acc.add(org, row);
  });
  const entry = (queueId: string | null, queueName: string | null, acc: ReferenceMetricsAccumulator) => ({
    queueId,
    queueName,
    metrics: { ...acc.metrics(), averageSentimentScore: acc.averageSentimentScore() },
    workload: acc.workload(),
  });
  const out = org.catalog.queues.map((q, i) =>
    entry(q.id, q.name, accumulators[i] ?? new ReferenceMetricsAccumulator()),
  );
  if (none.totalActions > 0) out.push(entry(null, null, none));
  return out;
}

// ---- the comparison ----

let engine: Engine;
let orgs: OrgData[];

/** Ingests records over the last ~40 days on every platform, a few authors each, some repeated. */
async function ingestSpread(e: Engine, organizationId: string): Promise<void> {
  const apiKey = keyOf(e.admin, organizationId, 'import');
  const now = e.clock.now();
  for (const [p, platform] of PLATFORMS.entries()) {
    const records = Array.from({ length: 40 }, (_, i) => ({
      externalId: `rw-${p}-${i}`,
      threadExternalId: `rw-${p}-t${i % 13}`,
      authorId: `author-${(i * 7) % 9}`,
      authorName: `Author ${(i * 7) % 9}`,
      title: `Record ${i}`,
      body: 'The zipper broke.',
      createdAt: new Date(now - ((i * 37 + p * 11) % 40) * DAY - i * 3_600_000).toISOString(),
      recordType: 'MESSAGE',
    }));
    const response = await e.handle(
      new Request('http://mock.test/v0/ingest/records', {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ platform, serverId: `rw-${p}`, serverName: `Server ${p}`, records }),
      }),
      { remoteAddress: '127.0.0.1' },
    );
    expect(response.status).toBe(202);
  }
}

beforeAll(async () => {
  engine = createEngine({ seed: 42, actions: 6000, clock: 'frozen', ingestion: { latency: 'instant' } });
  const ids = engine.admin.listOrganizations().map((o) => o.id);
  await ingestSpread(engine, ids[0] ?? '');
  orgs = ids.map((id) => orgData(engine.state.data, id));
  // Scores as a data file gives them, some figures left out: the accumulators skip what is absent.
  let n = 0;
  for (const org of orgs) {
    for (const entry of org.ingested.values()) {
      const k = n++;
      const scores: ActionScores = {
        ...(k % 2 === 0 ? { resolutionQuality: (k % 9) / 2 } : {}),
        ...(k % 3 === 0 ? {} : { sentimentChange: ((k % 7) - 3) / 3 }),
        ...(k % 5 === 0 ? {} : { rubricScore: k % 101 }),
      };
      if (k % 4 !== 3) (entry as { extras?: ActionExtras }).extras = { ...entry.extras, scores };
    }
  }
});

/** Windows around the data: empty, a day, the default week, long ones, with odd bounds. */
const windows = (): fc.Arbitrary<Window> =>
  fc
    .record({
      endDaysAgo: fc.integer({ min: -3, max: 120 }),
      lengthMs: fc.oneof(
        fc.constantFrom(0, 1, DAY, WEEK, WEEK - 1, 4 * WEEK),
        fc.integer({ min: 0, max: 70 * DAY }),
      ),
      jitter: fc.integer({ min: 0, max: DAY - 1 }),
    })
    .map(({ endDaysAgo, lengthMs, jitter }) => {
      const to = engine.clock.now() - endDaysAgo * DAY + jitter;
      return { from: to - lengthMs, to };
    });

const platformFilters = fc.option(
  fc.uniqueArray(fc.constantFrom(...PLATFORMS, 'NOT_A_PLATFORM'), { minLength: 1, maxLength: 3 }),
);

describe('the rewritten reports answer exactly what the straightforward ones did', () => {
  it('engagement, with and without a platform filter', () => {
    fc.assert(
      fc.property(fc.nat({ max: 100 }), windows(), platformFilters, (o, window, list) => {
        const org = orgs[o % orgs.length] as OrgData;
        const platforms = list === null ? undefined : new Set(list);
        expect(JSON.stringify(engagement(org, window, platforms))).toBe(
          JSON.stringify(referenceEngagement(org, window, platforms)),
        );
      }),
      { numRuns: 600 },
    );
  });

  it('agents, agent detail and queues', () => {
    fc.assert(
      fc.property(fc.nat({ max: 100 }), windows(), (o, window) => {
        const org = orgs[o % orgs.length] as OrgData;
        expect(JSON.stringify(agentReport(org, window))).toBe(
          JSON.stringify(referenceAgentReport(org, window)),
        );
        expect(JSON.stringify(queueReport(org, window))).toBe(
          JSON.stringify(referenceQueueReport(org, window)),
        );
        const agent = o % Math.max(1, org.catalog.agents.length);
        expect(JSON.stringify(agentDetail(org, window, agent))).toBe(
          JSON.stringify(referenceAgentDetail(org, window, agent)),
        );
      }),
      { numRuns: 600 },
    );
  });

  it('the comparison sees the cases it is about: ingested customers, several weeks, previous weeks', () => {
    const org = orgs[0] as OrgData;
    const to = engine.clock.now();
    const answer = referenceEngagement(org, { from: to - 4 * WEEK, to }, undefined);
    expect(answer.growthTrends.some((g) => g.previousWeekUsers > 0)).toBe(true);
    expect(new Set(answer.growthTrends.map((g) => g.week)).size).toBeGreaterThan(3);
    expect(answer.engagementPercentiles.length).toBe(PLATFORMS.length);
    let ingested = 0;
    forEachInWindow(org, { from: to - 4 * WEEK, to }, false, (row) => {
      if (org.table.hasFlag(row, FLAG_INGESTED)) ingested++;
    });
    expect(ingested).toBeGreaterThan(50);
  });

  it('weekStart is the Monday before or at its time, before 1970 too', () => {
    for (const iso of [
      '1969-12-28T12:00:00Z',
      '1969-12-29T00:00:00Z',
      '1970-01-01T00:00:00Z',
      '2026-12-06T23:59:59Z',
    ]) {
      const ms = Date.parse(iso);
      const week = weekStart(ms);
      expect(new Date(week).getUTCDay()).toBe(1);
      expect(week).toBeLessThanOrEqual(ms);
      expect(ms - week).toBeLessThan(WEEK);
    }
  });
});
