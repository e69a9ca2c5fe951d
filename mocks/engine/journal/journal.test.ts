import { describe, expect, it } from 'vitest';
import { MockClock } from '../clock.ts';
import { createEngine, type Engine } from '../engine.ts';
import { createViolationLog } from '../violations/index.ts';
import { createJournal, type Journal, MASKED } from './index.ts';

const START = Date.parse('2026-11-20T12:00:00Z');

function setUp(options: Parameters<typeof createJournal>[0] = {}): {
  engine: Engine;
  journal: Journal;
  key: string;
} {
  const journal = createJournal(options);
  const engine = createEngine({
    seed: 7,
    actions: 40,
    clock: new MockClock({ start: START }),
    interceptors: [createViolationLog(), journal],
  });
  const key =
    engine.admin.listKeys('org_acme').find((k) => k.profile === 'read_write' && k.status === 'active')?.key ??
    undefined;
  if (key === undefined) throw new Error('no read_write key');
  return { engine, journal, key };
}

const call = (engine: Engine, path: string, init: RequestInit = {}, remoteAddress = '127.0.0.1') =>
  engine.handle(new Request(`http://mock${path}`, init), { remoteAddress });

describe('the request journal', () => {
  it('keeps at most `capacity` exchanges, the newest, and counts what it pushed out', async () => {
    const { engine, journal, key } = setUp({ capacity: 3 });
    for (let i = 1; i <= 5; i++) await call(engine, `/v0/agents?n=${i}`, { headers: { 'x-api-key': key } });
    expect(journal.list().map((e) => e.path)).toEqual(['/v0/agents?n=3', '/v0/agents?n=4', '/v0/agents?n=5']);
    expect(journal.list().map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(journal.stats()).toMatchObject({ capacity: 3, total: 5, retained: 3, dropped: 2 });
    expect(journal.get(1)).toBeUndefined();
    expect(journal.clear()).toBe(3);
    await call(engine, '/v0/agents', { headers: { 'x-api-key': key } });
    expect(journal.list().map((e) => e.seq)).toEqual([6]);
  });

  it('cuts bodies at maxBodyBytes and says so, with the full size', async () => {
    const { engine, journal, key } = setUp({ maxBodyBytes: 64 });
    await call(engine, '/v0/action/list?pageSize=5', { headers: { 'x-api-key': key } });
    const entry = journal.get(1);
    expect(entry?.response.body.truncated).toBe(true);
    expect(entry?.response.body.bytes).toBeGreaterThan(64);
    expect(new TextEncoder().encode(entry?.response.body.text ?? '').byteLength).toBeLessThanOrEqual(64 + 3);
  });

  it('never keeps a key: headers masked, keys masked in bodies and paths; the key profile and organization shown instead', async () => {
    const { engine, journal, key } = setUp();
    const listed = (await (
      await call(engine, '/v0/action/list', { headers: { 'x-api-key': key } })
    ).json()) as {
      data: { actionId: string }[];
    };
    const actionId = listed.data[0]?.actionId ?? 'none';
    journal.clear();
    await call(engine, `/v0/actions/${actionId}/custom-fields?echo=${key}`, {
      method: 'PATCH',
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        cookie: `s=${key}`,
      },
      body: JSON.stringify({ fields: [{ fieldName: key, value: key }] }),
    });
    // An unknown key presented is masked too, and remembered for masking.
    const stranger = 'sk_unknown_0123456789abcdef';
    await call(engine, '/v0/agents', { headers: { 'x-api-key': stranger } });
    const everything = JSON.stringify([journal.list(), journal.entries()]);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(stranger);
    const [first, second] = journal.entries();
    expect(first?.request.headers).toContainEqual(['x-api-key', MASKED]);
    expect(first?.request.headers).toContainEqual(['authorization', `Bearer ${MASKED}`]);
    expect(first?.request.headers).toContainEqual(['cookie', MASKED]);
    expect(first?.request.body.text).toContain(MASKED);
    expect(first?.path).toContain(`echo=${MASKED}`);
    expect(first).toMatchObject({
      organizationId: 'org_acme',
      keyProfile: 'read_write',
      operation: 'updateCustomFields',
    });
    expect(second).toMatchObject({ organizationId: null, keyProfile: null, status: 401 });
  });

  it('shows the contract violations the violation log recorded for the request, and filters by rule, status, operation, organization', async () => {
    const { engine, journal, key } = setUp();
    await call(engine, '/v0/agents', { headers: { 'x-api-key': key } });
    await call(engine, '/v0/action/list?pageSize=0', { headers: { 'x-api-key': key } });
    await call(engine, '/v0/agents');
    const [ok, invalid, missing] = journal.list();
    expect(ok?.violations).toEqual([]);
    expect(invalid?.status).toBe(400);
    expect(invalid?.violations[0]).toMatchObject({
      kind: 'invalid-request',
      severity: 'error',
      rule: 'LIST-PAGESIZE-RANGE',
      field: 'pageSize',
      keyword: 'minimum',
    });
    expect(invalid?.violations[0]?.message).toMatch(/pageSize/);
    expect(missing?.violations[0]).toMatchObject({ kind: 'malformed-request', keyword: 'KEY_MISSING' });
    const seqs = (filter: Parameters<Journal['list']>[0]) => journal.list(filter).map((e) => e.seq);
    expect(seqs({ status: '4xx' })).toEqual([2, 3]);
    expect(seqs({ status: '200' })).toEqual([1]);
    expect(seqs({ operation: 'listActions' })).toEqual([2]);
    expect(seqs({ organizationId: 'org_acme' })).toEqual([1, 2]);
    expect(seqs({ rule: 'LIST-PAGESIZE-RANGE' })).toEqual([2]);
    const missingRule = missing?.violations[0]?.rule ?? 'KEY_MISSING';
    expect(seqs({ rule: missingRule })).toEqual([3]);
    expect(seqs({ violationsOnly: true })).toEqual([2, 3]);
    expect(seqs({ since: 2 })).toEqual([3]);
  });

  it('does not journal the admin API (the dashboard polls it), and serves itself at GET /__mock/journal', async () => {
    const { engine, key } = setUp();
    await call(engine, '/v0/agents', { headers: { 'x-api-key': key } });
    await call(engine, '/__mock/clock');
    const answer = (await (await call(engine, '/__mock/journal?status=2xx')).json()) as {
      entries: { seq: number; path: string }[];
      retained: number;
    };
    expect(answer.entries.map((e) => e.path)).toEqual(['/v0/agents']);
    const one = (await (await call(engine, '/__mock/journal/1')).json()) as {
      entry: { response: { body: { text: string } } };
    };
    expect(JSON.parse(one.entry.response.body.text)).toHaveProperty('data');
    expect((await call(engine, '/__mock/journal/99')).status).toBe(404);
    expect((await call(engine, '/__mock/journal?status=abc')).status).toBe(400);
    expect((await call(engine, '/__mock/journal', {}, '10.0.0.8')).status).toBe(403);
    expect((await call(engine, '/__mock/journal', { method: 'DELETE' })).status).toBe(200);
    expect((await (await call(engine, '/__mock/journal')).json()) as { retained: number }).toMatchObject({
      retained: 0,
    });
  });

  it('keeps the body of a request that failed validation, with its operation, and its time from the mock clock', async () => {
    const { engine, journal, key } = setUp();
    const listed = (await (
      await call(engine, '/v0/action/list', { headers: { 'x-api-key': key } })
    ).json()) as { data: { actionId: string }[] };
    const actionId = listed.data[0]?.actionId ?? 'none';
    journal.clear();
    const body = JSON.stringify({ fields: 'not a list' });
    const answer = await call(engine, `/v0/actions/${actionId}/custom-fields`, {
      method: 'PATCH',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    const [summary] = journal.list();
    expect(summary).toMatchObject({ operation: 'updateCustomFields', status: answer.status });
    expect(summary?.at).toBe(new Date(START).toISOString());
    expect(summary?.durationMs).toBeGreaterThanOrEqual(0);
    const entry = journal.get(summary?.seq ?? 0);
    expect(entry?.request.body.text).toBe(body);
    expect(entry?.response.headers).toContainEqual(['content-type', expect.stringMatching(/json/)]);
  });

  it('refuses a capacity or body limit that is not a positive integer', () => {
    expect(() => createJournal({ capacity: 0 })).toThrow(/capacity must be a positive integer/);
    expect(() => createJournal({ maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes must be a positive integer/);
  });
});
