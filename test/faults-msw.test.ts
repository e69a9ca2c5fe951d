/**
 * A targeted fault under MSW (msw/node `setupServer`), as a front-end data layer meets it: the first
 * call fails (a 500, then a dropped connection), the layer's retry succeeds; the fault is set through
 * `mock.admin.faults` or `POST /__mock/faults` through the handlers, and the journal says which answer
 * the fault gave.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, seededKey } from '../mocks/msw/index.ts';

const BASE = 'https://api.example.test';

/** The data layer of a page: one retry on a server error or a network failure. */
async function loadAgents(key: string): Promise<{ attempts: number; agents: unknown[] }> {
  let attempts = 0;
  for (;;) {
    attempts += 1;
    try {
      const response = await fetch(`${BASE}/v0/agents`, { headers: { 'x-api-key': key } });
      if (response.ok) return { attempts, agents: ((await response.json()) as { data: unknown[] }).data };
      if (response.status < 500 || attempts > 1) throw new Error(`agents: ${response.status}`);
    } catch (error) {
      if (attempts > 1 || !(error instanceof TypeError)) throw error;
    }
  }
}

describe('targeted faults under MSW', () => {
  const mock = createHandlers({ baseUrl: BASE, clock: 'frozen' });
  const server = setupServer(...mock.handlers);
  const key = seededKey({ organizationId: 'org_acme', profile: 'reporting' });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    mock.admin.reset();
    mock.journal.clear();
  });
  afterAll(() => server.close());

  it('one 500 from mock.admin.faults: the first call fails, the retry succeeds, the journal marks the failed one', async () => {
    const fault = mock.admin.faults.add({ operation: 'listAgents', status: 500 });
    const loaded = await loadAgents(key);
    expect(loaded.attempts).toBe(2);
    expect(loaded.agents.length).toBeGreaterThan(0);
    expect(mock.admin.faults.get(fault.id)).toMatchObject({ fired: 1, remaining: 0 });
    expect(mock.journal.list().map((e) => [e.status, e.fault])).toEqual([
      [500, fault.id],
      [200, null],
    ]);
  });

  it('a dropped connection set through POST /__mock/faults: fetch rejects (a network error), the retry succeeds', async () => {
    const added = await fetch(`${BASE}/__mock/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'listAgents', key, drop: true }),
    });
    expect(added.status).toBe(201);
    expect((await loadAgents(key)).attempts).toBe(2);
    const listed = (await (await fetch(`${BASE}/__mock/faults`)).json()) as {
      faults: { fired: number; remaining: number }[];
    };
    expect(listed.faults).toMatchObject([{ fired: 1, remaining: 0 }]);
    expect(mock.journal.list().map((e) => e.status)).toEqual([0, 200]);
  });

  it('is cleared by the reset between tests', () => {
    expect(mock.admin.faults.list()).toEqual([]);
  });
});
