/**
 * List and search pages are joined from cached record texts (mocks/engine/data/serialised.ts); these
 * tests prove a cached record never outlives a change to its action.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../mocks/engine/index.ts';
import { keyOf } from './support/keys.ts';

const key = (engine: Engine, profile: string): string => keyOf(engine.admin, 'org_acme', profile);

async function call(engine: Engine, apiKey: string, path: string, init: RequestInit = {}) {
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json', ...init.headers };
  const response = await engine.handle(new Request(`http://mock.test${path}`, { ...init, headers }), {
    remoteAddress: '127.0.0.1',
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

type Summary = { actionId: string; customFields: Record<string, unknown>; actionTitle: string };

describe('pre-serialised records stay in step with the data', () => {
  it('CF-PATCH-PERSISTS: a custom-field write shows in the next list and search pages', async () => {
    const engine = createEngine({ seed: 42, clock: 'frozen', selfCheck: false });
    const read = key(engine, 'read_write');
    const first = await call(engine, read, '/v0/action/list?pageSize=1');
    const [action] = first.body['data'] as Summary[];
    if (action === undefined) throw new Error('empty list');
    await call(engine, read, '/v0/conversations/search?pageSize=100'); // fills the search cache too
    await call(engine, read, `/v0/action/${encodeURIComponent(action.actionId)}`); // and the detail cache
    const patched = await call(
      engine,
      read,
      `/v0/actions/${encodeURIComponent(action.actionId)}/custom-fields`,
      {
        method: 'PATCH',
        body: JSON.stringify({ fields: [{ fieldName: 'order_number', value: 'A-CACHE-1' }] }),
      },
    );
    expect(patched.status).toBe(200);
    const again = await call(engine, read, '/v0/action/list?pageSize=1');
    expect((again.body['data'] as Summary[])[0]?.customFields['order_number']).toBe('A-CACHE-1');
    const detail = await call(engine, read, `/v0/action/${encodeURIComponent(action.actionId)}`);
    expect((detail.body['customFields'] as Record<string, unknown>)['order_number']).toBe('A-CACHE-1');
    const search = await call(engine, read, `/v0/conversations/search?pageSize=100`);
    const item = (search.body['data'] as Summary[]).find((s) => s.actionId === action.actionId);
    if (item !== undefined) expect(item.customFields['order_number']).toBe('A-CACHE-1');
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('ID-INGEST-EXTERNALID-RETRIES: a retried record with a new title shows the new title', async () => {
    const engine = createEngine({ seed: 42, clock: 'frozen', ingestion: { latency: 'instant' } });
    const ingest = key(engine, 'import');
    const read = key(engine, 'reporting');
    const batch = (title: string) =>
      JSON.stringify({
        platform: 'DISCORD',
        serverId: '000981234567890123456789',
        serverName: 'Northwind Community',
        records: [
          {
            externalId: '1234567890123456789012345',
            threadExternalId: '1234567890123456789012345',
            authorId: '000733',
            authorName: 'Sam Rivera',
            title,
            body: 'The zipper broke.',
            createdAt: new Date(engine.clock.now() - 60_000).toISOString(),
            recordType: 'MESSAGE',
          },
        ],
      });
    const titles = async () => {
      const list = await call(engine, read, '/v0/action/list?fullFilter=platform%3DDISCORD&pageSize=500');
      return (list.body['data'] as Summary[]).map((s) => s.actionTitle);
    };
    expect(
      (await call(engine, ingest, '/v0/ingest/records', { method: 'POST', body: batch('First title') }))
        .status,
    ).toBe(202);
    expect(await titles()).toContain('First title');
    expect(
      (await call(engine, ingest, '/v0/ingest/records', { method: 'POST', body: batch('Second title') }))
        .status,
    ).toBe(202);
    const after = await titles();
    expect(after).toContain('Second title');
    expect(after).not.toContain('First title');
  });
});
