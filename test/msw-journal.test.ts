/**
 * The request journal for MSW users: `mock.journal` and `journalOf(mock.engine.admin)` from
 * `cca-kit/msw`, and `GET /__mock/journal` through the handlers themselves (the route the dashboard
 * reads); a page's build carries it when `use` lists `journal` (with `adminRoutes` for the route).
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoutes, journal } from '../mocks/msw/features.ts';
import { createHandlers as createPageHandlers } from '../mocks/msw/index.browser.ts';
import { createHandlers, journalOf, seededKey } from '../mocks/msw/index.ts';

const BASE = 'https://api.example.test';

describe('the journal under MSW (node)', () => {
  const mock = createHandlers({ baseUrl: BASE, clock: 'frozen', journal: { capacity: 50 } });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  it('records what the app sent and got, readable in process and at /__mock/journal, keys masked', async () => {
    const key = seededKey({ organizationId: 'org_acme', profile: 'reporting' });
    const list = await fetch(`${BASE}/v0/action/list?pageSize=2`, { headers: { 'x-api-key': key } });
    expect(list.status).toBe(200);
    expect((await fetch(`${BASE}/v0/agents`)).status).toBe(401);
    expect(journalOf(mock.engine.admin)).toBe(mock.journal);
    const entries = mock.journal.list({});
    expect(entries.map((e) => [e.operation, e.status])).toEqual([
      ['listActions', 200],
      ['listAgents', 401],
    ]);
    const served = await fetch(`${BASE}/__mock/journal?status=4xx`);
    expect(served.status).toBe(200);
    const body = (await served.json()) as { entries: { operation: string }[] };
    expect(body.entries.map((e) => e.operation)).toEqual(['listAgents']);
    const detail = await (await fetch(`${BASE}/__mock/journal/${entries[0]?.seq ?? 0}`)).text();
    expect(detail).not.toContain(key);
  });
});

describe('the journal in a page build', () => {
  it('is there when use lists it, and its absence names the feature to add', async () => {
    const page = createPageHandlers({ baseUrl: BASE, use: [adminRoutes, journal] });
    await page.engine.handle(new Request(`${BASE}/v0/agents`), { inProcess: true });
    expect(page.journal.list({}).map((e) => e.status)).toEqual([401]);
    const served = await page.engine.handle(new Request(`${BASE}/__mock/journal`), { inProcess: true });
    expect(served.status).toBe(200);
    const bare = createPageHandlers({ baseUrl: BASE, use: [adminRoutes] });
    expect(() => bare.journal).toThrow(/import \{ journal \} from 'cca-kit\/msw\/features'/);
    const missing = await bare.engine.handle(new Request(`${BASE}/__mock/journal`), { inProcess: true });
    expect(missing.status).toBe(404);
  });
});
