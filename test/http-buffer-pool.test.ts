/**
 * Pooled output buffers (mocks/http/buffer-pool.ts): a buffer is reused only after its response has
 * finished, so concurrent answers never share bytes. The property sends many different computed pages
 * at once over keep-alive connections and compares every body with what a twin engine answers in-process.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { createEngine } from '../mocks/engine/engine.ts';
import { createBufferPool, joinInto, POOL_MAX_BYTES } from '../mocks/http/buffer-pool.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { keyOf } from './support/keys.ts';

describe('buffer pool', () => {
  it('reuses a given buffer for a request of the same size class, keeps at most 32 per class', () => {
    const pool = createBufferPool();
    const first = pool.take(79_000);
    expect(first.byteLength).toBe(131_072);
    pool.give(first);
    expect(pool.take(70_000)).toBe(first);
    const many = Array.from({ length: 40 }, () => pool.take(5_000));
    for (const buffer of many) pool.give(buffer);
    expect(pool.kept).toBe(32);
    pool.give(Buffer.alloc(1000)); // not one of ours: ignored
    expect(pool.kept).toBe(32);
    expect(pool.take(8 * 1024 * 1024).byteLength).toBe(8 * 1024 * 1024); // above the largest class
  });

  it('keeps at most POOL_MAX_BYTES in all', () => {
    const pool = createBufferPool();
    const big = Array.from({ length: 8 }, () => pool.take(3 * 1024 * 1024)); // 4 MiB class
    for (const buffer of big) pool.give(buffer);
    expect(pool.keptBytes).toBe(POOL_MAX_BYTES);
    expect(pool.kept).toBe(POOL_MAX_BYTES / (4 * 1024 * 1024));
  });

  it('joins chunks into the exact bytes', () => {
    const pool = createBufferPool();
    const utf8 = new TextEncoder();
    const { bytes } = joinInto(pool, [utf8.encode('{"a":'), utf8.encode('"é"'), utf8.encode('}')]);
    expect(bytes.toString('utf8')).toBe('{"a":"é"}');
  });
});

describe('pooled answers over HTTP (property)', () => {
  const start = Date.parse('2026-11-20T12:00:00Z');
  const options = { seed: 21, actions: 600, rememberAnswers: false } as const;
  const twin = createEngine({ ...options, clock: new MockClock({ start }) });
  let mock: MockServer;
  let pool: Pool;
  beforeAll(async () => {
    mock = await startMockServer({ ...options, clock: new MockClock({ start }), selfCheck: true });
    pool = new Pool(mock.url, { connections: 16 });
  });
  afterAll(async () => {
    await pool.close();
    await mock.close();
  });

  it('every body of many concurrent computed pages is the one its own request asks for', async () => {
    const key = keyOf(twin.admin, 'org_acme', 'reporting');
    const path = fc.oneof(
      fc
        .record({
          pageSize: fc.integer({ min: 2, max: 500 }),
          sortBy: fc.constantFrom('createdAt', 'updatedAt'),
          from: fc.constantFrom('2026-10-01T00:00:00Z', '2026-11-13T00:00:00Z'),
        })
        .map(
          (q) => `/v0/action/list?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`,
        ),
      fc
        .record({ page: fc.integer({ min: 1, max: 4 }), pageSize: fc.integer({ min: 2, max: 100 }) })
        .map((q) => `/v0/conversations/search?page=${q.page}&pageSize=${q.pageSize}`),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(path, { minLength: 32, maxLength: 64 }), async (paths) => {
        const bodies = await Promise.all(
          paths.map(async (p) => {
            const response = await pool.request({ method: 'GET', path: p, headers: { 'x-api-key': key } });
            return Buffer.from(await response.body.arrayBuffer());
          }),
        );
        for (const [i, p] of paths.entries()) {
          const expected = await twin.handle(
            new Request(`http://mock.test${p}`, { headers: { 'x-api-key': key } }),
          );
          expect(bodies[i]?.equals(Buffer.from(await expected.arrayBuffer())), p).toBe(true);
        }
      }),
      { numRuns: 25, seed: 20261121 },
    );
    expect(mock.engine.selfCheckFailures).toEqual([]);
  });

  it('pipelined requests: answers queued behind an earlier one keep their own bytes', async () => {
    // Node queues the answer to a pipelined request until the one before it has finished, holding
    // our buffer meanwhile: a buffer given back too early would be overwritten by the next answer.
    const key = keyOf(twin.admin, 'org_acme', 'reporting');
    const paths = Array.from(
      { length: 12 },
      (_, i) => `/v0/action/list?from=2026-10-01T00:00:00Z&pageSize=${40 + i}`,
    );
    const raw = paths
      .map((p) => `GET ${p} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${key}\r\n\r\n`)
      .join('');
    const received = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect(mock.port, '127.0.0.1', () => socket.end(raw));
      const parts: Buffer[] = [];
      socket.on('data', (d) => parts.push(d));
      socket.on('end', () => resolve(Buffer.concat(parts)));
      socket.on('error', reject);
    });
    let offset = 0;
    for (const p of paths) {
      const headEnd = received.indexOf('\r\n\r\n', offset);
      const head = received.subarray(offset, headEnd).toString('latin1');
      const length = Number.parseInt(/content-length: (\d+)/i.exec(head)?.[1] ?? '-1', 10);
      const body = received.subarray(headEnd + 4, headEnd + 4 + length);
      offset = headEnd + 4 + length;
      const expected = await twin.handle(
        new Request(`http://mock.test${p}`, { headers: { 'x-api-key': key } }),
      );
      expect(body.equals(Buffer.from(await expected.arrayBuffer())), p).toBe(true);
    }
  });
});
