/**
 * `cca-kit/msw` under `setupServer` (msw/node) with a real `fetch`: the same engine rules as the HTTP
 * mock (auth, paging, custom-field writes read back, the moderation lifecycle driven by the engine
 * clock), admin operations called without HTTP, and every answer valid against the contract.
 */
import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { createHandlers, type Violation } from '../mocks/msw/index.ts';
import { type OperationId, validateResponse } from '../src/contract/index.ts';
import { keyOf as seededKey } from './support/keys.ts';

const BASE = 'https://api.cca.test';
const START = Date.parse('2026-11-20T12:00:00Z');

const mock = createHandlers({
  baseUrl: BASE,
  seed: 42,
  selfCheck: true,
  clock: new MockClock({ start: START }),
});
const server = setupServer(...mock.handlers);

const keyOf = (organizationId: string, profile: string, status = 'active'): string =>
  seededKey(mock.admin, organizationId, profile, status);

/** Calls the API through MSW, checks the answer against the contract, returns status and body. */
async function call(
  operationId: OperationId,
  path: string,
  key: string | null,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (key !== null) headers['x-api-key'] = key;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${BASE}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  const validation = validateResponse(operationId, response.status, body);
  if (response.status !== 401 && response.status !== 403) {
    expect(validation, `${operationId} ${response.status}`).toEqual({ ok: true });
  }
  return { status: response.status, body };
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('MSW handlers in node (setupServer + fetch)', () => {
  it('AUTH-MISSING-KEY-401 / AUTH-INVALID-KEY-401 / AUTH-REVOKED-KEY-401-AT-ONCE: bad keys get 401', async () => {
    expect((await call('listAgents', '/v0/agents', null)).status).toBe(401);
    expect((await call('listAgents', '/v0/agents', 'not-a-key')).status).toBe(401);
    expect((await call('listAgents', '/v0/agents', keyOf('org_acme', 'read_write', 'revoked'))).status).toBe(
      401,
    );
    const missing = await call('listAgents', '/v0/agents', null);
    expect(missing.body).toMatchObject({ success: false });
  });

  it('AUTH-READ-KEY-WRITE-ROUTE-403 / AUTH-IMPORT-KEY-NO-REPORTING-403: a key without the scope gets 403', async () => {
    const reporting = keyOf('org_acme', 'reporting');
    const list = await call('listActions', '/v0/action/list?pageSize=1', reporting);
    const actionId = String((list.body['data'] as { actionId: string }[])[0]?.actionId);
    const patch = await call(
      'updateCustomFields',
      `/v0/actions/${encodeURIComponent(actionId)}/custom-fields`,
      reporting,
      { method: 'PATCH', body: { fields: [{ fieldName: 'order_number', value: 'X' }] } },
    );
    expect(patch.status).toBe(403);
    expect((await call('listAgents', '/v0/agents', keyOf('org_acme', 'import'))).status).toBe(403);
  });

  it('LIST-PAGESIZE-BOUNDS-DATA / SEARCH-PAGE-ECHO: pages are bounded, echoed and disjoint', async () => {
    const key = keyOf('org_acme', 'reporting');
    const list = await call('listActions', '/v0/action/list?pageSize=7', key);
    expect(list.status).toBe(200);
    expect((list.body['data'] as unknown[]).length).toBeLessThanOrEqual(7);
    expect(list.body['pageSize']).toBe(7);

    const page1 = await call('searchConversations', '/v0/conversations/search?page=1&pageSize=10', key);
    const page2 = await call('searchConversations', '/v0/conversations/search?page=2&pageSize=10', key);
    expect(page1.body['currentPage']).toBe(1);
    expect(page2.body['currentPage']).toBe(2);
    const ids1 = (page1.body['data'] as { actionId: string }[]).map((a) => a.actionId);
    const ids2 = (page2.body['data'] as { actionId: string }[]).map((a) => a.actionId);
    expect(ids1).toHaveLength(10);
    expect(ids2.length).toBeGreaterThan(0);
    expect(ids1.filter((id) => ids2.includes(id))).toEqual([]);
  });

  it('CF-PATCH-PERSISTS: a custom-field write is read back', async () => {
    const key = keyOf('org_acme', 'read_write');
    const list = await call('listActions', '/v0/action/list?pageSize=1', key);
    const actionId = String((list.body['data'] as { actionId: string }[])[0]?.actionId);
    const path = `/v0/actions/${encodeURIComponent(actionId)}/custom-fields`;
    const before = await call('getCustomFields', path, key);
    const text = (before.body['fields'] as { fieldName: string; fieldType: string }[]).find(
      (f) => f.fieldType === 'text',
    );
    if (text === undefined) throw new Error('the seeded organization has no text custom field');
    const written = await call('updateCustomFields', path, key, {
      method: 'PATCH',
      body: { fields: [{ fieldName: text.fieldName, value: 'written through MSW', confidence: 0.9 }] },
    });
    expect(written.status).toBe(200);
    expect(written.body['actionId']).toBe(actionId);
    const after = await call('getCustomFields', path, key);
    const field = (after.body['fields'] as { fieldName: string; value: unknown }[]).find(
      (f) => f.fieldName === text.fieldName,
    );
    expect(field?.value).toBe('written through MSW');
  });

  it('MOD-NEW-CASE-PENDING / MOD-DECISION-ONLY-WHEN-COMPLETED: a case moves on when the test advances the engine clock', async () => {
    const write = keyOf('org_acme', 'write');
    const read = keyOf('org_acme', 'reporting');
    const ack = await call('submitModerationCase', '/v0/moderation/cases', write, {
      method: 'POST',
      body: sampleSubmission({ externalId: 'msw-node-lifecycle' }),
    });
    expect(ack.status).toBe(202);
    expect(ack.body['analysisStatus']).toBe('pending');
    const path = `/v0/moderation/cases/${encodeURIComponent(String(ack.body['caseId']))}`;

    const pending = await call('getModerationCase', path, read);
    expect(pending.body['analysisStatus']).toBe('pending');
    expect(pending.body).not.toHaveProperty('decision');

    mock.admin.advanceClock(1500);
    const running = await call('getModerationCase', path, read);
    expect(running.body['analysisStatus']).toBe('running');
    expect(running.body).not.toHaveProperty('decision');

    mock.admin.advanceClock(5000);
    const completed = await call('getModerationCase', path, read);
    expect(completed.body['analysisStatus']).toBe('completed');
    expect(completed.body['decision']).toMatchObject({ disposition: expect.any(String) });
  });

  it('admin without HTTP: moderation mode, new keys and reset act on the same engine', async () => {
    const globexWrite = keyOf('org_globex', 'write');
    const submit = () =>
      call('submitModerationCase', '/v0/moderation/cases', globexWrite, {
        method: 'POST',
        body: sampleSubmission({ externalId: 'msw-node-mode' }),
      });
    expect((await submit()).status).toBe(403);
    mock.admin.setModerationMode('org_globex', 'ad_policy');
    expect((await submit()).status).toBe(202);

    const created = mock.admin.createKey({ organizationId: 'org_globex', profile: 'reporting' });
    expect((await call('listQueues', '/v0/queues', created.key)).status).toBe(200);

    mock.admin.reset();
    expect((await call('listQueues', '/v0/queues', created.key)).status).toBe(401);
    expect(mock.admin.listOrganizations().find((o) => o.id === 'org_globex')?.moderationMode).toBe(
      'standard',
    );
  });

  it('a base URL with a path prefix reaches the same kind of engine; two handler sets share no state', async () => {
    const other = createHandlers({ baseUrl: 'http://localhost:5173/api', seed: 42, clock: 'frozen' });
    server.use(...other.handlers);
    const key = other.admin.listKeys('org_acme').find((k) => k.profile === 'reporting')?.key ?? '';
    const response = await fetch('http://localhost:5173/api/v0/agents', { headers: { 'x-api-key': key } });
    expect(response.status).toBe(200);
    const created = other.admin.createKey({ organizationId: 'org_acme', profile: 'reporting' });
    expect(mock.admin.listKeys().some((k) => k.key === created.key)).toBe(false);
  });

  it('types: MSW handlers, a typed admin, baseUrl required', () => {
    expectTypeOf(mock.handlers).toEqualTypeOf<HttpHandler[]>();
    expectTypeOf(mock.admin.violations).returns.toEqualTypeOf<readonly Violation[]>();
    expectTypeOf(mock.admin.advanceClock).parameter(0).toBeNumber();
    expectTypeOf(createHandlers).parameter(0).toHaveProperty('baseUrl').toBeString();
  });

  it('the engine self-check saw no response in violation of the contract', () => {
    expect(mock.engine.selfCheckFailures).toEqual([]);
    expect(mock.engine.unexpectedErrors).toEqual([]);
  });
});
