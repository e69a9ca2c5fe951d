/**
 * Keys under load (AUTH-REVOKED-KEY-401-AT-ONCE): 100 clients keep sending requests with one key; the
 * key is revoked through the admin API while requests are in flight. Every request that STARTS after
 * the revocation has been acknowledged is answered 401; requests in flight at that moment may finish
 * either way (spec 5.6: a request in progress is not guaranteed to be cancelled).
 */
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';

const CLIENTS = 100;

/** Polls `done` every 20 ms until it holds or `timeoutMs` passes. */
async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

interface Sample {
  readonly startedAt: number;
  readonly status: number;
}

describe('hardening: a key revoked under load fails at once (AUTH-REVOKED-KEY-401-AT-ONCE)', () => {
  let mock: MockServer;
  let pool: Pool;

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, seed: 42, clock: 'frozen', selfCheck: true });
    pool = new Pool(mock.url, { connections: CLIENTS, pipelining: 1 });
  });

  afterAll(async () => {
    await pool?.close();
    await mock?.close();
  });

  it('every request that starts after POST /__mock/keys/{key}/revoke answered is refused with 401', async () => {
    const created = mock.engine.admin.createKey({
      organizationId: 'org_acme',
      profile: 'read_write',
      expiry: 'none',
    });
    const key = created.key;
    const samples: Sample[] = [];
    let stop = false;
    const paths = ['/v0/agents', '/v0/action/list?pageSize=10', '/v0/queues', '/v0/analytics/tags'];

    const client = async (id: number) => {
      for (let i = 0; !stop; i++) {
        const path = paths[(id + i) % paths.length] ?? '/v0/agents';
        const startedAt = performance.now();
        const response = await pool.request({ method: 'GET', path, headers: { 'x-api-key': key } });
        await response.body.dump();
        samples.push({ startedAt, status: response.statusCode });
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i));

    // Load first: wait until every client has had answers (bounded, on a busy machine too).
    await until(() => samples.length >= 3 * CLIENTS, 15_000);
    const revokeSent = performance.now();
    const revoke = await fetch(`${mock.url}/__mock/keys/${encodeURIComponent(key)}/revoke`, {
      method: 'POST',
    });
    const revokedAt = performance.now();
    expect(revoke.status).toBe(200);
    expect(((await revoke.json()) as { key: { status: string } }).key.status).toBe('revoked');
    await until(() => samples.filter((x) => x.startedAt > revokedAt).length >= 3 * CLIENTS, 15_000);
    stop = true;
    await Promise.all(clients);

    const before = samples.filter((s) => s.startedAt < revokeSent);
    const after = samples.filter((s) => s.startedAt > revokedAt);
    // The key worked before, under the same load.
    expect(before.filter((s) => s.status === 200).length).toBeGreaterThanOrEqual(2 * CLIENTS);
    // Every request started after the revocation was acknowledged: 401, no exception.
    expect(after.length).toBeGreaterThanOrEqual(2 * CLIENTS);
    expect(after.filter((s) => s.status !== 401)).toEqual([]);
  });

  it('a key revoked through the typed admin API mid-burst: requests started afterwards get 401', async () => {
    const created = mock.engine.admin.createKey({
      organizationId: 'org_globex',
      profile: 'reporting',
      expiry: 'none',
    });
    const key = created.key;
    const send = async () => {
      const startedAt = performance.now();
      const response = await pool.request({
        method: 'GET',
        path: '/v0/agents',
        headers: { 'x-api-key': key },
      });
      await response.body.dump();
      return { startedAt, status: response.statusCode };
    };
    const inFlight = Array.from({ length: 300 }, send);
    await new Promise((resolve) => setImmediate(resolve));
    mock.engine.admin.revokeKey(key);
    const revokedAt = performance.now();
    const later = await Promise.all(Array.from({ length: 300 }, send));
    const early = await Promise.all(inFlight);
    expect(later.every((s) => s.startedAt > revokedAt)).toBe(true);
    expect(later.filter((s) => s.status !== 401)).toEqual([]);
    expect(early.every((s) => s.status === 200 || s.status === 401)).toBe(true);
  });

  it('sent nothing the contract does not declare (self-check)', () => {
    expect(mock.engine.selfCheckFailures).toEqual([]);
    expect(mock.engine.unexpectedErrors).toEqual([]);
  });
});
