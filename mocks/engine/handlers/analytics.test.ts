import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../../../src/contract/index.ts';
import { call, contractIssues, TEST_NOW, testState } from '../../../test/support/engine-handlers.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';
import { getAgent } from './getAgent.ts';
import { getEngagement } from './getEngagement.ts';
import { getSentimentByDay } from './getSentimentByDay.ts';
import { getSentimentByTag } from './getSentimentByTag.ts';
import { getTagAnalytics } from './getTagAnalytics.ts';
import { getTagVolume } from './getTagVolume.ts';
import { listActions } from './listActions.ts';
import { listAgents } from './listAgents.ts';
import { listQueues } from './listQueues.ts';

const state = testState({ actions: 3000 });
const DAY = 86_400_000;

async function get<T>(
  op: OperationId,
  handler: Handler<EngineState>,
  query: Record<string, unknown> = {},
  pathParams = {},
): Promise<T> {
  const result = await call(state, op, handler, { query, pathParams });
  expect(contractIssues(op, result)).toEqual([]);
  expect(result.status).toBe(200);
  return (result.body as { data: T }).data;
}

/** The action list's count for the same window and a DSL filter (no responded default). */
async function listCount(window: Record<string, unknown>, fullFilter: string): Promise<number> {
  const result = await call(state, 'listActions', listActions, {
    query: { ...window, fullFilter, pageSize: 1 },
  });
  return (result.body as { totalRecords: number }).totalRecords;
}

interface TagData {
  summary: { totalTags: number; totalTagGroups: number; totalTaggedRecords: number; totalActions: number };
  tagBreakdown: { tagId: string; tagName: string; count: number; percentage: number }[];
  volumeByTag: { tagId: string; total: number; responded: number; notResponded: number }[];
  pagination: { total: number; limit: number; offset: number; hasMore: boolean };
}
type Metrics = Record<string, number>;

const windowArb = fc
  .tuple(fc.integer({ min: 0, max: 95 }), fc.integer({ min: 0, max: 30 }))
  .map(([back, length]) => ({
    from: new Date(TEST_NOW - back * DAY).toISOString(),
    to: new Date(TEST_NOW - Math.max(0, back - length) * DAY).toISOString(),
  }));

