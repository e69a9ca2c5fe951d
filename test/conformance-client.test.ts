import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { ApiClient, type CallInput, ConformanceClient, type SuccessOf } from '../src/client/index.ts';
import type { ActionListResponse, ModerationAck } from '../src/contract/index.ts';
import { type RunningTarget, startMockTarget } from '../suites/target.ts';

describe('typed client on the generated contract types', () => {
  it('types the 2xx body and the inputs of each operation', () => {
    expectTypeOf<SuccessOf<'listActions'>>().toEqualTypeOf<ActionListResponse>();
    expectTypeOf<SuccessOf<'submitModerationCase'>>().toEqualTypeOf<ModerationAck>();
    expectTypeOf<CallInput<'getAction'>['path']>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<NonNullable<CallInput<'listActions'>['query']>['sortBy']>().toEqualTypeOf<
      'createdAt' | 'updatedAt' | undefined
    >();
  });

  describe('against the mock', () => {
    let running: RunningTarget;
    beforeAll(async () => {
      running = await startMockTarget({ seed: 42 });
    });
    afterAll(() => running.close());

    it('reads a page and an action by the id it listed, ids kept as strings (ID-STRING-PRESERVED)', async () => {
      const client = new ConformanceClient({ baseUrl: running.target.baseUrl, keys: running.target.keys });
      const api = new ApiClient(client);
      const list = await api.call('listActions', { auth: 'read', query: { pageSize: 3 } });
      if (!list.ok) throw new Error(`listActions failed: ${list.raw}`);
      const id = list.body.data[0]?.actionId;
      expect(typeof id).toBe('string');
      const detail = await api.call('getAction', { auth: 'read', path: { id: id ?? '' } });
      expect(detail.ok && detail.body.actionId).toBe(id);
      const missing = await api.call('getAction', { auth: 'read', path: { id: '9007199254740993' } });
      expect(missing).toMatchObject({ kind: 'http', ok: false, status: 404 });
      expect(client.log.map((e) => e.operationId)).toEqual(['listActions', 'getAction', 'getAction']);
      await client.close();
    });
  });
});
