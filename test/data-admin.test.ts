import { describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { agentSays, scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import type { DataFile } from '../mocks/engine/data-file/types.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { admin, at, get, list } from './data-support.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const KEY = 'shop_read_write_key';

function shop(title = 'Where is my order?'): DataFile {
  return scenario()
    .organization('org_shop', { moderationMode: 'standard' })
    .key({ key: KEY, profile: 'read_write' })
    .agent({ userId: '18446744073709551615', name: 'Cy' })
    .queue({ id: '000077', name: 'Orders' })
    .customField({ name: 'order_number', type: 'text' })
    .action({
      actionId: '00400001198',
      title,
      queue: '000077',
      assignee: '18446744073709551615',
      messages: [userSays(title, '-2d'), agentSays('On its way', '-1d')],
    })
    .build();
}

const newEngine = (data: DataFile = shop()) =>
  createEngine({ data, clock: new MockClock({ start: START }), selfCheck: true });

async function patchOrderNumber(engine: ReturnType<typeof newEngine>, value: string): Promise<number> {
  const response = await engine.handle(
    new Request('http://mock.test/v0/actions/00400001198/custom-fields', {
      method: 'PATCH',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: [{ fieldName: 'order_number', value }] }),
    }),
  );
  return response.status;
}

describe('admin /__mock/data', () => {
  it('GET exports a state reached through the API; PUT of the export gives the same state back', async () => {
    const engine = newEngine();
    expect(await patchOrderNumber(engine, 'A-0001')).toBe(200);
    const exported = await admin(engine, 'GET', '/__mock/data');
    expect(exported.status).toBe(200);
    expect(at(exported.body, 'actions', 0, 'customFields')).toEqual({ order_number: 'A-0001' });

    const fresh = newEngine(scenario().organization('org_other').build());
    const put = await admin(fresh, 'PUT', '/__mock/data', exported.body);
    expect(put.status).toBe(200);
    const again = await admin(fresh, 'GET', '/__mock/data');
    expect(again.body).toEqual(exported.body);
    const detail = await get(fresh, '/v0/action/00400001198', KEY);
    expect(detail.body).toEqual((await get(engine, '/v0/action/00400001198', KEY)).body);
  });

  it('PUT refuses bad data with 422 and every problem; the running state is untouched', async () => {
    const engine = newEngine();
    const before = await admin(engine, 'GET', '/__mock/data');
    const bad = shop();
    const broken = {
      ...bad,
      actions: [{ ...bad.actions?.[0], queue: 'nope', assignee: 'nobody' }, { ...bad.actions?.[0] }],
    };
    const put = await admin(engine, 'PUT', '/__mock/data', broken);
    expect(put.status).toBe(422);
    expect(list(put.body, 'problems').map((p) => at(p, 'pointer'))).toEqual([
      '/actions/0/queue',
      '/actions/0/assignee',
      '/actions/1/actionId',
    ]);
    const post = await admin(engine, 'POST', '/__mock/data', { version: 2, organizations: [] });
    expect(post.status).toBe(422);
    expect(await admin(engine, 'GET', '/__mock/data')).toEqual(before);
  });

  it('POST merges into the running state (keeping what the API changed); reset returns to what was loaded', async () => {
    const engine = newEngine();
    expect(await patchOrderNumber(engine, 'kept')).toBe(200);
    const more = scenario()
      .organization('org_shop')
      .action({
        actionId: 'later',
        title: 'Second order',
        messages: [userSays('Hi', '-1h'), agentSays('Hello', '-30m')],
      })
      .build();
    const post = await admin(engine, 'POST', '/__mock/data', more);
    expect(post.status).toBe(200);
    const page = await get(engine, '/v0/action/list', KEY);
    expect(list(page.body, 'data').map((a) => at(a, 'actionId'))).toEqual(['later', '00400001198']);
    expect(at(page.body, 'data', 1, 'customFields')).toEqual({ order_number: 'kept' });

    const reset = await admin(engine, 'POST', '/__mock/reset');
    expect(reset.status).toBe(200);
    const after = await get(engine, '/v0/action/list', KEY);
    // Both loaded files are back; the API write is gone.
    expect(list(after.body, 'data').map((a) => at(a, 'actionId'))).toEqual(['later', '00400001198']);
    expect(at(after.body, 'data', 1, 'customFields')).toEqual({});
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('PUT replaces everything, the generated set included, and reset keeps to it', async () => {
    const engine = createEngine({ seed: 42, actions: 40, clock: new MockClock({ start: START }) });
    expect((await admin(engine, 'PUT', '/__mock/data', shop('Replaced'))).status).toBe(200);
    expect(engine.admin.listOrganizations().map((o) => o.id)).toEqual(['org_shop']);
    await admin(engine, 'POST', '/__mock/reset');
    expect(engine.admin.listOrganizations().map((o) => o.id)).toEqual(['org_shop']);
    const keys = await admin(engine, 'GET', '/__mock/keys');
    expect(list(keys.body, 'keys').map((k) => at(k, 'key'))).toEqual([KEY]);
    const detail = await get(engine, '/v0/action/00400001198', KEY);
    expect(at(detail.body, 'actionTitle')).toBe('Replaced');
  });

  it('resolves relative timestamps against the clock when loaded, so the default window holds them', async () => {
    const engine = newEngine();
    const detail = await get(engine, '/v0/action/00400001198', KEY);
    expect(at(detail.body, 'createdAt')).toBe(new Date(START - 2 * 86_400_000).toISOString());
    engine.clock.advance(86_400_000);
    const merged = scenario()
      .organization('org_shop')
      .action({ actionId: 'x', messages: [userSays('a', '-90m'), agentSays('b', '-1h')] })
      .build();
    expect((await admin(engine, 'POST', '/__mock/data', merged)).status).toBe(200);
    const x = await get(engine, '/v0/action/x', KEY);
    expect(at(x.body, 'createdAt')).toBe(new Date(START + 86_400_000 - 90 * 60_000).toISOString());
  });
});
