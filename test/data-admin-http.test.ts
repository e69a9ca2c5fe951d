/**
 * `/__mock/data` over real HTTP: the export of the default generated set (several MB, far over the
 * engine's 1 MiB `maxBodyBytes`) loads back through `PUT` and `POST`; a body over the data file cap
 * (64 MiB) is refused with 413 by its declared length, before any of it is read.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import { MAX_DATA_FILE_BYTES } from '../mocks/engine/data-file/validate.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { keyOf } from './support/keys.ts';
import { scaled } from './support/timeouts.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const ONE_MIB = 1024 * 1024;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ clock: new MockClock({ start: START }), agent: false });
});
afterAll(async () => {
  await mock.close();
});

async function send(method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
  if (body !== undefined) init.body = body;
  const response = await fetch(`${mock.url}${path}`, init);
  return { status: response.status, text: await response.text() };
}

/**
 * Agent and queue metrics without the three averages that the generated set derives from each
 * action's hidden seed (resolution quality, sentiment change, rubric score): the data format has no
 * field for them, so a loaded action does not count in them (docs/data-format.md, "Round trip").
 */
/** The head of a request declaring `length` bytes, a few of them sent; the server's first answer line. */
function declaredOnly(method: string, length: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\r\n')) {
        socket.destroy();
        resolve(text.slice(0, text.indexOf('\r\n')));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.write(
      `${method} /__mock/data HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n{"organizations":`,
    );
  });
}

describe('/__mock/data over HTTP', () => {
  it(
    'the export of the default set (over 1 MiB) loads back through PUT: same reads, and a fixed point',
    async () => {
      const key = keyOf(mock.engine.admin, 'org_acme', 'reporting');
      const get = async (path: string): Promise<unknown> =>
        (await fetch(`${mock.url}${path}`, { headers: { 'x-api-key': key } })).json();
      const reads = async (): Promise<unknown[]> =>
        Promise.all([
          get('/v0/action/list?limit=50'),
          get('/v0/action/1187891849000000000'),
          get('/v0/analytics/actions?groupBy=status'),
          // The averages no action field carries come back through the actions' `scores`.
          get('/v0/agents'),
          get('/v0/queues'),
          get('/v0/analytics/tags'),
        ]);
      const before = await reads();

      const exported = await send('GET', '/__mock/data');
      expect(exported.status).toBe(200);
      expect(Buffer.byteLength(exported.text)).toBeGreaterThan(ONE_MIB);

      const put = await send('PUT', '/__mock/data', exported.text);
      expect(put.status, put.text.slice(0, 500)).toBe(200);
      expect(await reads()).toEqual(before);

      // Generated actions have no ingestion identity (serverId) until loaded from a file, where it
      // defaults to serverName: the second export is the fixed point.
      const second = await send('GET', '/__mock/data');
      expect((await send('PUT', '/__mock/data', second.text)).status).toBe(200);
      expect((await send('GET', '/__mock/data')).text).toBe(second.text);
      expect(await reads()).toEqual(before);
    },
    scaled(60_000),
  );

  it(
    'POST merges a body over 1 MiB (the same export) without a 413',
    async () => {
      const exported = await send('GET', '/__mock/data');
      const post = await send('POST', '/__mock/data', exported.text);
      expect(post.status, post.text.slice(0, 500)).toBe(200);
    },
    scaled(60_000),
  );

  it('PUT of a file with a delivered reply request: REST shows the AGENT message; reset returns to it', async () => {
    const requestId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const data = scenario()
      .organization('org_http')
      .key({ key: 'http_reporting_key', profile: 'reporting' })
      .action({ actionId: '000123', messages: [userSays('Anyone?', '-1d')] })
      .replyRequest({ requestId, state: 'delivered', text: 'Yes, here', updatedAt: '-2h' })
      .build();
    expect((await send('PUT', '/__mock/data', JSON.stringify(data))).status).toBe(200);
    const read = async (): Promise<unknown[]> => {
      const response = await fetch(`${mock.url}/v0/action/000123`, {
        headers: { 'x-api-key': 'http_reporting_key' },
      });
      const body = (await response.json()) as { messages?: { authorType: string; message: string }[] };
      return (body.messages ?? []).filter((m) => m.authorType === 'AGENT').map((m) => m.message);
    };
    expect(await read()).toEqual(['Yes, here']);
    const exported = JSON.parse((await send('GET', '/__mock/data')).text) as {
      replyRequests: { requestId: string }[];
    };
    expect(exported.replyRequests.map((r) => r.requestId)).toEqual([requestId]);
    // A merge may not redefine a request that exists (like a moderation case): 422, nothing changes.
    const clash = await send('POST', '/__mock/data', JSON.stringify(data));
    expect(clash.status).toBe(422);
    expect(clash.text).toContain('/replyRequests/0/requestId');
    expect((await send('POST', '/__mock/reset', '{}')).status).toBe(200);
    expect(await read()).toEqual(['Yes, here']);
  });

  it('a body declared over the data file cap is answered 413 before it is read', async () => {
    expect(await declaredOnly('PUT', MAX_DATA_FILE_BYTES + 1)).toMatch(/^HTTP\/1\.1 413/);
    expect(await declaredOnly('POST', MAX_DATA_FILE_BYTES + 1)).toMatch(/^HTTP\/1\.1 413/);
  });

  it('other admin routes keep the engine limit of 1 MiB', async () => {
    const status = await send('POST', '/__mock/reset', JSON.stringify({ pad: 'x'.repeat(ONE_MIB) }));
    expect(status.status).toBe(413);
  });
});
