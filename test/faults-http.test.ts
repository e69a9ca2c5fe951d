/**
 * Targeted faults through the HTTP adapter on a loopback port: set, listed and removed over
 * `/__mock/faults` (a bad one refused with a 400 naming the field), answered exactly as many times as
 * asked, the dropped connection a destroyed socket, the journal's entries marked, reset clearing them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { keyOf } from './support/keys.ts';

describe('targeted faults over HTTP', () => {
  let mock: MockServer | undefined;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, seed: 42, actions: 50, clock: 'frozen', agent: false });
  });
  afterAll(async () => {
    await mock?.close();
  });

  const admin = async (method: string, path: string, body?: unknown) => {
    if (mock === undefined) throw new Error('set-up failed');
    const response = await fetch(`${mock.url}/__mock/${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('refuses a bad fault with a 400 naming the field', async () => {
    const unknown = await admin('POST', 'faults', { operation: 'listAgents', status: 500, retry: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body['error']).toMatch(/^fault field retry: unknown field/);
    const undeclared = await admin('POST', 'faults', { operation: 'listAgents', status: 404 });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body['error']).toMatch(/fault field status: listAgents declares no 404 answer/);
    const empty = await admin('POST', 'faults');
    expect(empty.status).toBe(400);
    expect(empty.body['error']).toMatch(/a fault must be an object/);
    expect((await admin('GET', 'faults')).body['faults']).toEqual([]);
  });

  it('answers 500 twice then the operation; drops a connection once; journal marks, counters, removal and reset', async () => {
    if (mock === undefined) throw new Error('set-up failed');
    const key = keyOf(mock.engine.admin, 'org_acme', 'reporting');
    const added = await admin('POST', 'faults', { operation: 'listAgents', status: 500, times: 2 });
    expect(added.status).toBe(201);
    expect(added.body['fault']).toMatchObject({ id: 'f1', fired: 0, remaining: 2 });
    const agents = () => fetch(`${mock?.url}/v0/agents`, { headers: { 'x-api-key': key } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await agents()).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect((await admin('GET', 'faults/f1')).body['fault']).toMatchObject({ fired: 2, remaining: 0 });

    // The dropped connection: the socket is destroyed, no status line at all.
    await admin('POST', 'faults', { operation: 'listQueues', drop: true });
    await expect(fetch(`${mock.url}/v0/queues`, { headers: { 'x-api-key': key } })).rejects.toThrow(
      /fetch failed/,
    );
    expect((await fetch(`${mock.url}/v0/queues`, { headers: { 'x-api-key': key } })).status).toBe(200);

    const journal = (await admin('GET', 'journal')).body['entries'] as {
      fault: string | null;
      status: number;
    }[];
    expect(journal.map((e) => [e.status, e.fault])).toEqual([
      [500, 'f1'],
      [500, 'f1'],
      [200, null],
      [0, 'f2'],
      [200, null],
    ]);

    expect((await admin('DELETE', 'faults/f9')).status).toBe(404);
    expect((await admin('DELETE', 'faults/f1')).body['removed']).toMatchObject({ id: 'f1' });
    await admin('POST', 'faults', { operation: 'listAgents', status: 403, times: null });
    expect(((await admin('GET', 'faults')).body['faults'] as unknown[]).length).toBe(2);
    expect((await admin('POST', 'reset')).status).toBe(200);
    expect((await admin('GET', 'faults')).body['faults']).toEqual([]);
    expect((await agents()).status).toBe(200);
  });
});
