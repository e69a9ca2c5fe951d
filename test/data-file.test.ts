import { describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { agentSays, scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import type { DataFile, DataFileAction } from '../mocks/engine/data-file/types.ts';
import { DataFileError } from '../mocks/engine/data-file/validate.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { at, get, list } from './data-support.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const clock = (): MockClock => new MockClock({ start: START });
const BIG = '9007199254740993123';
const PADDED = '000417';

/** Two agents, two queues, three actions with known figures. */
function demo(): DataFile {
  return scenario()
    .organization('org_demo', { name: 'Demo Inc.', moderationMode: 'ad_policy' })
    .key({ key: 'demo_reporting_key_1', profile: 'reporting' })
    .key({ key: 'demo_write_key_0001', profile: 'read_write' })
    .agent({ userId: BIG, name: 'Ada' })
    .agent({ userId: PADDED, name: 'Bo' })
    .queue({ id: 'q_vip', name: 'VIP' })
    .queue({ id: '000123', name: 'Escalations' })
    .tag({ id: 't_billing', value: 'Billing', group: 'Topic' })
    .tag({ id: 't_bug', value: 'Bug', group: 'Topic' })
    .customField({ name: 'order_number', type: 'text' })
    .customField({ name: 'priority', type: 'single_select', options: ['low', 'high'] })
    .action({
      actionId: '1234567890123456789012',
      status: 'ESCALATED',
      platform: 'DISCORD',
      queue: '000123',
      assignee: BIG,
      tags: ['t_billing', 't_bug'],
      sentiment: 'Negative',
      sentimentScore: -0.5,
      csatScore: '2',
      user: { userId: ' usr ñandú 01 ', name: 'Ñandú' },
      customFields: { order_number: '00042' },
      messages: [
        userSays('My invoice is wrong', '-2d'),
        agentSays('Looking into it', '-2d', { timestamp: '-1d23h' }),
        agentSays('Escalated to billing', '-1d22h'),
        agentSays('Still on it', '-1d21h'),
      ],
    })
    .action({
      actionId: 'a2',
      status: 'CLOSED',
      queue: 'q_vip',
      assignee: BIG,
      tags: ['t_billing'],
      sentiment: 'Positive',
      sentimentScore: 0.5,
      csatScore: '4',
      claimTime: '-3h',
      closeTime: '-1h',
      messages: [userSays('Thanks', '-4h'), agentSays('Welcome', '-3h30m')],
    })
    .action({ actionId: 'a3', status: 'OPEN', assignee: PADDED, messages: [userSays('Hello?', '-30m')] })
    .moderationCase({
      caseId: 'mc_failed',
      analysisStatus: 'failed',
      failureCode: 'LANDING_PAGE_UNAVAILABLE',
    })
    .moderationCase({ caseId: 'mc_done', analysisStatus: 'completed' })
    .moderationCase({ caseId: 'mc_wait', analysisStatus: 'running' })
    .build();
}

describe('data files: user-defined data in the mock', () => {
  it('serves loaded actions with ids byte for byte and the fields of spec 2.2', async () => {
    const engine = createEngine({ data: demo(), clock: clock(), selfCheck: true });
    const detail = await get(engine, '/v0/action/1234567890123456789012', 'demo_reporting_key_1');
    expect(detail.status).toBe(200);
    expect(at(detail.body, 'actionId')).toBe('1234567890123456789012');
    expect(at(detail.body, 'assignee', 'userId')).toBe(BIG);
    expect(at(detail.body, 'user', 'userId')).toBe(' usr ñandú 01 ');
    expect(at(detail.body, 'queue')).toBe('Escalations');
    expect(at(detail.body, 'status')).toBe('ESCALATED');
    expect(at(detail.body, 'tags')).toEqual([
      { value: 'Billing', group: 'Topic' },
      { value: 'Bug', group: 'Topic' },
    ]);
    expect(at(detail.body, 'totalAgentMessages')).toBe(3);
    expect(at(detail.body, 'createdAt')).toBe(new Date(START - 2 * 86_400_000).toISOString());
    expect(at(detail.body, 'initialResponseTime')).toBe(
      new Date(START - (2 * 24 - 1) * 3_600_000).toISOString(),
    );
    expect(at(detail.body, 'firstResponseTime')).toBe('PT1H');
    expect(at(detail.body, 'customFields')).toEqual({ order_number: '00042' });
    const fields = await get(
      engine,
      '/v0/actions/1234567890123456789012/custom-fields',
      'demo_reporting_key_1',
    );
    expect(list(fields.body, 'fields')[0]).toEqual({
      fieldName: 'order_number',
      displayName: 'order_number',
      fieldType: 'text',
      value: '00042',
      provenance: { origin: 'data' },
    });
    expect(engine.selfCheckFailures).toEqual([]);
    expect(engine.unexpectedErrors).toEqual([]);
  });

  it("counts an action's stated scores in the averages no action field carries, and an action without one in none", async () => {
    const file = scenario()
      .organization('org_scores')
      .key({ key: 'scores_reporting_key', profile: 'reporting' })
      .agent({ userId: BIG, name: 'Ada' })
      .tag({ id: 't1', value: 'One', group: 'G' })
      .action({
        actionId: 's1',
        assignee: BIG,
        tags: ['t1'],
        scores: {
          resolutionQuality: 4,
          sentimentChange: 0.5,
          rubricScore: 80,
          actionability: 0.2,
          relevance: 0.9,
        },
        messages: [userSays('Hi', '-2h'), agentSays('Hello', '-1h')],
      })
      .action({
        actionId: 's2',
        assignee: BIG,
        tags: ['t1'],
        scores: { resolutionQuality: 2, actionability: 0.6 },
        messages: [userSays('Hi', '-3h'), agentSays('Hello', '-2h')],
      })
      .action({
        actionId: 's3',
        assignee: BIG,
        tags: ['t1'],
        messages: [userSays('Hi', '-4h'), agentSays('Yo', '-3h')],
      })
      .build();
    const engine = createEngine({ data: file, clock: clock(), selfCheck: true });
    const agents = await get(engine, '/v0/agents', 'scores_reporting_key');
    expect(at(list(agents.body, 'data')[0], 'metrics')).toMatchObject({
      totalActions: 3,
      averageResolutionQuality: 3, // (4 + 2) / 2: s3 states none
      averageSentimentChange: 0.5, // s1 only
      averageRubricScore: 80,
    });
    const tags = await get(engine, '/v0/analytics/tags', 'scores_reporting_key');
    expect(at(tags.body, 'data', 'volumeByTag', 0)).toMatchObject({
      tagId: 't1',
      total: 3,
      avgActionability: 0.4, // (0.2 + 0.6) / 2
      avgRelevance: 0.9,
    });
    expect(engine.selfCheckFailures).toEqual([]);
    // Out of range is refused by the schema, by pointer.
    const bad: DataFile = {
      ...file,
      actions: [{ ...(file.actions?.[0] as DataFileAction), scores: { rubricScore: 101 } }],
    };
    expect(() => createEngine({ data: bad, clock: clock() })).toThrow(/\/actions\/0\/scores\/rubricScore/);
  });

  it('derives analytics, agent and queue metrics from the loaded actions (checked by hand)', async () => {
    const engine = createEngine({ data: demo(), clock: clock(), selfCheck: true });
    const key = 'demo_reporting_key_1';
    const page = await get(engine, '/v0/action/list', key);
    // Default: the past seven days, responded only: a3 has no agent message.
    expect(list(page.body, 'data').map((a) => at(a, 'actionId'))).toEqual(['a2', '1234567890123456789012']);
    const agents = await get(engine, '/v0/agents', key);
    const ada = list(agents.body, 'data').find((a) => at(a, 'agentId') === BIG);
    expect(at(ada, 'metrics')).toMatchObject({
      totalActions: 2,
      totalActionsWithResponse: 2,
      totalMessages: 6,
      averageCsat: 3, // (2 + 4) / 2
      averageResponseTime: 2700, // (3600 + 1800) / 2 seconds
      averageHandleTime: 7200, // claim -3h to close -1h
    });
    expect(at(ada, 'workload')).toEqual({ active: 1, closed: 1, cancelled: 0 });
    const bo = list(agents.body, 'data').find((a) => at(a, 'agentId') === PADDED);
    expect(at(bo, 'workload')).toEqual({ active: 1, closed: 0, cancelled: 0 });
    const queues = await get(engine, '/v0/queues', key);
    expect(
      list(queues.body, 'data').map((q) => [at(q, 'queueId'), at(q, 'metrics', 'totalActions')]),
    ).toEqual([
      ['q_vip', 1],
      ['000123', 1],
      [null, 1],
    ]);
    const tags = await get(engine, '/v0/analytics/tags', key);
    expect(at(tags.body, 'data', 'summary')).toEqual({
      totalTags: 2,
      totalTagGroups: 1,
      totalTaggedRecords: 2,
      totalActions: 3,
    });
    expect(at(tags.body, 'data', 'tagBreakdown', 0)).toMatchObject({
      tagId: 't_billing',
      count: 2,
      percentage: 66.67,
    });
    const byDay = await get(engine, '/v0/analytics/sentiment', key);
    const total = list(byDay.body, 'data').reduce<number>(
      (n, row) => n + Number(at(row, 'Negative') ?? 0) + Number(at(row, 'Positive') ?? 0),
      0,
    );
    expect(total).toBe(2);
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('serves moderation cases in the analysis state the file gives, with their decision', async () => {
    const engine = createEngine({ data: demo(), clock: clock(), selfCheck: true });
    const failed = await get(engine, '/v0/moderation/cases/mc_failed', 'demo_reporting_key_1');
    expect(failed.body).toMatchObject({
      caseId: 'mc_failed',
      analysisStatus: 'failed',
      failureCode: 'LANDING_PAGE_UNAVAILABLE',
    });
    const done = await get(engine, '/v0/moderation/cases/mc_done', 'demo_reporting_key_1');
    expect(at(done.body, 'analysisStatus')).toBe('completed');
    expect(at(done.body, 'decision', 'disposition')).toBe('approve');
    engine.clock.advance(3_600_000);
    const running = await get(engine, '/v0/moderation/cases/mc_wait', 'demo_reporting_key_1');
    expect(at(running.body, 'analysisStatus')).toBe('running');
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('alone, replaces the generated set; the loaded keys are the keys', () => {
    const engine = createEngine({ data: demo(), clock: clock() });
    expect(engine.admin.listOrganizations().map((o) => o.id)).toEqual(['org_demo']);
    expect(engine.admin.listKeys().map((k) => k.key)).toEqual([
      'demo_reporting_key_1',
      'demo_write_key_0001',
    ]);
  });

  it('gives an organization without keys one active key of every profile', () => {
    const engine = createEngine({
      data: scenario().organization('org_nokeys').action().build(),
      clock: clock(),
    });
    expect(engine.admin.listKeys().map((k) => [k.organizationId, k.profile, k.status])).toEqual([
      ['org_nokeys', 'reporting', 'active'],
      ['org_nokeys', 'write', 'active'],
      ['org_nokeys', 'read_write', 'active'],
      ['org_nokeys', 'import', 'active'],
    ]);
  });

  it('with seed or actions, lies over the generated set and wins on an id clash', async () => {
    const base = createEngine({ seed: 42, actions: 50, clock: clock() });
    const acmeKey =
      base.admin.listKeys('org_acme').find((k) => k.profile === 'reporting' && k.status === 'active')?.key ??
      '';
    const seededId = String(
      at((await get(base, '/v0/action/list?fullFilter=', acmeKey)).body, 'data', 0, 'actionId'),
    );
    const file = scenario()
      .organization('org_acme')
      .action({
        actionId: seededId,
        title: 'From the file',
        messages: [userSays('x', '-1h'), agentSays('y', '-30m')],
      })
      .build();
    const engine = createEngine({ seed: 42, actions: 50, clock: clock(), data: file });
    const detail = await get(engine, `/v0/action/${encodeURIComponent(seededId)}`, acmeKey);
    expect(at(detail.body, 'actionTitle')).toBe('From the file');
    const all = await get(engine, '/v0/action/list?fullFilter=&from=2026-08-01&pageSize=500', acmeKey);
    const same = list(all.body, 'data').filter((a) => at(a, 'actionId') === seededId);
    expect(same).toHaveLength(1);
    const before = await get(base, '/v0/action/list?fullFilter=&from=2026-08-01&pageSize=500', acmeKey);
    expect(at(all.body, 'totalRecords')).toBe(at(before.body, 'totalRecords'));
    expect(engine.admin.listOrganizations().map((o) => o.id)).toEqual(['org_acme', 'org_globex']);
  });

  it('refuses a file with broken references as a whole, every problem by JSON pointer', () => {
    const file = demo();
    const bad = {
      ...file,
      keys: [
        ...(file.keys ?? []),
        { key: 'key_of_nobody_1', organizationId: 'org_nobody', profile: 'reporting' },
      ],
      actions: [...(file.actions ?? []), { ...(file.actions ?? [])[1], queue: 'q_unknown' }],
    } as DataFile;
    let caught: unknown;
    try {
      createEngine({ data: bad, clock: clock() });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DataFileError);
    const problems = (caught as DataFileError).problems.map((p) => p.pointer);
    expect(problems).toEqual(['/keys/2/organizationId', '/actions/3/actionId', '/actions/3/queue']);
  });

  it('refuses a file that breaks the schema, listing each problem', () => {
    const bad = {
      version: 1,
      organizations: [{ id: 'o', moderationMode: 'sometimes' }],
      actions: [
        { organizationId: 'o', actionId: 7, title: 't', platform: 'MYSPACE', createdAt: 'yesterday' },
      ],
    };
    let caught: unknown;
    try {
      createEngine({ data: bad as unknown as DataFile, clock: clock() });
    } catch (error) {
      caught = error;
    }
    const pointers = (caught as DataFileError).problems.map((p) => p.pointer).sort();
    expect(pointers).toEqual(
      [
        '/organizations/0/moderationMode',
        '/actions/0/actionId',
        '/actions/0/platform',
        '/actions/0/createdAt',
        '/actions/0/user',
      ].sort(),
    );
  });
});
