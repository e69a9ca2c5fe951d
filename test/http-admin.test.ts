import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { type CreatedKeyView, createEngine, type Engine, type KeyView } from '../mocks/engine/index.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const TOKEN = 'admin-token-for-tests';

const newEngine = (): Engine =>
  createEngine({
    seed: 42,
    actions: 100,
    selfCheck: true,
    adminToken: TOKEN,
    clock: new MockClock({ start: START }),
  });

async function admin(
  engine: Engine,
  method: string,
  path: string,
  options: { body?: unknown; remoteAddress?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...options.headers } };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  const response = await engine.handle(new Request(`http://mock.test${path}`, init), {
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function agentsStatus(engine: Engine, key: string): Promise<number> {
  const response = await engine.handle(
    new Request('http://mock.test/v0/agents', { headers: { 'x-api-key': key } }),
    {
      remoteAddress: '127.0.0.1',
    },
  );
  return response.status;
}

describe('admin access', () => {
  it("refuses another site's page on loopback (foreign Origin or a DNS-rebinding Host): it can neither read the journal nor reset", async () => {
    const engine = newEngine();
    const evilOrigin = { headers: { origin: 'https://evil.example' } };
    expect((await admin(engine, 'GET', '/__mock/journal', evilOrigin)).status).toBe(403);
    expect((await admin(engine, 'POST', '/__mock/reset', evilOrigin)).status).toBe(403);
    expect((await admin(engine, 'GET', '/__mock/keys', { headers: { origin: 'null' } })).status).toBe(403);
    const rebound = { headers: { host: 'evil.example:4010' } };
    expect((await admin(engine, 'GET', '/__mock/keys', rebound)).status).toBe(403);
    // A front-end dev server on loopback, the mock's own page and clients without the headers are served.
    for (const headers of [
      { origin: 'http://localhost:5173', host: '127.0.0.1:4010' },
      { origin: 'http://127.0.0.1:4010', host: 'localhost:4010' },
      { origin: 'http://[::1]:4010', host: '[::1]:4010' },
      {},
    ])
      expect((await admin(engine, 'GET', '/__mock/keys', { headers })).status, JSON.stringify(headers)).toBe(
        200,
      );
    // The admin token still opens it from anywhere (a team sandbox behind a proxy).
    const withToken = { headers: { origin: 'https://sandbox.example', 'x-mock-admin-token': TOKEN } };
    expect((await admin(engine, 'GET', '/__mock/keys', withToken)).status).toBe(200);
  });

  it('refuses a non-loopback client without the admin token (403), accepts it with the token', async () => {
    const engine = newEngine();
    const remote = { remoteAddress: '203.0.113.7' };
    expect((await admin(engine, 'GET', '/__mock/keys', remote)).status).toBe(403);
    expect((await admin(engine, 'POST', '/__mock/reset', remote)).status).toBe(403);
    expect(
      (
        await admin(engine, 'GET', '/__mock/keys', {
          ...remote,
          headers: { 'x-mock-admin-token': 'wrong-token' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await admin(engine, 'GET', '/__mock/keys', { ...remote, headers: { 'x-mock-admin-token': TOKEN } }))
        .status,
    ).toBe(200);
    expect(
      (
        await admin(engine, 'GET', '/__mock/keys', {
          ...remote,
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      ).status,
    ).toBe(200);
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('answers loopback clients (IPv4, IPv6, IPv4-mapped) without a token; an unknown address is refused', async () => {
    const engine = newEngine();
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.2']) {
      expect((await admin(engine, 'GET', '/__mock/clock', { remoteAddress })).status).toBe(200);
    }
    const response = await engine.handle(new Request('http://mock.test/__mock/clock'));
    expect(response.status).toBe(403);
  });

  it('lists its routes at /__mock/ and answers unknown admin paths with 404', async () => {
    const engine = newEngine();
    const index = await admin(engine, 'GET', '/__mock/');
    expect(index.status).toBe(200);
    expect(JSON.stringify(index.body)).toContain('/__mock/keys/{key}/revoke');
    expect((await admin(engine, 'GET', '/__mock/nothing')).status).toBe(404);
    expect((await admin(engine, 'DELETE', '/__mock/keys')).status).toBe(405);
  });
});

describe('keys through the admin API', () => {
  it('AUTH-PROFILE-REPORTING-DEFAULT: a key created without a profile is a Reporting key: read only', async () => {
    const engine = newEngine();
    const created = await admin(engine, 'POST', '/__mock/keys', { body: { organizationId: 'org_acme' } });
    expect(created.status).toBe(201);
    const key = created.body['key'] as CreatedKeyView;
    expect(key.profile).toBe('reporting');
    expect(await agentsStatus(engine, key.key)).toBe(200);
    const write = await engine.handle(
      new Request('http://mock.test/v0/moderation/cases', {
        method: 'POST',
        headers: { 'x-api-key': key.key, 'content-type': 'application/json' },
        body: '{}',
      }),
      { remoteAddress: '127.0.0.1' },
    );
    expect(write.status).toBe(403);
  });

  it('AUTH-KEY-EXPIRY-DEFAULT-90-DAYS, AUTH-KEY-EXPIRY-OPTIONS: 30d, 90d (default) and none', async () => {
    const engine = newEngine();
    const create = async (body: Record<string, unknown>) => {
      const result = await admin(engine, 'POST', '/__mock/keys', {
        body: { organizationId: 'org_acme', profile: 'reporting', ...body },
      });
      expect(result.status).toBe(201);
      return result.body['key'] as KeyView;
    };
    expect((await create({})).expiresAt).toBe(new Date(START + 90 * DAY).toISOString());
    expect((await create({ expiry: '30d' })).expiresAt).toBe(new Date(START + 30 * DAY).toISOString());
    expect((await create({ expiry: 'none', name: 'forever' })).expiresAt).toBeNull();
    const bad = await admin(engine, 'POST', '/__mock/keys', {
      body: { organizationId: 'org_acme', profile: 'reporting', expiry: '7d' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body['error']).toContain('expiry must be one of 30d, 90d, none');
    const unknownOrg = await admin(engine, 'POST', '/__mock/keys', {
      body: { organizationId: 'org_nope', profile: 'reporting' },
    });
    expect(unknownOrg.status).toBe(404);
    const badProfile = await admin(engine, 'POST', '/__mock/keys', {
      body: { organizationId: 'org_acme', profile: 'admin' },
    });
    expect(badProfile.status).toBe(400);
  });

  it('AUTH-EXPIRED-KEY-401: a 30-day key works until the clock passes its expiry, then gets 401', async () => {
    const engine = newEngine();
    const key = engine.admin.createKey({ organizationId: 'org_acme', profile: 'reporting', expiry: '30d' });
    expect(key.status).toBe('active');
    expect(await agentsStatus(engine, key.key)).not.toBe(401);
    await admin(engine, 'POST', '/__mock/clock/advance', { body: { ms: 30 * DAY } });
    expect(await agentsStatus(engine, key.key)).toBe(401);
    expect(engine.admin.listKeys().find((k) => k.key === key.key)?.status).toBe('expired');
  });

  it('AUTH-REVOKED-KEY-401-AT-ONCE: revoke takes effect on the next request; unknown keys are 404', async () => {
    const engine = newEngine();
    const key = engine.admin.createKey({ organizationId: 'org_globex', profile: 'read_write' });
    expect(await agentsStatus(engine, key.key)).not.toBe(401);
    const revoked = await admin(engine, 'POST', `/__mock/keys/${encodeURIComponent(key.key)}/revoke`);
    expect(revoked.status).toBe(200);
    expect((revoked.body['key'] as KeyView).status).toBe('revoked');
    expect(await agentsStatus(engine, key.key)).toBe(401);
    expect((await admin(engine, 'POST', '/__mock/keys/nope/revoke')).status).toBe(404);
  });

  it('generated key values are deterministic per seed', () => {
    const a = newEngine().admin.createKey({ organizationId: 'org_acme', profile: 'write' });
    const b = newEngine().admin.createKey({ organizationId: 'org_acme', profile: 'write' });
    expect(a.key).toBe(b.key);
    expect(a.key).toMatch(/^cca_mock_[0-9a-f]{24}$/);
  });
});

describe('organizations, clock and reset', () => {
  it('MOD-AD-POLICY-MODE-REQUIRED: setting moderation mode opens and closes the moderation routes', async () => {
    const engine = newEngine();
    const writeKey = engine.admin
      .listKeys('org_globex')
      .find((k) => k.profile === 'write' && k.status === 'active');
    if (writeKey === undefined) throw new Error('no globex write key');
    const submit = () =>
      engine.handle(
        new Request('http://mock.test/v0/moderation/cases', {
          method: 'POST',
          headers: { 'x-api-key': writeKey.key ?? '', 'content-type': 'application/json' },
          body: '{}',
        }),
      );
    expect((await submit()).status).toBe(403);
    const set = await admin(engine, 'PUT', '/__mock/organizations/org_globex/moderation-mode', {
      body: { mode: 'ad_policy' },
    });
    expect(set.status).toBe(200);
    expect((await submit()).status).toBe(400);
    const bad = await admin(engine, 'PUT', '/__mock/organizations/org_globex/moderation-mode', {
      body: { mode: 'lenient' },
    });
    expect(bad.status).toBe(400);
    const orgs = await admin(engine, 'GET', '/__mock/organizations');
    expect(JSON.stringify(orgs.body)).toContain('"moderationMode":"ad_policy"');
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('reads, advances and sets the clock; never backwards', async () => {
    const engine = newEngine();
    expect((await admin(engine, 'GET', '/__mock/clock')).body['clock']).toMatchObject({
      now: START,
      running: false,
    });
    await admin(engine, 'POST', '/__mock/clock/advance', { body: { ms: 1000 } });
    expect(engine.clock.now()).toBe(START + 1000);
    const set = await admin(engine, 'POST', '/__mock/clock/set', { body: { now: '2026-12-01T00:00:00Z' } });
    expect(set.status).toBe(200);
    expect(engine.clock.now()).toBe(Date.parse('2026-12-01T00:00:00Z'));
    expect((await admin(engine, 'POST', '/__mock/clock/set', { body: { now: START } })).status).toBe(400);
    expect((await admin(engine, 'POST', '/__mock/clock/advance', { body: { ms: -1 } })).status).toBe(400);
    expect((await admin(engine, 'POST', '/__mock/clock/advance', { body: 'soon' })).status).toBe(400);
  });

  it('reset rebuilds the state from the seed: created keys vanish, revoked seeds come back, the clock restarts', async () => {
    const engine = newEngine();
    const before = engine.admin.listKeys();
    const created = engine.admin.createKey({ organizationId: 'org_acme', profile: 'import' });
    engine.admin.revokeKey(before[0]?.key ?? '');
    engine.admin.setModerationMode('org_acme', 'standard');
    engine.admin.advanceClock(DAY);
    expect((await admin(engine, 'POST', '/__mock/reset')).status).toBe(200);
    expect(engine.admin.listKeys()).toEqual(before);
    expect(engine.admin.listKeys().some((k) => k.key === created.key)).toBe(false);
    expect(engine.clock.now()).toBe(START);
    expect(engine.admin.listOrganizations().find((o) => o.id === 'org_acme')?.moderationMode).toBe(
      'ad_policy',
    );
  });
});

describe('the admin API over HTTP', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ actions: 50, selfCheck: true, clock: new MockClock({ start: START }) });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('answers a loopback client and accepts a body without a JSON content type (curl -d)', async () => {
    const keys = await fetch(`${mock.url}/__mock/keys?organizationId=org_acme`);
    expect(keys.status).toBe(200);
    const { keys: list } = (await keys.json()) as { keys: KeyView[] };
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((k) => k.organizationId === 'org_acme')).toBe(true);
    const advance = await fetch(`${mock.url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '{"ms":5000}',
    });
    expect(advance.status).toBe(200);
    expect(mock.engine.clock.now()).toBe(START + 5000);
  });
});
