import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import type { CreatedKeyView, KeyView } from '../mocks/engine/index.ts';
import { sampleSubmission } from '../mocks/engine/moderation/index.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { isSchema, type Operation, operations } from '../src/contract/index.ts';

let mock: MockServer;
let keys: readonly KeyView[];

const START = Date.parse('2026-11-20T12:00:00Z');

beforeAll(async () => {
  mock = await startMockServer({
    seed: 42,
    actions: 200,
    selfCheck: true,
    clock: new MockClock({ start: START }),
  });
  keys = mock.engine.admin.listKeys();
});

afterAll(async () => {
  await mock.close();
});

/** Operations behind a key (every /v0 route). */
const guarded = [...operations.values()].filter((op) => op.requiredScope !== null);

const pathOf = (op: Operation) => op.pathTemplate.replaceAll(/\{[^}]+\}/g, 'x1');

function call(op: Operation, key: string | undefined, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (key !== undefined) headers.set('x-api-key', key);
  const body = op.requestBodySchema === undefined ? null : '{}';
  if (body !== null && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${mock.url}${pathOf(op)}`, { method: op.method, body, ...init, headers });
}

function keyOf(org: string, profile: string, status = 'active'): string {
  const found = keys.find((k) => k.organizationId === org && k.profile === profile && k.status === status);
  if (found === undefined) throw new Error(`no ${status} ${profile} key for ${org} in the seed`);
  return found.key ?? '';
}

async function expectError(response: Response, status: number): Promise<{ success: false; error: string }> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body: unknown = await response.json();
  expect(isSchema('ErrorBody', body), JSON.stringify(body)).toBe(true);
  return body as { success: false; error: string };
}

describe('keys (section 5)', () => {
  it('AUTH-MISSING-KEY-401: every /v0 operation answers 401 without X-API-Key', async () => {
    expect(guarded).toHaveLength(17);
    for (const op of guarded) await expectError(await call(op, undefined), 401);
  });

  it('AUTH-INVALID-KEY-401: every /v0 operation answers 401 to an unknown key', async () => {
    for (const op of guarded) await expectError(await call(op, 'cca_live_not_a_key'), 401);
  });

  it('AUTH-EXPIRED-KEY-401: every /v0 operation answers 401 to an expired key', async () => {
    const expired = keyOf('org_acme', 'reporting', 'expired');
    for (const op of guarded) {
      const body = await expectError(await call(op, expired), 401);
      expect(body.error).toMatch(/expired/);
    }
  });

  it('AUTH-REVOKED-KEY-401-AT-ONCE: a seeded revoked key and a key revoked just now both get 401', async () => {
    const revoked = keyOf('org_acme', 'read_write', 'revoked');
    for (const op of guarded) await expectError(await call(op, revoked), 401);

    const created = await fetch(`${mock.url}/__mock/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organizationId: 'org_acme', profile: 'reporting' }),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: CreatedKeyView };
    const agents = operations.get('listAgents');
    if (agents === undefined) throw new Error('listAgents missing');
    expect((await call(agents, key.key)).status).not.toBe(401);
    const revoke = await fetch(`${mock.url}/__mock/keys/${encodeURIComponent(key.key)}/revoke`, {
      method: 'POST',
    });
    expect(revoke.status).toBe(200);
    await expectError(await call(agents, key.key), 401);
  });

  it('MOCK-SCOPE-403-ALL-ROUTES: a key lacking the x-required-scope gets 403 on every operation', async () => {
    const lacking: Record<string, readonly string[]> = {
      read: ['write', 'import'],
      write: ['reporting', 'import'],
      ingest: ['reporting', 'write', 'read_write'],
    };
    let checked = 0;
    for (const op of guarded) {
      for (const profile of lacking[op.requiredScope ?? ''] ?? []) {
        const body = await expectError(await call(op, keyOf('org_acme', profile)), 403);
        expect(body.error).toContain(op.operationId);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(34);
  });

  it('AUTH-READ-KEY-WRITE-ROUTE-403, AUTH-WRITE-KEY-NO-INGEST-403, AUTH-IMPORT-KEY-NO-REPORTING-403', async () => {
    const byId = (id: string) => {
      const op = operations.get(id);
      if (op === undefined) throw new Error(id);
      return op;
    };
    await expectError(await call(byId('updateCustomFields'), keyOf('org_acme', 'reporting')), 403);
    await expectError(await call(byId('submitModerationCase'), keyOf('org_acme', 'reporting')), 403);
    await expectError(await call(byId('ingestRecords'), keyOf('org_acme', 'write')), 403);
    await expectError(await call(byId('ingestRecords'), keyOf('org_acme', 'reporting')), 403);
    await expectError(await call(byId('listActions'), keyOf('org_acme', 'import')), 403);
  });

  it('MOCK-NO-AD-POLICY-403 / MOD-AD-POLICY-MODE-REQUIRED: moderation routes refuse a standard-mode organization', async () => {
    const moderation = guarded.filter((op) => op.requiresModerationMode === 'ad_policy');
    // Decided by the contract's x-requires-moderation-mode, not by hand: at least both submissions.
    expect(moderation.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['submitModerationCase', 'submitModerationBatch']),
    );
    for (const op of moderation) {
      const body = (await expectError(await call(op, keyOf('org_globex', 'read_write')), 403)) as Record<
        string,
        unknown
      >;
      expect(body['supported']).toEqual(['ad_policy']);
      expect(isSchema('ModerationErrorBody', body)).toBe(true);
    }
  });

  it('AUTH-READ-KEY-READ-ROUTES, AUTH-READ-WRITE-KEY-BOTH: reporting and read_write keys pass every read operation', async () => {
    const get = async (path: string, key: string) => {
      const response = await fetch(`${mock.url}${path}`, { headers: { 'x-api-key': key } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const reporting = keyOf('org_acme', 'reporting');
    const list = await get('/v0/action/list?fullFilter=', reporting);
    const actionId = String(
      (list.body['data'] as { actionId: string }[] | undefined)?.[0]?.actionId ?? 'none',
    );
    const agents = await get('/v0/agents', reporting);
    const agentId = String(
      (agents.body['data'] as { agentId: string }[] | undefined)?.[0]?.agentId ?? 'none',
    );
    const ids: Record<string, string> = { id: actionId, actionId, caseId: 'mc_does_not_exist' };
    for (const key of [reporting, keyOf('org_acme', 'read_write')]) {
      for (const op of guarded.filter((o) => o.requiredScope === 'read')) {
        const path = op.pathTemplate
          .replace('/v0/agents/{id}', `/v0/agents/${encodeURIComponent(agentId)}`)
          .replaceAll(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? 'x'));
        const { status } = await get(path, key);
        expect([200, 404], `${op.operationId} ${path}`).toContain(status);
        if (op.operationId !== 'getModerationCase') expect(status, `${op.operationId} ${path}`).toBe(200);
      }
    }
  });

  it('MOCK-AUTH-CHECKED-FIRST: a missing key wins over an invalid parameter or body', async () => {
    const response = await fetch(`${mock.url}/v0/action/list?pageSize=0`);
    await expectError(response, 401);
    const post = await fetch(`${mock.url}/v0/moderation/cases`, { method: 'POST', body: '{not json' });
    await expectError(post, 401);
  });
});

describe('bad input', () => {
  const write = () => keyOf('org_acme', 'read_write');

  it('MOCK-UNKNOWN-PATH-404: an unknown path is a 404 with the general body', async () => {
    for (const path of ['/v0/nothing', '/v1/agents', '/', '/v0/agents/a/b', '/docs/nothing']) {
      const body = await expectError(
        await fetch(`${mock.url}${path}`, { headers: { 'x-api-key': write() } }),
        404,
      );
      expect(body.error).toContain('No operation matches');
    }
  });

  it('MOCK-WRONG-METHOD-405: a known path with another method is a 405 with Allow', async () => {
    const response = await fetch(`${mock.url}/v0/agents`, {
      method: 'DELETE',
      headers: { 'x-api-key': write() },
    });
    await expectError(response, 405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    const patch = await fetch(`${mock.url}/v0/moderation/cases`, { method: 'PUT' });
    await expectError(patch, 405);
    expect(patch.headers.get('allow')).toBe('POST');
  });

  it('MOCK-MALFORMED-JSON-400: malformed JSON on every body operation is a 400 naming the operation', async () => {
    for (const op of guarded.filter((o) => o.requestBodySchema !== undefined)) {
      const key = op.requiredScope === 'ingest' ? keyOf('org_acme', 'import') : write();
      const body = await expectError(await call(op, key, { body: '{"fields": [' }), 400);
      expect(body.error).toContain(op.operationId);
      expect(body.error).toContain('malformed JSON');
    }
  });

  it('MOCK-UNSUPPORTED-MEDIA-TYPE-415: a non-JSON content type is a 415', async () => {
    for (const op of guarded.filter((o) => o.requestBodySchema !== undefined)) {
      const key = op.requiredScope === 'ingest' ? keyOf('org_acme', 'import') : write();
      await expectError(await call(op, key, { headers: { 'content-type': 'text/plain' }, body: '{}' }), 415);
    }
  });

  it('MOCK-BODY-LIMIT-413: a body over 1 MiB is a 413, with or without Content-Length', async () => {
    const big = `{"x":"${'a'.repeat(1024 * 1024)}"}`;
    const op = operations.get('submitModerationCase');
    if (op === undefined) throw new Error('submitModerationCase');
    await expectError(await call(op, write(), { body: big }), 413);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode('a'.repeat(64 * 1024)));
        controller.close();
      },
    });
    const streamed = await fetch(`${mock.url}/v0/moderation/cases`, {
      method: 'POST',
      headers: { 'x-api-key': write(), 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    await expectError(streamed, 413);
  });

  it('MOCK-QUERY-INVALID-400: an invalid query parameter is a 400 naming it', async () => {
    const response = await fetch(`${mock.url}/v0/action/list?pageSize=501`, {
      headers: { 'x-api-key': keyOf('org_acme', 'reporting') },
    });
    const body = await expectError(response, 400);
    expect(body.error).toContain('query parameter pageSize must be <= 500 (got 501)');
    const search = await fetch(`${mock.url}/v0/conversations/search?page=0`, {
      headers: { 'x-api-key': keyOf('org_acme', 'reporting') },
    });
    expect((await expectError(search, 400)).error).toContain('page');
  });

  const postJson = (path: string, key: string, body: unknown, method = 'POST') =>
    fetch(`${mock.url}${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('MOCK-MODERATION-INCOMPLETE-400: a missing required field is 400 with missingFields', async () => {
    const submission = sampleSubmission({
      media: [{ url: 'https://cdn.example/a.jpg', position: 1 }],
      targeting: { ageMin: 18 },
    });
    const response = await postJson('/v0/moderation/cases', write(), submission);
    const body = (await expectError(response, 400)) as Record<string, unknown>;
    expect(body['code']).toBe('MODERATION_INPUT_INCOMPLETE');
    expect(body['missingFields']).toEqual(expect.arrayContaining(['media[0].type', 'targeting.geos']));
  });

  it('MOCK-MODERATION-INVALID-422: a present but invalid value is 422 with invalidFields', async () => {
    const submission = sampleSubmission({ callToAction: 'CLICK_HERE', externalId: 'x'.repeat(257) });
    const response = await postJson('/v0/moderation/cases', write(), submission);
    const body = (await expectError(response, 422)) as Record<string, unknown>;
    expect(body['code']).toBe('MODERATION_INPUT_INVALID');
    expect(body['invalidFields']).toEqual(expect.arrayContaining(['callToAction', 'externalId']));
  });

  it('SCOPE-MODERATION-BATCH-WRITE envelope: cases outside 1..100 or not an array is 400', async () => {
    await expectError(await postJson('/v0/moderation/cases/batch', write(), { cases: [] }), 400);
    await expectError(await postJson('/v0/moderation/cases/batch', write(), { cases: {} }), 400);
    const tooMany = {
      cases: Array.from({ length: 101 }, (_, i) => sampleSubmission({ externalId: `e${i}` })),
    };
    await expectError(await postJson('/v0/moderation/cases/batch', write(), tooMany), 400);
    const mixed = await postJson('/v0/moderation/cases/batch', write(), {
      cases: [sampleSubmission(), { nope: 1 }],
    });
    expect(mixed.status).toBe(202);
  });

  it('ERR-CUSTOM-FIELD-422-FIELDERRORS: an invalid custom-field PATCH body is 422 with fieldErrors', async () => {
    const response = await postJson(
      '/v0/actions/x1/custom-fields',
      write(),
      { fields: [{ fieldName: 'priority', value: 1, confidence: 2 }] },
      'PATCH',
    );
    const body = (await expectError(response, 422)) as Record<string, unknown>;
    expect(body['fieldErrors']).toEqual({ priority: expect.stringContaining('confidence must be <= 1') });
    const empty = await postJson('/v0/actions/x1/custom-fields', write(), { fields: [] }, 'PATCH');
    expect(((await expectError(empty, 422)) as Record<string, unknown>)['fieldErrors']).toBeDefined();
  });

  it('ING-RECORD-AUTHORID-REQUIRED: an invalid ingestion batch is 422 naming the field', async () => {
    const batch = {
      platform: 'DISCORD',
      serverId: 's1',
      serverName: 'Server',
      records: [
        {
          externalId: 'r1',
          authorName: 'A',
          body: 'hi',
          createdAt: '2026-11-20T00:00:00Z',
          recordType: 'message',
        },
      ],
    };
    const response = await postJson('/v0/ingest/records', keyOf('org_acme', 'import'), batch);
    const body = await expectError(response, 422);
    expect(body.error).toContain('records[0].authorId is required');
  });

  it('answers a malformed HTTP request with 400 and keeps serving', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(mock.port, '127.0.0.1', () => socket.write('GARBAGE \u0001\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk.toString();
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400/);
    const after = await fetch(`${mock.url}/docs/json`);
    expect(after.status).toBe(200);
  });
});

describe('docs and self-check', () => {
  it('DOCS-OPENAPI-JSON, MOCK-DOCS-WITHOUT-KEY: /docs/json is the contract with servers pointing at the mock', async () => {
    const response = await fetch(`${mock.url}/docs/json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const doc = (await response.json()) as { openapi: string; servers: { url: string }[]; paths: object };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]?.url).toBe(mock.url);
    expect(Object.keys(doc.paths)).toContain('/v0/action/list');
  });

  it('DOCS-SWAGGER-UI: /docs is Swagger UI HTML whose assets are served from swagger-ui-dist', async () => {
    const response = await fetch(`${mock.url}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('SwaggerUIBundle(');
    expect(html).toContain('/docs/json');
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']) {
      expect(html).toContain(`/docs/${asset}`);
      const file = await fetch(`${mock.url}/docs/${asset}`);
      expect(file.status).toBe(200);
      expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
  });

  it('the documents the Authorize button needs: an X-API-Key apiKey scheme applied to the operations', async () => {
    const doc = (await (await fetch(`${mock.url}/docs/json`)).json()) as {
      components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
    };
    expect(Object.values(doc.components.securitySchemes)).toContainEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    );
  });

  it('self-check is on and found no violation and no unexpected error in this file', () => {
    expect(mock.engine.options.selfCheck).toBe(true);
    expect(mock.engine.selfCheckFailures).toEqual([]);
    expect(mock.engine.unexpectedErrors).toEqual([]);
  });
});
