/**
 * Hardening against garbage (ERR-GENERAL-BODY, ERR-500-MESSAGE, MOCK-UNKNOWN-PATH-404,
 * MOCK-WRONG-METHOD-405, MOCK-MALFORMED-JSON-400, MOCK-UNSUPPORTED-MEDIA-TYPE-415, MOCK-BODY-LIMIT-413):
 * at least 10,000 generated requests per run (`bench/lib/garbage.ts`) go to the real HTTP server over
 * keep-alive connections, 25 at a time. No answer is a 5xx, every JSON error body is a contract
 * `ErrorBody`, the engine records no unexpected throw and no self-check failure, and the server still
 * answers afterwards. Raw malformed HTTP is sent on plain sockets too.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GarbageRequest, garbageRequest } from '../bench/lib/garbage.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { validateSchema } from '../src/contract/index.ts';

const BATCH = 25;
const RUNS = 420;
const seed = process.env['CCA_SEED'] === undefined ? undefined : Number.parseInt(process.env['CCA_SEED'], 10);

interface Outcome {
  readonly status: number;
  readonly problem: string | null;
}

/** What is wrong with one answer, or null. */
function problemOf(
  request: GarbageRequest,
  status: number,
  contentType: string,
  text: string,
): string | null {
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  if (status < 400 || request.method.toUpperCase() === 'HEAD') return null;
  if (!contentType.toLowerCase().startsWith('application/json'))
    return `error ${status} with content type ${contentType}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `error ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  const valid = validateSchema('ErrorBody', body, 'response');
  return valid.ok
    ? null
    : `error ${status} body is not an ErrorBody: ${JSON.stringify(valid.issues).slice(0, 300)}`;
}

describe('hardening: garbage requests never get a 5xx and always a contract error body', () => {
  let mock: MockServer;
  let pool: Pool;
  let keys: string[];
  let ids: string[];
  let sent = 0;
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, seed: 42, selfCheck: true, clock: 'frozen' });
    pool = new Pool(mock.url, {
      connections: 16,
      pipelining: 1,
      headersTimeout: 20_000,
      bodyTimeout: 20_000,
    });
    keys = mock.engine.admin.listKeys().flatMap((k) => (k.key === null ? [] : [k.key]));
    const reader = mock.engine.admin
      .listKeys()
      .find((k) => k.profile === 'read_write' && k.status === 'active');
    const list = await fetch(`${mock.url}/v0/action/list?pageSize=5`, {
      headers: { 'x-api-key': reader?.key ?? '' },
    });
    const page = (await list.json()) as { data?: { actionId: string }[] };
    ids = (page.data ?? []).map((a) => a.actionId);
  });

  afterAll(async () => {
    await pool?.close();
    await mock?.close();
  });

  async function send(request: GarbageRequest): Promise<Outcome> {
    try {
      const response = await pool.request({
        method: request.method,
        path: request.path,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      const text = await response.body.text();
      const contentType = String(response.headers['content-type'] ?? '');
      return {
        status: response.statusCode,
        problem: problemOf(request, response.statusCode, contentType, text),
      };
    } catch (error) {
      // The server may close a connection on purpose (413 with an unread body, a malformed request line);
      // what matters is that it keeps serving, checked after the run.
      return { status: 0, problem: null, ...(error instanceof Error ? {} : {}) };
    }
  }

  it('≥10,000 generated requests: zero 5xx, every JSON error body valid against ErrorBody (ERR-GENERAL-BODY)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(garbageRequest({ keys, ids }, { oddMethods: true }), { minLength: BATCH, maxLength: BATCH }),
        async (batch) => {
          const outcomes = await Promise.all(batch.map(send));
          sent += batch.length;
          outcomes.forEach((outcome, i) => {
            statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
            if (outcome.problem !== null) {
              const request = batch[i];
              throw new Error(`${request?.method} ${request?.path.slice(0, 200)}: ${outcome.problem}`);
            }
          });
        },
      ),
      { numRuns: RUNS, ...(seed === undefined ? {} : { seed }), endOnFailure: true },
    );
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(mock.engine.unexpectedErrors).toEqual([]);
    expect(mock.engine.selfCheckFailures).toEqual([]);
    // Some variety actually reached the handlers and the error catalogue.
    expect([...statuses.keys()].filter((s) => s >= 200 && s < 300).length).toBeGreaterThan(0);
    expect(statuses.get(0) ?? 0).toBeLessThan(sent / 10);
    const after = await fetch(`${mock.url}/v0/action/list`, { headers: { 'x-api-key': keys[0] ?? '' } });
    expect(after.status).toBeLessThan(500);
  });

  it('raw malformed HTTP on a socket is answered 4xx or the socket closed, and the server keeps serving', async () => {
    const lines = fc.sample(
      fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((b) => Buffer.from(b)),
        fc
          .tuple(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 60 }))
          .map(([m, p]) => Buffer.from(`${m} /${p} HTTP/1.1\r\nHost: x\r\n\r\n`)),
        fc.constantFrom(
          Buffer.from('GET / HTTP/9.9\r\n\r\n'),
          Buffer.from(
            'GET /v0/agents HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
          ),
          Buffer.from(
            'POST /v0/ingest/records HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
          ),
          Buffer.from('GET /v0/agents HTTP/1.1\r\nHost: x\r\nX-API-Key: a\x00b\r\n\r\n'),
          Buffer.from('GET /v0/agents HTTP/1.1\r\n Host: folded\r\n\r\n'),
          Buffer.from('\r\n\r\n\r\n'),
        ),
      ),
      { numRuns: 300, ...(seed === undefined ? {} : { seed }) },
    );
    const answers = await Promise.all(
      lines.map(
        (bytes) =>
          new Promise<string>((resolve) => {
            const socket = connect(mock.port, '127.0.0.1');
            let received = '';
            socket.setTimeout(5_000, () => socket.destroy());
            socket.on('data', (chunk) => {
              received += chunk.toString('latin1');
            });
            socket.on('error', () => undefined);
            socket.on('close', () => resolve(received));
            socket.write(bytes);
            socket.end();
          }),
      ),
    );
    for (const answer of answers) {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1];
      if (status !== undefined) expect(Number.parseInt(status, 10)).toBeLessThan(500);
    }
    const after = await fetch(`${mock.url}/v0/action/list`, { headers: { 'x-api-key': keys[0] ?? '' } });
    expect(after.status).toBeLessThan(500);
    expect(mock.engine.unexpectedErrors).toEqual([]);
  });
});
