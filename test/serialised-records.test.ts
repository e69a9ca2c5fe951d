/**
 * List and search pages are joined from cached record texts (mocks/engine/records/serialised.ts), and tag
 * analytics are remembered per window range (mocks/engine/records/answer-cache.ts); these tests prove a
 * cached record or report never outlives a change to its data, and that a remembered report is the one
 * a fresh computation gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headersFromRecord } from '../mocks/engine/exchange.ts';
import { createEngine, type Engine, MockClock } from '../mocks/engine/index.ts';
import { resolveWindow } from '../mocks/engine/records/dates.ts';
import { tagAnalytics } from '../mocks/engine/records/reports.ts';
import { orgData } from '../mocks/engine/records/state.ts';
import { keyOf } from './support/keys.ts';

const key = (engine: Engine, profile: string): string => keyOf(engine.admin, 'org_acme', profile);

async function call(engine: Engine, apiKey: string, path: string, init: RequestInit = {}) {
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json', ...init.headers };
  const response = await engine.handle(new Request(`http://mock.test${path}`, { ...init, headers }), {
    remoteAddress: '127.0.0.1',
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

type Summary = { actionId: string; customFields: Record<string, unknown>; actionTitle: string };

describe('pre-serialised records stay in step with the data', () => {
  it('CF-PATCH-PERSISTS: a custom-field write shows in the next list and search pages', async () => {
    const engine = createEngine({ seed: 42, clock: 'frozen', selfCheck: false });
    const read = key(engine, 'read_write');
    const first = await call(engine, read, '/v0/action/list?pageSize=1');
    const [action] = first.body['data'] as Summary[];
    if (action === undefined) throw new Error('empty list');
    await call(engine, read, '/v0/conversations/search?pageSize=100'); // fills the search cache too
    await call(engine, read, `/v0/action/${encodeURIComponent(action.actionId)}`); // and the detail cache
    const patched = await call(
      engine,
      read,
      `/v0/actions/${encodeURIComponent(action.actionId)}/custom-fields`,
      {
        method: 'PATCH',
        body: JSON.stringify({ fields: [{ fieldName: 'order_number', value: 'A-CACHE-1' }] }),
      },
    );
    expect(patched.status).toBe(200);
    const again = await call(engine, read, '/v0/action/list?pageSize=1');
    expect((again.body['data'] as Summary[])[0]?.customFields['order_number']).toBe('A-CACHE-1');
    const detail = await call(engine, read, `/v0/action/${encodeURIComponent(action.actionId)}`);
    expect((detail.body['customFields'] as Record<string, unknown>)['order_number']).toBe('A-CACHE-1');
    const search = await call(engine, read, `/v0/conversations/search?pageSize=100`);
    const item = (search.body['data'] as Summary[]).find((s) => s.actionId === action.actionId);
    if (item !== undefined) expect(item.customFields['order_number']).toBe('A-CACHE-1');
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('ID-INGEST-EXTERNALID-RETRIES: a retried record with a new title shows the new title', async () => {
    const engine = createEngine({ seed: 42, clock: 'frozen', ingestion: { latency: 'instant' } });
    const ingest = key(engine, 'import');
    const read = key(engine, 'reporting');
    const batch = (title: string) =>
      JSON.stringify({
        platform: 'DISCORD',
        serverId: '000981234567890123456789',
        serverName: 'Northwind Community',
        records: [
          {
            externalId: '1234567890123456789012345',
            threadExternalId: '1234567890123456789012345',
            authorId: '000733',
            authorName: 'Sam Rivera',
            title,
            body: 'The zipper broke.',
            createdAt: new Date(engine.clock.now() - 60_000).toISOString(),
            recordType: 'MESSAGE',
          },
        ],
      });
    const titles = async () => {
      const list = await call(engine, read, '/v0/action/list?fullFilter=platform%3DDISCORD&pageSize=500');
      return (list.body['data'] as Summary[]).map((s) => s.actionTitle);
    };
    expect(
      (await call(engine, ingest, '/v0/ingest/records', { method: 'POST', body: batch('First title') }))
        .status,
    ).toBe(202);
    expect(await titles()).toContain('First title');
    expect(
      (await call(engine, ingest, '/v0/ingest/records', { method: 'POST', body: batch('Second title') }))
        .status,
    ).toBe(202);
    const after = await titles();
    expect(after).toContain('Second title');
    expect(after).not.toContain('First title');
  });

  it('ID-INGEST-RECORD-IDENTITY: an ingested action in the window shows in the next tag analytics', async () => {
    const engine = createEngine({ seed: 42, clock: 'frozen', ingestion: { latency: 'instant' } });
    const read = key(engine, 'reporting');
    const totalActions = async () => {
      const tags = await call(engine, read, '/v0/analytics/tags?limit=5');
      expect(tags.status).toBe(200);
      return (tags.body['data'] as { summary: { totalActions: number } }).summary.totalActions;
    };
    const before = await totalActions();
    expect(await totalActions()).toBe(before); // the second read is served from the remembered report
    const record = {
      externalId: '000777000777000777000777',
      threadExternalId: '000777000777000777000777',
      authorId: '42',
      authorName: 'Kim',
      title: 'Fresh thread',
      body: 'Hello',
      createdAt: new Date(engine.clock.now() - 60_000).toISOString(),
      recordType: 'MESSAGE',
    };
    const ingested = await call(engine, key(engine, 'import'), '/v0/ingest/records', {
      method: 'POST',
      body: JSON.stringify({ platform: 'DISCORD', serverId: '9', serverName: 'N', records: [record] }),
    });
    expect(ingested.status).toBe(202);
    expect(await totalActions()).toBe(before + 1);
  });

  it('TAGS-QUERY-PARAMS property: remembered tag analytics equal a fresh computation for any window and parameters', async () => {
    const start = Date.parse('2026-11-20T12:00:00Z');
    const engine = createEngine({ seed: 5, actions: 400, clock: new MockClock({ start }), selfCheck: true });
    const read = key(engine, 'reporting');
    const day = 86_400_000;
    // Few distinct values, so requests often share a window range and parameters: the property then
    // compares remembered answers, not only first computations.
    const instant = fc.constantFrom(-30, -7, -2, 0).map((d) => new Date(start + d * day).toISOString());
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            from: instant,
            to: instant,
            respondedOnly: fc.boolean(),
            limit: fc.constantFrom(3, 50),
            offset: fc.constantFrom(0, 2),
            search: fc.constantFrom('a', 'zz'),
            advance: fc.constantFrom(0, 1_000, 6 * 3_600_000),
          },
          { requiredKeys: ['advance'] },
        ),
        async (q) => {
          engine.clock.advance(q.advance);
          const { advance: _, ...params } = q;
          const query = new URLSearchParams(
            Object.entries(params).map(([k, v]) => [k, String(v)] as [string, string]),
          );
          const answer = await call(engine, read, `/v0/analytics/tags?${query}`);
          const window = resolveWindow(
            { ...params, respondedOnly: undefined, limit: undefined, offset: undefined, search: undefined },
            engine.clock.now(),
          );
          if (!window.ok) {
            expect(answer.status).toBe(400);
            return;
          }
          const fresh = tagAnalytics(orgData(engine.state.data, 'org_acme'), window.value, {
            respondedOnly: params.respondedOnly === true,
            search: params.search,
            limit: params.limit ?? 50,
            offset: params.offset ?? 0,
          });
          expect(answer.status).toBe(200);
          expect(answer.body).toEqual({ success: true, data: fresh });
        },
      ),
      { numRuns: 300, seed: 20261121 },
    );
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('property: every remembered list, search and tags answer equals a fresh computation, across writes and time', async () => {
    // Two engines built alike get the same steps; the twin remembers nothing (`rememberAnswers: false`),
    // so it always computes afresh, while the first keeps (and serves) what it remembered.
    const start = Date.parse('2026-11-20T12:00:00Z');
    const build = (rememberAnswers: boolean) =>
      createEngine({
        seed: 9,
        actions: 300,
        clock: new MockClock({ start }),
        ingestion: { latency: 'instant' },
        selfCheck: true,
        rememberAnswers,
      });
    const engines = [build(true), build(false)] as const;
    const [remembering, fresh] = engines;
    const read = key(remembering, 'read_write');
    const ingest = key(remembering, 'import');
    const day = 86_400_000;
    // Few distinct values, so steps often repeat a request or differ from an earlier one in one parameter.
    const instant = fc.constantFrom(-7, 0).map((d) => new Date(start + d * day).toISOString());
    const window = fc.record({ from: instant, to: instant }, { requiredKeys: [] });
    const query = (params: Record<string, unknown>) =>
      new URLSearchParams(
        Object.entries(params).map(([k, v]) => [k, String(v)] as [string, string]),
      ).toString();
    const readPath = fc.oneof(
      fc
        .record({
          window,
          pageSize: fc.constantFrom(1, 50),
          sortBy: fc.constantFrom('createdAt', 'updatedAt'),
          includeFullConversation: fc.boolean(),
          fullFilter: fc.option(fc.constantFrom('serverName=Alpha', 'responded=false')),
        })
        .map(
          ({ window: w, fullFilter, ...rest }) =>
            `/v0/action/list?${query({ ...w, ...rest, ...(fullFilter === null ? {} : { fullFilter }) })}`,
        ),
      fc
        .record({
          filter: fc.constantFrom('', 'serverName=Beta'),
          page: fc.constantFrom(1, 2),
          pageSize: fc.constantFrom(5, 50),
        })
        .map((q) => `/v0/conversations/search?${query(q)}`),
      fc
        .record({ window, respondedOnly: fc.boolean() })
        .map(
          ({ window: w, respondedOnly }) => `/v0/analytics/tags?${query({ ...w, respondedOnly, limit: 5 })}`,
        ),
      fc
        .record({ window, respondedOnly: fc.boolean(), topTagsLimit: fc.constantFrom(2, 10) })
        .map(({ window: w, ...rest }) => `/v0/analytics/tags/volume?${query({ ...w, ...rest })}`),
      fc
        .record({
          window,
          path: fc.constantFrom(
            '/v0/analytics/sentiment',
            '/v0/analytics/engagement',
            '/v0/agents',
            '/v0/queues',
          ),
        })
        .map(({ window: w, path }) => `${path}?${query(w)}`),
    );
    type Write =
      | { kind: 'ingest'; thread: string; serverName: string; ageMinutes: number }
      | { kind: 'patch'; value: string }
      | { kind: 'advance'; ms: number };
    const write: fc.Arbitrary<Write> = fc.oneof(
      fc.record({
        kind: fc.constant('ingest' as const),
        thread: fc.constantFrom('0007001', '0007002'),
        serverName: fc.constantFrom('Alpha', 'Beta'),
        ageMinutes: fc.constantFrom(1, 90),
      }),
      fc.record({ kind: fc.constant('patch' as const), value: fc.constantFrom('A-1', 'B-2') }),
      fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1_000, 3_600_000) }),
    );
    const apply = async (engine: Engine, w: Write) => {
      if (w.kind === 'advance') {
        engine.clock.advance(w.ms);
        return;
      }
      if (w.kind === 'patch') {
        const first = await call(engine, read, '/v0/action/list?pageSize=1');
        const id = (first.body['data'] as Summary[])[0]?.actionId;
        if (id === undefined) return;
        const patched = await call(engine, read, `/v0/actions/${encodeURIComponent(id)}/custom-fields`, {
          method: 'PATCH',
          body: JSON.stringify({ fields: [{ fieldName: 'order_number', value: w.value }] }),
        });
        expect(patched.status).toBe(200);
        return;
      }
      const record = {
        externalId: w.thread,
        threadExternalId: w.thread,
        authorId: '7',
        authorName: 'Lee',
        title: `Thread ${w.thread}`,
        body: 'Hi',
        createdAt: new Date(engine.clock.now() - w.ageMinutes * 60_000).toISOString(),
        recordType: 'MESSAGE',
      };
      const body = { platform: 'DISCORD', serverId: '77', serverName: w.serverName, records: [record] };
      const sent = await call(engine, ingest, '/v0/ingest/records', {
        method: 'POST',
        body: JSON.stringify(body),
      });
      expect(sent.status).toBe(202);
    };
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ arbitrary: readPath, weight: 5 }, { arbitrary: write, weight: 1 }), {
          minLength: 1,
          maxLength: 24,
        }),
        async (steps) => {
          for (const step of steps) {
            if (typeof step !== 'string') {
              for (const engine of engines) await apply(engine, step);
              continue;
            }
            const expected = await call(fresh, read, step);
            expect(await call(remembering, read, step), step).toEqual(expected);
          }
        },
      ),
      { numRuns: 80, seed: 20261121 },
    );
    for (const engine of engines) expect(engine.selfCheckFailures).toEqual([]);
  });

  it('rememberAnswers reaches the data: on, a repeated list is the same remembered bytes; off, built anew', async () => {
    for (const rememberAnswers of [true, false]) {
      const engine = createEngine({ seed: 4, actions: 100, clock: 'frozen', rememberAnswers });
      const request = {
        method: 'GET',
        url: new URL('http://mock.test/v0/action/list?pageSize=5'),
        headers: headersFromRecord({ 'x-api-key': key(engine, 'reporting') }),
        body: null,
        remoteAddress: '127.0.0.1',
      };
      const first = await engine.dispatch(request);
      const second = await engine.dispatch(request);
      if (first.kind !== 'answer' || second.kind !== 'answer') throw new Error('dropped');
      expect(first.status).toBe(200);
      expect(first.body === second.body, `rememberAnswers ${rememberAnswers}`).toBe(rememberAnswers);
    }
  });
});
