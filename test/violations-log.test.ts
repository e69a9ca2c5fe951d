/**
 * The violation log over HTTP (`GET/DELETE /__mock/violations`) and in-process: what an SDK author's
 * test suite asserts to prove its client sent only valid requests, and the precision-loss signature
 * of a client that parsed ids as numbers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../mocks/engine/engine.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import {
  createViolationLog,
  printedAfterDoubleParse,
  REDACTED,
  type Violation,
} from '../mocks/engine/violations/index.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { keyOf as seededKey } from './support/keys.ts';

let mock: MockServer;

const keyOf = (organizationId: string, profile: string): string =>
  seededKey(mock.engine.admin, organizationId, profile);

async function api(
  path: string,
  key: string | null,
  init: { method?: string; body?: string; contentType?: string } = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {};
  if (key !== null) headers['x-api-key'] = key;
  if (init.body !== undefined) headers['content-type'] = init.contentType ?? 'application/json';
  const response = await fetch(`${mock.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  return { status: response.status, body: await response.json() };
}

interface LogPage {
  readonly violations: Violation[];
  readonly total: number;
  readonly retained: number;
  readonly dropped: number;
  readonly capacity: number;
}

async function violations(query = ''): Promise<LogPage> {
  const response = await fetch(`${mock.url}/__mock/violations${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as LogPage;
}

/** An action id of org_acme whose spelling matches `pattern` (seeded ids above 2^53, or with leading zeros). */
async function actionIdLike(pattern: RegExp): Promise<string> {
  const list = await api('/v0/action/list?pageSize=500&from=2000-01-01', keyOf('org_acme', 'reporting'));
  const found = (list.body as { data: { actionId: string }[] }).data
    .map((a) => a.actionId)
    .find((id) => pattern.test(id));
  if (found === undefined) throw new Error(`no seeded action id matches ${pattern}`);
  return found;
}