describe('analytics add up to the actions the list returns', () => {
  it('TAGS-ENVELOPE: summary.totalActions is the window size; a tag count is the number of window actions carrying it', async () => {
    await fc.assert(
      fc.asyncProperty(windowArb, async (window) => {
        const data = await get<TagData>('getTagAnalytics', getTagAnalytics, { ...window, limit: 100 });
        expect(data.summary.totalActions).toBe(await listCount(window, ''));
        for (const tag of data.tagBreakdown.slice(0, 4)) {
          expect(tag.count).toBe(await listCount(window, `tag=${tag.tagId}`));
        }
        const responded = await get<TagData>('getTagAnalytics', getTagAnalytics, {
          ...window,
          respondedOnly: true,
        });
        expect(responded.summary.totalActions).toBe(await listCount(window, 'responded=true'));
        for (const v of data.volumeByTag) expect(v.responded + v.notResponded).toBe(v.total);
      }),
      { numRuns: 8 },
    );
  });

  it('TAGS-SEARCH-TEXT / SCHEMA-PAGINATION: search restricts tags; limit/offset page them with hasMore', async () => {
    const all = await get<TagData>('getTagAnalytics', getTagAnalytics, { limit: 100 });
    const page = await get<TagData>('getTagAnalytics', getTagAnalytics, { limit: 3, offset: 2 });
    expect(page.tagBreakdown.map((t) => t.tagId)).toEqual(all.tagBreakdown.slice(2, 5).map((t) => t.tagId));
    expect(page.pagination).toEqual({
      total: all.pagination.total,
      limit: 3,
      offset: 2,
      hasMore: all.pagination.total > 5,
    });
    const defaults = await get<TagData>('getTagAnalytics', getTagAnalytics);
    expect(defaults.pagination.limit).toBe(50);
    const found = await get<TagData>('getTagAnalytics', getTagAnalytics, { search: 'bill', limit: 100 });
    expect(found.tagBreakdown.map((t) => t.tagName)).toEqual(['Billing']);
    const bad = await call(state, 'getTagAnalytics', getTagAnalytics, { query: { limit: 2.5 } });
    expect(bad.status).toBe(400);
  });

  it('VOLUME-ENVELOPE: day rows of the chosen tags sum to the tag counts', async () => {
    const tags = await get<TagData>('getTagAnalytics', getTagAnalytics);
    const volume = await get<{ data: { tagId: string; count: number }[]; tags: string[] }>(
      'getTagVolume',
      getTagVolume,
      { topTagsLimit: 3 },
    );
    expect(volume.tags).toEqual(tags.tagBreakdown.slice(0, 3).map((t) => t.tagName));
    for (const tag of tags.tagBreakdown.slice(0, 3)) {
      const sum = volume.data.filter((r) => r.tagId === tag.tagId).reduce((n, r) => n + r.count, 0);
      expect(sum).toBe(tag.count);
    }
    const picked = await get<{ data: { tagId: string }[]; tags: string[] }>('getTagVolume', getTagVolume, {
      tagIds: '1003, 0042,unknown',
    });
    expect(picked.tags).toEqual(['Bug report', 'Refund']);
    expect(new Set(picked.data.map((r) => r.tagId))).toEqual(new Set(['1003', '0042']));
  });

  it('SENT-DAY-ENVELOPE / SENT-TAG-ENVELOPE: label counts add up to the list counts', async () => {
    const window = { from: new Date(TEST_NOW - 20 * DAY).toISOString() };
    const days = await get<Record<string, number | string>[]>('getSentimentByDay', getSentimentByDay, window);
    for (const label of ['Very Negative', 'Negative', 'Neutral', 'Positive']) {
      const sum = days.reduce((n, r) => n + Number(r[label]), 0);
      expect(sum).toBe(await listCount(window, `sentiment=${label}`));
    }
    const byTag = await get<{ tagName: string; totalMentions: number; negative: number }[]>(
      'getSentimentByTag',
      getSentimentByTag,
      window,
    );
    const billing = byTag.find((r) => r.tagName === 'Billing');
    expect(billing?.totalMentions).toBe(await listCount(window, 'tag=Billing'));
    expect(billing?.negative).toBe(await listCount(window, 'tag=Billing+sentiment=Negative'));
  });

  it('AGENT-LIST-ENVELOPE / QUEUE-LIST-ENVELOPE / QUEUE-NULL-QUEUEID-NO-QUEUE: per agent and per queue counts add up', async () => {
    const window = { from: new Date(TEST_NOW - 30 * DAY).toISOString() };
    const total = await listCount(window, '');
    const agents = await get<{ agentId: string; metrics: Metrics; workload: Metrics }[]>(
      'listAgents',
      listAgents,
      window,
    );
    const assigned = agents.reduce((n, a) => n + (a.metrics['totalActions'] ?? 0), 0);
    expect(assigned + (await listCount(window, 'assignee=null'))).toBe(total);
    const first = agents[0];
    if (!first) throw new Error('no agents');
    expect(first.metrics['totalActions']).toBe(await listCount(window, `assigneeUserId=${first.agentId}`));
    expect(first.metrics['totalActionsWithResponse']).toBe(
      await listCount(window, `assigneeUserId=${first.agentId}+responded=true`),
    );
    const w = first.workload;
    expect((w['active'] ?? 0) + (w['closed'] ?? 0) + (w['cancelled'] ?? 0)).toBe(
      first.metrics['totalActions'],
    );
    const queues = await get<{ queueId: string | null; metrics: Metrics }[]>(
      'listQueues',
      listQueues,
      window,
    );
    expect(queues.reduce((n, q) => n + (q.metrics['totalActions'] ?? 0), 0)).toBe(total);
    const none = queues.find((q) => q.queueId === null);
    expect(none?.metrics['totalActions']).toBe(await listCount(window, 'queue=null'));
  });

  it('AGENT-LIST-WINDOW-DATE-RULES: agents read from/to like the list: a date-only to is midnight UTC, inclusive', async () => {
    const total = async (window: Record<string, string>): Promise<number> => {
      const agents = await get<{ metrics: Metrics }[]>('listAgents', listAgents, window);
      return agents.reduce((sum, agent) => sum + (agent.metrics['totalActions'] ?? 0), 0);
    };
    const day = new Date(TEST_NOW - 3 * DAY).toISOString().slice(0, 10);
    const weekBefore = new Date(Date.parse(day) - 7 * DAY).toISOString().slice(0, 10);
    const dateOnly = await total({ from: weekBefore, to: day });
    expect(dateOnly).toBe(await total({ from: `${weekBefore}T00:00:00.000Z`, to: `${day}T00:00:00.000Z` }));
    expect(dateOnly).toBeLessThan(await total({ from: weekBefore, to: `${day}T23:59:59.999Z` }));
  });

  it('AGENT-DETAIL-ID-FROM-LIST / AGENT-DETAIL-UNKNOWN-404: every listed agent reads back; an unknown one is 404', async () => {
    const agents = await get<{ agentId: string; metrics: Metrics }[]>('listAgents', listAgents);
    for (const agent of agents) {
      const detail = await get<{ aggregatedMetrics: Metrics; metrics: Metrics[] }>(
        'getAgent',
        getAgent,
        {},
        { id: agent.agentId },
      );
      expect(detail.aggregatedMetrics['totalActions']).toBe(agent.metrics['totalActions']);
      expect(detail.metrics.reduce((n, d) => n + (d['totalActions'] ?? 0), 0)).toBe(
        agent.metrics['totalActions'],
      );
    }
    const unknown = await call(state, 'getAgent', getAgent, { pathParams: { id: '417' } });
    expect(unknown.status).toBe(404);
    const otherOrg = await call(state, 'getAgent', getAgent, { pathParams: { id: '000982' } });
    expect(otherOrg.status).toBe(404);
  });

  it('ENG-PLATFORMS-FILTER: rows carry only the listed platforms; the funnel starts at the window size', async () => {
    const window = { from: new Date(TEST_NOW - 21 * DAY).toISOString() };
    type Eng = {
      engagementPercentiles: { platform: string }[];
      growthTrends: { platform: string; week: string }[];
      conversionFunnel: { stage: string; count: number }[];
    };
    const all = await get<Eng>('getEngagement', getEngagement, window);
    expect(all.conversionFunnel[0]).toMatchObject({
      stage: 'conversations',
      count: await listCount(window, ''),
    });
    const some = await get<Eng>('getEngagement', getEngagement, { ...window, platforms: 'DISCORD,TWITTER' });
    expect(new Set(some.engagementPercentiles.map((r) => r.platform))).toEqual(
      new Set(['DISCORD', 'TWITTER']),
    );
    expect(some.growthTrends.every((r) => r.platform === 'DISCORD' || r.platform === 'TWITTER')).toBe(true);
    for (const row of some.growthTrends) expect(new Date(row.week).getUTCDay()).toBe(1);
    const counted =
      (await listCount(window, 'platform=DISCORD')) + (await listCount(window, 'platform=TWITTER'));
    expect(some.conversionFunnel[0]?.count).toBe(counted);
  });

  it('ORG-DATA-SCOPED: another organization sees its own agents and tags only', async () => {
    const result = await call(state, 'listAgents', listAgents, { org: 'org_globex' });
    const ids = (result.body as { data: { agentId: string }[] }).data.map((a) => a.agentId);
    expect(ids).toContain('000982');
    expect(ids).not.toContain('000417');
  });
});
