/**
 * `cca-kit/client` runs on the Fetch API: under MSW (`msw/node`) every call reaches the mock's
 * handlers instead of failing with ECONNREFUSED, ids stay strings byte for byte, failures are typed
 * data, and misuse rejects (never a synchronous throw). openapi-fetch with the generated `paths`
 * works on the same handlers.
 */
import { createServer } from 'node:net';
import { setupServer } from 'msw/node';
import createFetchClient from 'openapi-fetch';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../mocks/msw/index.ts';
import {
  ApiClient,
  ClientUsageError,
  ConformanceClient,
  type FetchLike,
  isClientUsageError,
} from '../src/client/index.ts';
import { type paths, validateResponse } from '../src/contract/index.ts';
import { keyOf } from './support/keys.ts';

const BASE = 'https://api.example.test';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
const mock = createHandlers({ baseUrl: BASE, clock: 'frozen', chaos: { bigIds: true } });
const server = setupServer(...mock.handlers);
const readKey = keyOf(mock.admin, 'org_acme', 'reporting');

// Unhandled requests go to the network: the refused-connection case below needs the real socket.
beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => mock.violationLog.clear());
afterAll(() => server.close());

describe('cca-kit/client on fetch, under MSW (msw/node setupServer)', () => {
  it('gets answers from the MSW handlers, ids above 2^53 kept as the strings of the raw text (ID-STRING-PRESERVED)', async () => {
    const client = new ConformanceClient({ baseUrl: BASE, keys: { read: readKey } });
    const api = new ApiClient(client);
    const list = await api.call('listActions', { auth: 'read', query: { pageSize: 5 } });
    if (!list.ok) throw new Error(`listActions answered ${list.status}: ${list.raw}`);
    expect(validateResponse('listActions', 200, list.body)).toEqual({ ok: true });
    const first = list.body.data[0];
    if (first === undefined) throw new Error('the seeded list is empty');
    // Seeded ids have leading zeros; chaos big ids serves the others as `009` + 18 digits (> 2^53).
    for (const action of list.body.data) expect(list.raw).toContain(`"actionId":"${action.actionId}"`);
    const big = list.body.data.filter((a) => /^\d+$/.test(a.actionId) && BigInt(a.actionId) > 2n ** 53n);
    expect(big.length).toBeGreaterThan(0);
    const detail = await api.call('getAction', { auth: 'read', path: { id: first.actionId } });
    expect(detail.ok && detail.body.actionId).toBe(first.actionId);
    expect(client.log.map((e) => [e.operationId, e.status])).toEqual([
      ['listActions', 200],
      ['getAction', 200],
    ]);
    expect(mock.violationLog.list()).toEqual([]);
  });

  it('answers errors as typed data: a 400 with its parsed body, a network failure with its code', async () => {
    const api = new ApiClient(new ConformanceClient({ baseUrl: BASE, keys: { read: readKey } }));
    const bad = await api.call('listActions', { auth: 'read', query: { pageSize: 0 } });
    expect(bad).toMatchObject({ kind: 'http', ok: false, status: 400, error: { success: false } });
    const refused = await new ConformanceClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      keys: {},
    }).request({
      method: 'GET',
      path: '/docs/json',
      auth: 'none',
    });
    // No handler matches that origin, so MSW lets it reach the network: nothing listens there.
    expect(refused).toMatchObject({ kind: 'network', ok: false, status: 0, error: { code: 'ECONNREFUSED' } });
  });

  it('never throws synchronously: an unknown operationId, a missing path parameter or key is a rejected promise', async () => {
    const api = new ApiClient(new ConformanceClient({ baseUrl: BASE, keys: {} }));
    let unknown: Promise<unknown> | undefined;
    expect(() => {
      unknown = api.call('unknownOp' as 'listActions', { auth: 'read' });
    }).not.toThrow();
    await expect(unknown).rejects.toMatchObject({ name: 'ClientUsageError', code: 'UNKNOWN_OPERATION' });
    await expect(api.call('getAction', { auth: 'read', path: {} as { id: string } })).rejects.toMatchObject({
      code: 'MISSING_PATH_PARAMETER',
    });
    const noKey = await api.call('listAgents', { auth: 'read' }).catch((error: unknown) => error);
    expect(noKey).toBeInstanceOf(ClientUsageError);
    expect(isClientUsageError(noKey) && noKey.code).toBe('NO_KEY');
  });

  it('sends with the fetch it is given (a stub sees the request and answers it)', async () => {
    const seen: string[] = [];
    const stub: FetchLike = async (input, init) => {
      seen.push(`${init.method} ${input} ${new Headers(init.headers).get('x-api-key')}`);
      return new Response('{"actionId":"9007199254740993123"}', { status: 200 });
    };
    const client = new ConformanceClient({
      baseUrl: 'http://stub.test/base',
      keys: { read: 'k1' },
      fetch: stub,
    });
    const res = await client.request<{ actionId: string }>({
      method: 'GET',
      path: '/v0/action/1',
      auth: 'read',
    });
    expect(seen).toEqual(['GET http://stub.test/base/v0/action/1 k1']);
    expect(res.ok && res.body.actionId).toBe('9007199254740993123');
  });
});

describe('openapi-fetch with the generated paths (createClient<paths>)', () => {
  it('types and sends every call through the same MSW handlers', async () => {
    const client = createFetchClient<paths>({ baseUrl: BASE, headers: { 'X-API-Key': readKey } });
    const { data, error, response } = await client.GET('/v0/action/list', {
      params: { query: { pageSize: 3, sortBy: 'updatedAt' } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.data.length).toBeLessThanOrEqual(3);
    const id = data?.data[0]?.actionId ?? '';
    const detail = await client.GET('/v0/action/{id}', { params: { path: { id } } });
    expect(detail.data?.actionId).toBe(id);
    const missing = await client.GET('/v0/action/{id}', { params: { path: { id: 'no-such-action' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ success: false });
  });
});