beforeAll(async () => {
  mock = await startMockServer({ seed: 42, selfCheck: true, interceptors: [createViolationLog()] });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(async () => {
  const cleared = await fetch(`${mock.url}/__mock/violations`, { method: 'DELETE' });
  expect(cleared.status).toBe(200);
});

describe('violation log: GET /__mock/violations', () => {
  it('records nothing for valid requests', async () => {
    const key = keyOf('org_acme', 'reporting');
    expect((await api('/v0/agents', key)).status).toBe(200);
    expect((await api('/v0/action/list?pageSize=3', key)).status).toBe(200);
    expect((await api('/docs/json', null)).status).toBe(200);
    expect((await violations()).violations).toEqual([]);
  });

  it('LIST-PAGESIZE-RANGE: an invalid query parameter is recorded with its operation, pointer and the request, key redacted', async () => {
    const key = keyOf('org_acme', 'reporting');
    expect((await api('/v0/action/list?pageSize=0', key)).status).toBe(400);
    const page = await violations();
    expect(page.violations).toHaveLength(1);
    const [entry] = page.violations;
    expect(entry).toMatchObject({
      kind: 'invalid-request',
      operationId: 'listActions',
      status: 400,
      intendedId: null,
      issues: [{ location: 'query', pointer: 'pageSize', field: 'pageSize', keyword: 'minimum' }],
      request: { method: 'GET', body: null, bodyTruncated: false },
    });
    expect(entry?.request.url).toBe(`${mock.url}/v0/action/list?pageSize=0`);
    expect(entry?.request.headers['x-api-key']).toBe(REDACTED);
    expect(JSON.stringify(page)).not.toContain(key);
  });

  it('ING-RECORD-SCORE-RANGE: an invalid body is recorded with the body pointer and the body text', async () => {
    const batch = {
      platform: 'SLACK',
      serverId: 'srv-1',
      serverName: 'Support',
      records: [
        {
          externalId: 'r1',
          authorId: 'u1',
          authorName: 'Ann',
          body: 'hi',
          createdAt: '2026-11-20T10:00:00Z',
          recordType: 'message',
          score: 7,
        },
      ],
    };
    const text = JSON.stringify(batch);
    expect(
      (await api('/v0/ingest/records', keyOf('org_acme', 'import'), { method: 'POST', body: text })).status,
    ).toBe(422);
    const [entry] = (await violations()).violations;
    expect(entry?.operationId).toBe('ingestRecords');
    expect(entry?.issues).toContainEqual(
      expect.objectContaining({ location: 'body', pointer: '/records/0/score', keyword: 'maximum' }),
    );
    expect(entry?.request.body).toBe(text);
  });

  it('keeps at most 4096 characters of a body (bodyTruncated)', async () => {
    const text = JSON.stringify({ platform: 'SLACK', serverName: 'x'.repeat(10_000), records: [] });
    await api('/v0/ingest/records', keyOf('org_acme', 'import'), { method: 'POST', body: text });
    const [entry] = (await violations()).violations;
    expect(entry?.request.bodyTruncated).toBe(true);
    expect(entry?.request.body).toBe(text.slice(0, 4096));
  });

  it('MOCK-MALFORMED-JSON-400 / AUTH-MISSING-KEY-401 / MOCK-UNKNOWN-PATH-404 / MOCK-WRONG-METHOD-405: malformed requests are recorded', async () => {
    const key = keyOf('org_acme', 'import');
    expect((await api('/v0/ingest/records', key, { method: 'POST', body: '{"platform":' })).status).toBe(400);
    expect((await api('/v0/agents', null)).status).toBe(401);
    expect((await api('/v0/no-such-thing', key)).status).toBe(404);
    expect((await api('/v0/agents', key, { method: 'DELETE' })).status).toBe(405);
    expect(
      (await api('/v0/ingest/records', key, { method: 'POST', body: 'a=b', contentType: 'text/plain' }))
        .status,
    ).toBe(415);
    const page = await violations('?kind=malformed-request');
    expect(page.violations.map((v) => v.issues[0]?.keyword)).toEqual([
      'MALFORMED_JSON',
      'KEY_MISSING',
      'ROUTE_NOT_FOUND',
      'METHOD_NOT_ALLOWED',
      'UNSUPPORTED_MEDIA_TYPE',
    ]);
    expect(page.violations[1]?.issues[0]).toMatchObject({ location: 'header', pointer: 'X-API-Key' });
    // A body that could not be read as JSON is not kept (the engine stops at the parse error).
    expect(page.violations[0]?.request.method).toBe('POST');
  });

  it('MOD-BATCH-ITEM-ISOLATION: an invalid item of a moderation batch is recorded with its pointer under /cases/i', async () => {
    const body = {
      cases: [
        sampleSubmission({ externalId: 'batch-ok' }),
        sampleSubmission({ externalId: 'batch-bad', media: [] }),
      ],
    };
    const answer = await api('/v0/moderation/cases/batch', keyOf('org_acme', 'write'), {
      method: 'POST',
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(202);
    const [entry] = (await violations('?operationId=submitModerationBatch')).violations;
    expect(entry?.kind).toBe('invalid-request');
    expect(entry?.issues).toContainEqual(
      expect.objectContaining({ pointer: '/cases/1/media', keyword: 'minItems' }),
    );
  });

  it('DELETE /__mock/violations empties the log; seq keeps counting; ?since= polls', async () => {
    const key = keyOf('org_acme', 'reporting');
    await api('/v0/action/list?pageSize=0', key);
    await api('/v0/action/list?pageSize=501', key);
    const before = await violations();
    expect(before.violations).toHaveLength(2);
    const firstSeq = before.violations[0]?.seq ?? 0;
    expect((await violations(`?since=${firstSeq}`)).violations).toHaveLength(1);
    const cleared = await fetch(`${mock.url}/__mock/violations`, { method: 'DELETE' });
    expect(await cleared.json()).toEqual({ cleared: 2 });
    expect((await violations()).violations).toEqual([]);
    await api('/v0/action/list?pageSize=0', key);
    expect((await violations()).violations[0]?.seq).toBe(firstSeq + 2);
  });
});

describe('violation log: precision loss (ID-STRING-PRESERVED)', () => {
  it('an agent id above 2^53 sent back as a double prints names the intended id', async () => {
    const sent = printedAfterDoubleParse('9007199254740993123');
    expect(sent).toBe('9007199254740993000');
    expect((await api(`/v0/agents/${sent}`, keyOf('org_acme', 'reporting'))).status).toBe(404);
    const [entry] = (await violations('?kind=precision-loss')).violations;
    expect(entry).toMatchObject({
      kind: 'precision-loss',
      operationId: 'getAgent',
      status: 404,
      intendedId: '9007199254740993123',
      issues: [{ location: 'path', pointer: 'id', keyword: 'precision-loss' }],
    });
    expect(entry?.issues[0]?.message).toContain('9007199254740993123');
  });

  it('an agent id with leading zeros sent back as a number names the intended id', async () => {
    expect((await api('/v0/agents/417', keyOf('org_acme', 'reporting'))).status).toBe(404);
    expect((await violations('?kind=precision-loss')).violations[0]?.intendedId).toBe('000417');
  });

  it('an action id above 2^53 mangled in getAction and in the custom-field routes', async () => {
    const id = await actionIdLike(/^[1-9]\d{18}$/);
    const sent = printedAfterDoubleParse(id);
    expect(sent).not.toBe(id);
    const key = keyOf('org_acme', 'read_write');
    expect((await api(`/v0/action/${sent}`, key)).status).toBe(404);
    expect((await api(`/v0/actions/${sent}/custom-fields`, key)).status).toBe(404);
    const found = (await violations('?kind=precision-loss')).violations;
    expect(found.map((v) => [v.operationId, v.intendedId])).toEqual([
      ['getAction', id],
      ['getCustomFields', id],
    ]);
  });

  it('an action id with leading zeros sent back as a number', async () => {
    const id = await actionIdLike(/^00\d+$/);
    expect(
      (await api(`/v0/action/${printedAfterDoubleParse(id)}`, keyOf('org_acme', 'reporting'))).status,
    ).toBe(404);
    expect((await violations('?kind=precision-loss')).violations[0]?.intendedId).toBe(id);
  });

  it('ORG-OTHER-ORG-ID-NOT-RESOLVED: no precision loss is claimed for ids that are simply unknown or of another organization', async () => {
    expect((await api('/v0/agents/12345', keyOf('org_acme', 'reporting'))).status).toBe(404);
    expect((await api('/v0/agents/9007199254740993000', keyOf('org_globex', 'reporting'))).status).toBe(404);
    expect((await violations('?kind=precision-loss')).violations).toEqual([]);
  });
});

describe('violation log: in-process', () => {
  it('is a ring buffer: the oldest entries are dropped beyond its capacity', async () => {
    const log = createViolationLog({ capacity: 3 });
    const engine = createEngine({ seed: 42, interceptors: [log] });
    const key = engine.admin.listKeys('org_acme').find((k) => k.profile === 'reporting')?.key ?? '';
    for (let i = 0; i < 5; i++) {
      await engine.handle(
        new Request(`http://mock/v0/action/list?pageSize=${600 + i}`, { headers: { 'x-api-key': key } }),
      );
    }
    expect(log.list().map((v) => v.seq)).toEqual([3, 4, 5]);
    expect(log.stats()).toEqual({ capacity: 3, total: 5, retained: 3, dropped: 2 });
    expect(() => createViolationLog({ capacity: 0 })).toThrow(/capacity must be a positive integer/);
  });

  it('answers 404 on /__mock/violations when the engine has no log', async () => {
    const engine = createEngine({ seed: 42, actions: 10 });
    const response = await engine.handle(new Request('http://mock/__mock/violations'), {
      remoteAddress: '127.0.0.1',
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      success: false,
      error: expect.stringContaining('createViolationLog'),
    });
  });
});
