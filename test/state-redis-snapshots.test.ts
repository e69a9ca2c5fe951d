/**
 * A Redis-shared log that lasts, with real `redis-server` processes and the built CLI: Redis wiped
 * (`FLUSHALL`) or restarted empty under running replicas makes each of them `diverged` within a
 * second, answering 503 instead of stale shared state, and a log started again never reissues a
 * caseId; a replica started on a stream trimmed by snapshots loads the snapshot and answers byte for
 * byte as the others; a `kill -9` of a replica while it compacts loses no acknowledged write.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, RESP_TYPES } from '@redis/client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { mockKeys } from '../suites/target.ts';
import {
  json,
  type MockProcess,
  type RedisServer,
  startMock,
  startRedis,
} from './support/state-processes.ts';
import { scaled } from './support/timeouts.ts';

const keys = { read: mockKeys().read ?? '', write: mockKeys().write ?? '' };

async function submit(
  url: string,
  externalId: string,
  body = 'Pitch up in minutes.',
): Promise<string | undefined> {
  try {
    const answer = await json(`${url}/v0/moderation/cases`, {
      method: 'POST',
      headers: { 'x-api-key': keys.write },
      body: JSON.stringify(sampleSubmission({ externalId, copy: { body } })),
    });
    return answer.status === 202 ? (answer.body['caseId'] as string) : undefined;
  } catch {
    return undefined;
  }
}

async function caseText(url: string, caseId: string): Promise<{ status: number; text: string }> {
  const answer = await fetch(`${url}/v0/moderation/cases/${caseId}`, { headers: { 'x-api-key': keys.read } });
  return { status: answer.status, text: await answer.text() };
}

/** One JSON-RPC request to `/mcp` (a 2025-era session's when `session` is given). */
async function mcpPost(
  url: string,
  message: Record<string, unknown>,
  session?: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  const answer = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${keys.read}`,
      ...(session === undefined ? {} : { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  return { status: answer.status, headers: answer.headers, text: await answer.text() };
}

const INITIALIZE = {
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

async function redisCommand(redis: RedisServer, args: (string | Buffer)[]): Promise<unknown> {
  const client = createClient({ url: redis.url, RESP: 2 });
  await client.connect();
  try {
    return await client.sendCommand(args);
  } finally {
    await client.close();
  }
}

/** Ms until every replica's health says diverged (polled every 25 ms), or Infinity after `limit`. */
async function untilDiverged(replicas: readonly MockProcess[], limit: number): Promise<number> {
  const started = performance.now();
  const pending = new Set(replicas);
  while (pending.size > 0 && performance.now() - started < limit) {
    for (const replica of [...pending]) {
      const health = await json(`${replica.url}/__mock/health`);
      if (health.body['status'] === 'diverged') pending.delete(replica);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return pending.size === 0 ? performance.now() - started : Number.POSITIVE_INFINITY;
}

describe('cca-kit mock --state redis://: epochs, snapshots and a trimmed stream', () => {
  let redis: RedisServer | undefined;
  let replicas: MockProcess[] = [];
  const previous = process.env['CCA_MOCK_SNAPSHOT_EVERY'];
  afterEach(async () => {
    await Promise.all(replicas.map((r) => r.stop('SIGKILL')));
    replicas = [];
    await redis?.remove();
    redis = undefined;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env['CCA_MOCK_SNAPSHOT_EVERY'];
    else process.env['CCA_MOCK_SNAPSHOT_EVERY'] = previous;
  });

  for (const wipe of ['FLUSHALL', 'a restart of Redis without its data'] as const) {
    it(`${wipe} under two running replicas: both diverged within a second, no stale read, no write, no reissued caseId`, async () => {
      delete process.env['CCA_MOCK_SNAPSHOT_EVERY'];
      const store = await startRedis();
      redis = store;
      const args = ['--seed', '42', '--clock', 'frozen', '--state', store.url];
      replicas = await Promise.all([startMock(args), startMock(args)]);
      const [a, b] = replicas as [MockProcess, MockProcess];
      const ids: string[] = [];
      for (let i = 0; i < 6; i += 1)
        ids.push((await submit(i % 2 === 0 ? a.url : b.url, `wiped-${i}`)) as string);
      for (const id of ids) expect((await caseText(b.url, id)).status).toBe(200);

      // A session opened before the wipe is refused after it as a new one is.
      const opened = await mcpPost(a.url, INITIALIZE);
      expect(opened.status).toBe(200);
      const session = opened.headers.get('mcp-session-id') as string;
      expect((await mcpPost(a.url, { method: 'notifications/initialized' }, session)).status).toBe(202);

      const wiped = performance.now();
      if (wipe === 'FLUSHALL') await redisCommand(store, ['FLUSHALL']);
      else {
        await store.stop();
        rmSync(join(store.dir, 'appendonlydir'), { recursive: true, force: true });
        await store.restart();
      }
      const restartMs = performance.now() - wiped;
      const ms = await untilDiverged(replicas, scaled(5_000));
      expect(ms, `${ms} ms to diverged (Redis back after ${Math.round(restartMs)} ms)`).toBeLessThan(
        scaled(1_000),
      );
      for (const replica of replicas) {
        const health = await json(`${replica.url}/__mock/health`);
        expect(health.status).toBe(503);
        expect(health.body['error']).toMatch(/Diverged: the store lost its log/);
        // No read answers the old shared state as current, and no write is taken.
        const read = await caseText(replica.url, ids[0] as string);
        expect(read.status).toBe(503);
        expect(read.text).toMatch(/diverged/);
        expect(
          (await fetch(`${replica.url}/v0/agents`, { headers: { 'x-api-key': keys.read } })).status,
        ).toBe(503);
        const write = await json(`${replica.url}/v0/moderation/cases`, {
          method: 'POST',
          headers: { 'x-api-key': keys.write },
          body: JSON.stringify(sampleSubmission({ externalId: 'after-wipe' })),
        });
        expect(write.status).toBe(503);
        // The agent interface says the same: a 503 whose body is a JSON-RPC error naming the code.
        for (const [message, inSession] of [
          [INITIALIZE, undefined],
          [{ id: 2, method: 'tools/list' }, replica === a ? session : undefined],
        ] as const) {
          const mcp = await mcpPost(replica.url, message, inSession);
          expect(mcp.status, mcp.text).toBe(503);
          expect(mcp.headers.get('x-mock-error-code')).toBe('STORE_DIVERGED');
          const error = (JSON.parse(mcp.text) as { error: { code: number; message: string; data: unknown } })
            .error;
          expect(error.code).toBe(-32000);
          expect(error.message).toMatch(
            /^Service unavailable: this replica diverged: the store lost its log/,
          );
          expect(error.data).toEqual({ code: 'STORE_DIVERGED' });
        }
      }

      // Nothing a diverged replica was asked to write landed in the store (a new log would apply it).
      expect(await redisCommand(store, ['EXISTS', 'cca-kit:log'])).toBe(0);
      // A replica started now builds a new log (a new epoch): the same externalIds get other caseIds.
      const fresh = await startMock(args);
      replicas.push(fresh);
      const again: string[] = [];
      for (let i = 0; i < 6; i += 1)
        again.push((await submit(fresh.url, `wiped-${i}`, 'other content')) as string);
      expect(again.every((id) => typeof id === 'string')).toBe(true);
      expect(again.filter((id) => ids.includes(id))).toEqual([]);
      // The diverged replicas stay diverged (until restarted), even though the store has a log again.
      expect((await caseText(a.url, again[0] as string)).status).toBe(503);
    });
  }

  it('a replica started on a stream trimmed by snapshots loads the snapshot and answers byte for byte like the other', async () => {
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '10';
    const store = await startRedis();
    redis = store;
    const args = ['--seed', '42', '--clock', 'frozen', '--state', store.url];
    const a = await startMock(args);
    replicas = [a];
    const ids: string[] = [];
    for (let i = 0; i < 37; i += 1) ids.push((await submit(a.url, `trimmed-${i}`)) as string);
    // The snapshot is written after the write that crosses the interval: wait for the stream's trim.
    const deadline = performance.now() + scaled(10_000);
    let length = Number(await redisCommand(store, ['XLEN', 'cca-kit:log']));
    while (length >= 37 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      length = Number(await redisCommand(store, ['XLEN', 'cca-kit:log']));
    }
    expect(length).toBeLessThan(37);
    const c = await startMock(args);
    replicas.push(c);
    const health = await json(`${c.url}/__mock/health`);
    expect(health.body).toMatchObject({ status: 'ready', store: { position: 37, lag: 0 } });
    expect((health.body['store'] as { snapshot: unknown }).snapshot).not.toBeNull();
    for (const id of ids) {
      const [fromA, fromC] = await Promise.all([caseText(a.url, id), caseText(c.url, id)]);
      expect(fromC.status).toBe(200);
      expect(fromC.text).toBe(fromA.text);
    }
    const agents = await Promise.all(
      [a, c].map(async (r) =>
        (await fetch(`${r.url}/v0/agents`, { headers: { 'x-api-key': keys.read } })).text(),
      ),
    );
    expect(agents[1]).toBe(agents[0]);
  });

  /** Writes `count` cases through `replica` (snapshots every 10), then waits until `done` holds. */
  async function snapshotted(
    replica: MockProcess,
    count: number,
    done: () => Promise<boolean>,
  ): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) ids.push((await submit(replica.url, `bytes-${i}`)) as string);
    const deadline = performance.now() + scaled(10_000);
    while (!(await done()) && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return ids;
  }

  async function snapshotValue(store: RedisServer, key: string): Promise<Buffer> {
    const client = createClient({ url: store.url, RESP: 2 });
    await client.connect();
    try {
      return await client.sendCommand<Buffer>(['GET', key], {
        typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer },
      });
    } finally {
      await client.close();
    }
  }

  it('a snapshot stored base64 by an earlier version still loads on a stream trimmed past it', async () => {
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '10';
    const store = await startRedis();
    redis = store;
    const args = ['--seed', '42', '--clock', 'frozen', '--state', store.url];
    const a = await startMock(args);
    replicas = [a];
    // Two snapshots at least: the stream is trimmed to the previous one's entry.
    const ids = await snapshotted(
      a,
      37,
      async () => Number(await redisCommand(store, ['XLEN', 'cca-kit:log'])) < 37,
    );
    await a.stop('SIGKILL');
    replicas = [];
    // Both snapshots as the earlier version stored them: the encoded snapshot in base64 text.
    for (const key of ['cca-kit:snapshot', 'cca-kit:snapshot.prev']) {
      const raw = await snapshotValue(store, key);
      expect(raw[0], `${key} is stored raw (its JSON header first)`).toBe(0x7b);
      await redisCommand(store, ['SET', key, raw.toString('base64')]);
    }
    expect(Number(await redisCommand(store, ['XLEN', 'cca-kit:log']))).toBeLessThan(37);
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '0';
    const c = await startMock(args);
    replicas = [c];
    // The stream lacks its first entries: position 37 is reached only from a snapshot.
    const health = await json(`${c.url}/__mock/health`);
    expect(health.body).toMatchObject({ status: 'ready', store: { position: 37, lag: 0 } });
    expect((health.body['store'] as { snapshot: unknown }).snapshot).not.toBeNull();
    expect(c.output()).not.toMatch(/refused snapshot/);
    for (const id of ids) expect((await caseText(c.url, id)).status).toBe(200);
  });

  it('a damaged raw snapshot is refused by name and the log is replayed instead', async () => {
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '10';
    const store = await startRedis();
    redis = store;
    const args = ['--seed', '42', '--clock', 'frozen', '--state', store.url];
    const a = await startMock(args);
    replicas = [a];
    // Twelve writes: one snapshot, no previous one, so nothing is trimmed and the log is whole.
    const ids = await snapshotted(
      a,
      12,
      async () => Number(await redisCommand(store, ['EXISTS', 'cca-kit:snapshot'])) === 1,
    );
    expect(Number(await redisCommand(store, ['XLEN', 'cca-kit:log']))).toBe(12);
    const raw = await snapshotValue(store, 'cca-kit:snapshot');
    expect(raw[0]).toBe(0x7b);
    // One byte of the image flipped, in place: the header still parses, the checksum does not match.
    const at = raw.length - 5;
    await redisCommand(store, [
      'SETRANGE',
      'cca-kit:snapshot',
      String(at),
      Buffer.from([(raw[at] ?? 0) ^ 1]),
    ]);
    // c writes no snapshot of its own: the health's snapshot then says what the start loaded.
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '0';
    const c = await startMock(args);
    replicas.push(c);
    expect(c.output()).toMatch(/refused snapshot cca-kit:snapshot: checksum mismatch \(damaged\)/);
    const health = await json(`${c.url}/__mock/health`);
    expect(health.body).toMatchObject({ status: 'ready', store: { position: 12, lag: 0, snapshot: null } });
    for (const id of ids) {
      const [fromA, fromC] = await Promise.all([caseText(a.url, id), caseText(c.url, id)]);
      expect(fromC.status).toBe(200);
      expect(fromC.text).toBe(fromA.text);
    }
  });

  it('kill -9 of a replica in the middle of its compaction (it dies holding the snapshot lock) loses no acknowledged write', async () => {
    const store = await startRedis();
    redis = store;
    const args = ['--seed', '42', '--clock', 'frozen', '--state', store.url];
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '0';
    const b = await startMock(args);
    replicas = [b];
    const acknowledged = new Map<string, string>();
    const watcher = createClient({ url: store.url, RESP: 2 });
    await watcher.connect();
    const lock = async (): Promise<boolean> =>
      (await watcher.sendCommand<string | null>(['GET', 'cca-kit:snapshot:lock'])) !== null;
    // Until a kill lands inside a compaction: each round a new replica a (the only one that writes
    // snapshots, every 3 writes) is killed as soon as its lock is seen; the lock still there after
    // the kill means a died between taking it and removing it, after its snapshot's script or before.
    let midCompaction = 0;
    for (let round = 0; round < 8 && midCompaction === 0; round += 1) {
      process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '3';
      const a = await startMock(args);
      process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '0';
      replicas.push(a);
      let stop = false;
      const writers = [a, a, a, b].map(async (replica, writer) => {
        for (let i = 0; !stop; i += 1) {
          const externalId = `kill-${round}-${writer}-${i}`;
          const caseId = await submit(replica.url, externalId);
          if (caseId !== undefined) acknowledged.set(externalId, caseId);
          else if (replica === a) return;
        }
      });
      const deadline = performance.now() + scaled(5_000);
      while (!(await lock()) && performance.now() < deadline);
      await a.stop('SIGKILL');
      if (await lock()) {
        midCompaction += 1;
        // What its expiry would do a minute later: the next replica may snapshot again.
        await watcher.sendCommand(['DEL', 'cca-kit:snapshot:lock']);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      stop = true;
      await Promise.all(writers);
    }
    await watcher.close();
    expect(midCompaction, 'no kill landed inside a compaction in 8 rounds').toBe(1);
    const c = await startMock(args);
    replicas.push(c);
    expect(acknowledged.size).toBeGreaterThan(5);
    for (const [, caseId] of acknowledged) {
      expect((await caseText(c.url, caseId)).status).toBe(200);
      expect((await caseText(b.url, caseId)).status).toBe(200);
    }
  });
});
