/**
 * The engine's two entry points: `dispatch` (plain data, what the node adapter calls) and `handle`
 * (Fetch API, what MSW calls) must be the same engine. A property drives two engines built alike in
 * lockstep with generated garbage, one through each entry point, and requires byte-identical answers.
 * Then the node adapter's handling of bodies the engine leaves unread: a small one is drained and the
 * connection kept alive, a large or unbounded one closes the connection (MOCK-BODY-LIMIT-413).
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { garbageRequest } from '../bench/lib/garbage.ts';
import { MockClock } from '../mocks/engine/clock.ts';
import { createEngine, type Engine } from '../mocks/engine/engine.ts';
import { bytesBody, concatBytes, headersFromRecord } from '../mocks/engine/exchange.ts';
import { DRAIN_LIMIT_BYTES } from '../mocks/http/incoming.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { keyOf } from './support/keys.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const MAX_BODY = 4096;
const build = (): Engine =>
  createEngine({
    seed: 11,
    actions: 300,
    selfCheck: true,
    maxBodyBytes: MAX_BODY,
    clock: new MockClock({ start: START }),
  });

const utf8 = new TextEncoder();
const bytesOf = (body: Uint8Array | string | readonly Uint8Array[] | null): Uint8Array =>
  body === null
    ? new Uint8Array(0)
    : typeof body === 'string'
      ? utf8.encode(body)
      : body instanceof Uint8Array
        ? body
        : concatBytes(body);

describe('dispatch and handle are one engine', () => {
  it('answer every generated request with the same status, headers and bytes (property)', async () => {
    const viaHandle = build();
    const viaDispatch = build();
    const keys = viaHandle.admin.listKeys().flatMap((k) => (k.key === null ? [] : [k.key]));
    // A page of real action ids read through a third engine built alike, so both stay in lockstep.
    const list = await build().handle(
      new Request('http://mock.test/v0/action/list?pageSize=5', {
        headers: { 'x-api-key': keyOf(viaHandle.admin, 'org_acme', 'reporting') },
      }),
    );
    const ids = ((await list.json()) as { data: { actionId: string }[] }).data.map((a) => a.actionId);
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        garbageRequest({ keys, ids }, { maxBodyBytes: MAX_BODY + 512 }),
        fc.constantFrom('127.0.0.1', '203.0.113.9'),
        async (r, remoteAddress) => {
          const url = `http://mock.test${r.path}`;
          const method = r.method.toUpperCase();
          const body = method === 'GET' || method === 'HEAD' ? undefined : r.body;
          let request: Request;
          try {
            request = new Request(url, {
              method,
              headers: r.headers,
              ...(body === undefined ? {} : { body: body as BodyInit }),
            });
          } catch {
            return; // not a request a Fetch client can make; the HTTP garbage test covers those
          }
          const fetched = await viaHandle.handle(request, { remoteAddress });
          const plain = await viaDispatch.dispatch({
            method,
            url: new URL(url),
            headers: headersFromRecord(r.headers),
            body: body === undefined ? null : bytesBody(body),
            remoteAddress,
          });
          const label = `${method} ${r.path}`;
          expect(plain.kind, label).toBe('answer');
          if (plain.kind !== 'answer') return;
          expect(plain.status, label).toBe(fetched.status);
          expect(plain.headers, label).toEqual(Object.fromEntries(fetched.headers));
          expect(
            Buffer.from(bytesOf(plain.body)).equals(Buffer.from(await fetched.arrayBuffer())),
            label,
          ).toBe(true);
          compared += 1;
        },
      ),
      { numRuns: 600, seed: 20261121 },
    );
    expect(compared).toBeGreaterThan(400);
    for (const engine of [viaHandle, viaDispatch]) {
      expect(engine.unexpectedErrors).toEqual([]);
      expect(engine.selfCheckFailures).toEqual([]);
    }
  });
});

/** Sends raw bytes on one socket and collects the answer text until `done(text)` or the server closes. */
function exchange(
  port: number,
  chunks: readonly string[],
  done: (text: string) => boolean,
): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let finished = false;
    const finish = (closedByServer: boolean) => {
      if (finished) return;
      finished = true;
      socket.destroy();
      resolve({ text, closedByServer });
    };
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on('data', (data) => {
      text += data.toString('latin1');
      if (done(text)) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', reject);
    setTimeout(() => finish(false), 5_000).unref();
  });
}

const answers = (text: string): number => text.match(/HTTP\/1\.1 \d{3}/g)?.length ?? 0;

describe('bodies the engine does not read (node adapter)', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 42, actions: 200, selfCheck: true });
  });
  afterAll(async () => {
    expect(mock.engine.selfCheckFailures).toEqual([]);
    await mock.close();
  });

  it('a small unread body (401 before the body) is drained: the connection serves the next request', async () => {
    const body = '{"externalId":"x"}';
    const first = `POST /v0/moderation/cases HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
    const second = 'GET /v0/agents HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n';
    const { text } = await exchange(mock.port, [first, second], (t) => answers(t) >= 2);
    expect(answers(text)).toBe(2);
    expect(text.match(/HTTP\/1\.1 401/g)?.length).toBe(2);
    expect(text.toLowerCase()).not.toContain('connection: close');
  });

  it('a body over the drain limit that is left unread closes the connection (MOCK-BODY-LIMIT-413)', async () => {
    const length = DRAIN_LIMIT_BYTES + 1;
    const head = `POST /v0/moderation/cases HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
    const { text, closedByServer } = await exchange(mock.port, [head, '{"a":'], () => false);
    expect(text).toMatch(/^HTTP\/1\.1 401/);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(closedByServer).toBe(true);
  });

  it('a body past the size limit is answered 413 and its connection closed (MOCK-BODY-LIMIT-413)', async () => {
    const key = keyOf(mock.engine.admin, 'org_acme', 'write');
    const head = `POST /v0/moderation/cases HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;
    const chunk = `${(1 << 20).toString(16)}\r\n${' '.repeat(1 << 20)}\r\n`;
    const { text, closedByServer } = await exchange(mock.port, [head, chunk, chunk], () => false);
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(closedByServer).toBe(true);
  });
});
