/** `createHandlers({ data })`: an app under MSW sees exactly the scenario a test states. */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { agentSays, scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import { createHandlers } from '../mocks/msw/index.ts';
import { at, list } from './data-support.ts';

const BASE = 'https://api.data.test';
const data = scenario()
  .organization('org_app')
  .key({ key: 'app_reporting_key', profile: 'reporting' })
  .agent({ userId: '000982', name: 'Dee' })
  .action({
    actionId: 'esc_1',
    status: 'ESCALATED',
    assignee: '000982',
    messages: [
      userSays('Refund please', '-3h'),
      agentSays('Checking', '-2h'),
      agentSays('Asked finance', '-90m'),
      agentSays('Escalated', '-1h'),
    ],
  })
  .moderationCase({ caseId: 'mc_bad', analysisStatus: 'failed' })
  .build();
const mock = createHandlers({
  baseUrl: BASE,
  data,
  selfCheck: true,
  clock: new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') }),
});
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const read = async (path: string): Promise<unknown> =>
  (await fetch(`${BASE}${path}`, { headers: { 'x-api-key': 'app_reporting_key' } })).json();

describe('createHandlers({ data })', () => {
  it('serves an escalated action with three agent replies and a failed moderation case', async () => {
    const page = await read('/v0/action/list');
    expect(
      list(page, 'data').map((a) => [at(a, 'actionId'), at(a, 'status'), at(a, 'totalAgentMessages')]),
    ).toEqual([['esc_1', 'ESCALATED', 3]]);
    expect(at(await read('/v0/moderation/cases/mc_bad'), 'analysisStatus')).toBe('failed');
    expect(mock.engine.selfCheckFailures).toEqual([]);
  });

  it('admin.mergeData / exportData / replaceData work without HTTP; a refused file lists its problems', async () => {
    const refused = mock.admin.mergeData({
      version: 1,
      organizations: [],
      actions: [{ organizationId: 'org_none' }],
    });
    expect(refused.ok).toBe(false);
    const more = scenario()
      .organization('org_app')
      .action({ actionId: 'new_1', messages: [userSays('Hi', '-10m'), agentSays('Hello', '-5m')] })
      .build();
    expect(mock.admin.mergeData(more)).toEqual({ ok: true, organizations: 1, actions: 1 });
    const page = await read('/v0/action/list');
    expect(list(page, 'data').map((a) => at(a, 'actionId'))).toEqual(['new_1', 'esc_1']);
    expect(mock.admin.exportData().actions?.map((a) => a.actionId)).toEqual(['esc_1', 'new_1']);
    expect(mock.admin.replaceData(data)).toMatchObject({ ok: true });
    expect(list(await read('/v0/action/list'), 'data').map((a) => at(a, 'actionId'))).toEqual(['esc_1']);
  });
});
