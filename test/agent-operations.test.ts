/**
 * The operations behind `execute` through the registry, against an in-process engine with self-check
 * on (every operation output is validated against contract/agent/operations.json; REST answers against
 * the OpenAPI contract). Both interfaces read one engine: the counts and records agree with REST.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { checkOutput } from '../mocks/agent/operations/catalog.ts';
import { CATALOG_PATH, catalogText } from '../mocks/agent/operations/catalog-build.ts';
import { agentContract } from '../src/contract/agent.ts';
import {
  createOperationsHarness,
  type OperationsHarness,
  OTHER_ORG,
  START,
} from './agent-operations-support.ts';

let harness: OperationsHarness;
const fresh = (options: Parameters<typeof createOperationsHarness>[0] = {}) => {
  harness = createOperationsHarness(options);
  return harness;
};
afterEach(() => {
  expect(harness.engine.selfCheckFailures).toEqual([]);
  expect(harness.engine.unexpectedErrors).toEqual([]);
});

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** A 60-day window ending at the clock's start, as REST query text and as an agent dateRange. */
const FROM = iso(START - 60 * DAY);
const TO = iso(START);
const window = { from: FROM, to: TO };
const and = (...filters: unknown[]) => ({ filterType: 'and', filters });
const cond = (filterType: string, ...value: string[]) => ({ filterType, operator: 'in', value });
const failureOf = async (h: OperationsHarness, id: string, input: unknown, ctx = h.context()) => {
  const outcome = await h.call(id, input, ctx);
  if (outcome.ok) throw new Error(`${id} succeeded: ${JSON.stringify(outcome.value).slice(0, 200)}`);
  return outcome.failure as Record<string, unknown>;
};
const obj = (value: unknown) => value as Record<string, unknown>;

async function restList(h: OperationsHarness, fullFilter: string) {
  const q = new URLSearchParams({ from: FROM, to: TO, pageSize: '500', fullFilter });
  const answer = await h.rest('GET', `/v0/action/list?${q}`);
  expect(answer.status).toBe(200);
  return obj(answer.body);
}

describe('the catalog', () => {
  it('AGENT-MCP-SPEC-LISTS-CATALOG, AGENT-MCP-SPEC-NAMED-OPERATIONS: list() in catalog order with id, summary, effect', () => {
    const h = fresh();
    const list = h.registry.list();
    expect(list.map((d) => d.id)).toEqual([
      'query.search.actions',
      'query.search.tags',
      'query.analytics.actions',
      'config.savedSearch.list',
      'config.savedSearch.get',
      'config.savedSearch.create',
      'config.savedSearch.update',
      'config.savedSearch.delete',
    ]);
    for (const d of list) {
      expect(Object.keys(d).sort()).toEqual(['effect', 'id', 'summary']);
      expect(d.summary.length).toBeGreaterThan(10);
      expect(d.effect).toBe(
        d.id.startsWith('config.savedSearch.') && !/\.(list|get)$/.test(d.id) ? 'write' : 'read',
      );
    }
  });

  it('AGENT-MCP-SPEC-ID-GIVES-SCHEMAS: spec(id) gives both schemas for every listed id; undefined for others', () => {
    const h = fresh();
    for (const { id } of h.registry.list()) {
      const spec = h.registry.spec(id);
      expect(spec?.inputSchema).toBeTypeOf('object');
      expect(spec?.outputSchema).toBeTypeOf('object');
    }
    expect(h.registry.spec('query.search.nothing')).toBeUndefined();
  });

  it('contract/agent/operations.json is what catalog-build.ts builds (kept in step)', () => {
    fresh();
    expect(readFileSync(CATALOG_PATH, 'utf8')).toBe(catalogText());
  });

  it('the output self-check can fail: a page missing nextCursor is refused', () => {
    fresh();
    expect(checkOutput('query.search.actions', { items: [] })?.field).toBe('/nextCursor');
    expect(checkOutput('query.search.actions', { items: [], nextCursor: null })).toBeUndefined();
  });
});

describe('call: validation and scopes', () => {
  it('AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE: an unknown operation id is invalid input naming operationId', async () => {
    const h = fresh();
    const failure = await failureOf(h, 'query.search.everything', {});
    expect(failure).toMatchObject({ kind: 'invalid_input', code: 'INVALID_INPUT', field: '/operationId' });
    expect(String(failure['message'])).toContain('query.search.actions');
  });

  const invalid: Array<[string, string, unknown, string]> = [
    ['limit above the maximum', 'query.search.actions', { limit: 101 }, '/limit'],
    ['limit of the wrong type', 'query.search.actions', { limit: '20' }, '/limit'],
    ['an unknown field', 'query.search.actions', { size: 3 }, '/size'],
    [
      'an unknown source',
      'query.search.actions',
      { filter: and(cond('source', 'TWITTER', 'MYSPACE')) },
      '/filter/filters/0/value/1',
    ],
    [
      'an unknown status',
      'query.search.actions',
      { filter: and(cond('status', 'ARCHIVED')) },
      '/filter/filters/0/value/0',
    ],
    [
      'an or-group',
      'query.search.actions',
      { filter: { filterType: 'or', filters: [] } },
      '/filter/filterType',
    ],
    [
      'an unknown unit',
      'query.search.actions',
      { dateRange: { relative: { unit: 'fortnight', count: 1 } } },
      '/dateRange/relative/unit',
    ],
    [
      'a count of 0',
      'query.search.actions',
      { dateRange: { relative: { unit: 'day', count: 0 } } },
      '/dateRange/relative/count',
    ],
    ['a malformed from', 'query.search.actions', { dateRange: { from: 'yesterday' } }, '/dateRange/from'],
    [
      'from after to',
      'query.search.actions',
      { dateRange: { from: '2026-11-10', to: '2026-11-01' } },
      '/dateRange/from',
    ],
    ['tags without name', 'query.search.tags', {}, '/name'],
    [
      'analytics v 2',
      'query.analytics.actions',
      { v: 2, source: 'actions', lines: [{ measure: 'actions', aggregation: 'count' }] },
      '/v',
    ],
    [
      'an unknown measure',
      'query.analytics.actions',
      { v: 1, source: 'actions', lines: [{ measure: 'likes', aggregation: 'count' }] },
      '/lines/0/measure',
    ],
    [
      'avg of actions',
      'query.analytics.actions',
      { v: 1, source: 'actions', lines: [{ measure: 'actions', aggregation: 'avg' }] },
      '/lines/0/aggregation',
    ],
    [
      'a repeated groupBy',
      'query.analytics.actions',
      {
        v: 1,
        source: 'actions',
        lines: [{ measure: 'actions', aggregation: 'count' }],
        groupBy: [{ field: 'day' }, { field: 'day' }],
      },
      '/groupBy/1/field',
    ],
    ['an empty saved-search name', 'config.savedSearch.create', { name: '', query: {} }, '/name'],
    [
      'a saved query with a cursor',
      'config.savedSearch.create',
      { name: 'n', query: { cursor: 'x' } },
      '/query/cursor',
    ],
    ['an update without changes', 'config.savedSearch.update', { id: 'ss_1' }, ''],
    ['an input that is not an object', 'query.search.actions', null, ''],
    ['an oversized cursor', 'query.search.actions', { cursor: 'x'.repeat(5000) }, '/cursor'],
  ];
  it.each(invalid)('AGENT-MCP-INVALID-INPUT-NAMES-FIELD: %s', async (_what, id, input, field) => {
    const h = fresh();
    const failure = await failureOf(h, id, input);
    expect(failure).toMatchObject({ kind: 'invalid_input', field });
    expect(String(failure['message']).length).toBeGreaterThan(10);
  });

  it('AGENT-MCP-FAILURE-KINDS: any JSON input to any operation answers a value or a failure as data (valid against failures.json): never a throw, never a self-check violation', async () => {
    const h = fresh();
    const ids = [...h.registry.list().map((d) => d.id), 'query.search.nothing'];
    const input = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.record(
        {
          dateRange: fc.jsonValue({ maxDepth: 3 }),
          filter: fc.jsonValue({ maxDepth: 4 }),
          limit: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          v: fc.constant(1),
          source: fc.constant('actions'),
          lines: fc.jsonValue({ maxDepth: 3 }),
          groupBy: fc.jsonValue({ maxDepth: 3 }),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        { cursor: fc.string({ maxLength: 300 }), limit: fc.integer({ min: -5, max: 200 }) },
        { requiredKeys: [] },
      ),
    );
    const kinds = new Set(['invalid_input', 'forbidden', 'not_found', 'conflict']);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ids), input, async (id, value) => {
        const outcome = await h.call(id, value);
        if (!outcome.ok) {
          expect(agentContract().checkFailure(outcome.failure)).toEqual({ ok: true });
          expect(kinds.has(outcome.failure.kind)).toBe(true);
          expect(outcome.failure.message.length).toBeGreaterThan(5);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('AGENT-MCP-READ-KEY-WRITE-FORBIDDEN: a write without the write scope is forbidden naming write; nothing is stored', async () => {
    const h = fresh();
    const failure = await failureOf(
      h,
      'config.savedSearch.create',
      { name: 'n', query: {} },
      h.context('reporting'),
    );
    expect(failure).toMatchObject({ kind: 'forbidden', code: 'FORBIDDEN', missingScope: 'write' });
    expect(await h.value('config.savedSearch.list', {})).toEqual({ items: [] });
  });

  it('AGENT-MCP-IMPORT-KEY-NO-REPORTING-NO-REPLIES: an import key reads nothing (forbidden naming read)', async () => {
    const h = fresh();
    for (const { id } of h.registry.list().filter((d) => d.effect === 'read')) {
      const input =
        id === 'query.search.tags'
          ? { name: '' }
          : id === 'config.savedSearch.get'
            ? { id: 'ss_1' }
            : id === 'query.analytics.actions'
              ? { v: 1, source: 'actions', lines: [{ measure: 'actions', aggregation: 'count' }] }
              : {};
      expect(await failureOf(h, id, input, h.context('import'))).toMatchObject({
        kind: 'forbidden',
        missingScope: 'read',
      });
    }
  });
});

describe('query.search.actions', () => {
  it('AGENT-MCP-IDS-STRINGS-PRESERVED: items are the REST list records, byte for byte, in the same order', async () => {
    const h = fresh();
    for (const status of ['OPEN', 'CLOSED']) {
      const rest = await restList(h, `status=${status}`);
      const page = await h.value('query.search.actions', {
        dateRange: window,
        filter: and(cond('status', status)),
        limit: 100,
      });
      const restItems = rest['data'] as unknown[];
      expect(restItems.length).toBeGreaterThan(0);
      expect(JSON.stringify(page['items'])).toBe(JSON.stringify(restItems.slice(0, 100)));
      for (const item of page['items'] as Record<string, unknown>[])
        expect(typeof item['actionId']).toBe('string');
    }
  });

  it('AGENT-MCP-OWN-PAGINATION, AGENT-MCP-SEARCH-OUTPUT-ITEMS-NEXTCURSOR: the answer is {items, nextCursor}, not the REST envelope', async () => {
    const h = fresh();
    const first = await h.value('query.search.actions', { dateRange: window, limit: 5 });
    expect(Object.keys(first).sort()).toEqual(['items', 'nextCursor']);
    expect(Array.isArray(first['items'])).toBe(true);
    expect(typeof first['nextCursor']).toBe('string');
    const last = await h.value('query.search.actions', {
      dateRange: { from: '2030-01-01', to: '2030-01-02' },
    });
    expect(last).toEqual({ items: [], nextCursor: null });
  });

  it('AGENT-MCP-BOTH-INTERFACES-AGREE: every action search answers is read by REST GET /v0/action/{id} under the same id bytes', async () => {
    const h = fresh();
    const page = await h.value('query.search.actions', { dateRange: window, limit: 60 });
    for (const item of page['items'] as Record<string, unknown>[]) {
      const id = String(item['actionId']);
      const detail = await h.rest('GET', `/v0/action/${encodeURIComponent(id)}`);
      expect(detail.status).toBe(200);
      expect(obj(detail.body)['actionId']).toBe(id);
      expect(obj(detail.body)['actionTitle']).toBe(item['actionTitle']);
    }
  });

  it('AGENT-MCP-SEARCH-LIMIT-PAGE-SIZE: a page holds at most limit items; the default limit is 20', async () => {
    const h = fresh();
    expect((await h.value('query.search.actions', { dateRange: window }))['items']).toHaveLength(20);
    expect((await h.value('query.search.actions', { dateRange: window, limit: 7 }))['items']).toHaveLength(7);
  });

  it('AGENT-MCP-SEARCH-FILTER-SOURCE-STATUS: values of a condition widen, conditions narrow (as the REST filter)', async () => {
    const h = fresh();
    const count = async (filter: unknown) => {
      let n = 0;
      let cursor: unknown = null;
      do {
        const input: Record<string, unknown> = { dateRange: window, filter, limit: 100 };
        if (cursor !== null) input['cursor'] = cursor;
        const page = await h.value('query.search.actions', input);
        n += (page['items'] as unknown[]).length;
        cursor = page['nextCursor'];
      } while (cursor !== null);
      return n;
    };
    const total = async (fullFilter: string) => Number((await restList(h, fullFilter))['totalRecords']);
    expect(await count(and(cond('source', 'TWITTER')))).toBe(await total('platform=TWITTER'));
    expect(await count(and(cond('status', 'OPEN', 'PENDING')))).toBe(
      (await total('status=OPEN')) + (await total('status=PENDING')),
    );
    expect(await count(and(cond('source', 'DISCORD'), cond('status', 'CLOSED')))).toBe(
      await total('platform=DISCORD+status=CLOSED'),
    );
    expect(await count(and(cond('responded', 'false')))).toBe(await total('responded=false'));
    expect(await count(and())).toBe(await total(''));
  });

  it('AGENT-MCP-SEARCH-DATERANGE-FORMS: relative and explicit ranges select the same actions when they mean the same window', async () => {
    const h = fresh();
    const relative = await h.value('query.search.actions', {
      dateRange: { relative: { unit: 'day', count: 60 } },
      limit: 100,
    });
    const explicit = await h.value('query.search.actions', { dateRange: window, limit: 100 });
    expect(relative['items']).toEqual(explicit['items']);
    const calendar = await h.value('query.search.actions', {
      dateRange: { relative: { unit: 'week', count: 1, calendar: true, includeCurrent: false } },
      limit: 100,
    });
    // START is Friday 2026-11-20: the last complete week is Monday 9 to Sunday 15 November.
    for (const item of calendar['items'] as Record<string, unknown>[]) {
      expect(String(item['createdAt']) >= '2026-11-09T00:00:00.000Z').toBe(true);
      expect(String(item['createdAt']) < '2026-11-16T00:00:00.000Z').toBe(true);
    }
  });

  it('AGENT-MCP-ORG-FIXED-BY-CONNECTION: another organization sees only its own actions', async () => {
    const h = fresh();
    const mine = await h.value('query.search.actions', { dateRange: window, limit: 100 });
    const theirs = await h.value(
      'query.search.actions',
      { dateRange: window, limit: 100 },
      h.context('read_write', OTHER_ORG),
    );
    const ids = new Set((mine['items'] as Record<string, unknown>[]).map((i) => i['actionId']));
    for (const item of theirs['items'] as Record<string, unknown>[])
      expect(ids.has(item['actionId'])).toBe(false);
  });

  it('AGENT-MCP-SEARCH-CURSOR-BOUND-TO-INPUT: a cursor of another organization is invalid input naming cursor', async () => {
    const h = fresh();
    const input = { dateRange: window, limit: 5 };
    const page = await h.value('query.search.actions', input);
    const failure = await failureOf(
      h,
      'query.search.actions',
      { ...input, cursor: page['nextCursor'] },
      h.context('read_write', OTHER_ORG),
    );
    expect(failure).toMatchObject({ kind: 'invalid_input', field: '/cursor' });
  });
});

describe('query.search.tags', () => {
  it('AGENT-MCP-SEARCH-TAGS-BY-NAME: case-insensitive substring of value or group; counts agree with REST tag analytics', async () => {
    const h = fresh();
    const all = (await h.value('query.search.tags', { name: '', limit: 500 }))['items'] as Record<
      string,
      unknown
    >[];
    expect(all.length).toBeGreaterThan(1);
    const first = all[0] ?? {};
    const needle = String(first['tagName']).slice(1, 4).toUpperCase();
    const hits = (await h.value('query.search.tags', { name: needle }))['items'] as Record<string, unknown>[];
    expect(hits.map((t) => t['tagId'])).toContain(first['tagId']);
    for (const hit of hits) {
      expect(`${hit['tagName']} ${hit['groupName']}`.toLowerCase()).toContain(needle.toLowerCase());
    }
    const rest = await h.rest(
      'GET',
      `/v0/analytics/tags?from=2000-01-01&to=${encodeURIComponent(TO)}&limit=1000`,
    );
    const breakdown = obj(obj(rest.body)['data'])['tagBreakdown'] as Record<string, unknown>[];
    for (const row of breakdown) {
      expect(all.find((t) => t['tagId'] === row['tagId'])?.['actions']).toBe(row['count']);
    }
    expect((await h.value('query.search.tags', { name: 'no tag is called this' }))['items']).toEqual([]);
  });
});

describe('query.analytics.actions', () => {
  const base = { v: 1, source: 'actions', dateRange: window };
  const count = [{ measure: 'actions', aggregation: 'count' }];
  type Row = { group: Record<string, unknown>; values: Record<string, number | null> };

  it('AGENT-MCP-ANALYTICS-EMPTY-GROUPBY-TOTAL: groupBy [] is one total row, equal to the REST list total of the window', async () => {
    const h = fresh();
    const answer = await h.value('query.analytics.actions', { ...base, lines: count, groupBy: [] });
    const rows = answer['rows'] as Row[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.group).toEqual({});
    expect(rows[0]?.values['actions.count']).toBe((await restList(h, ''))['totalRecords']);
    const tags = obj(obj((await h.rest('GET', `/v0/analytics/tags?from=${FROM}&to=${TO}`)).body)['data']);
    expect(rows[0]?.values['actions.count']).toBe(obj(tags['summary'])['totalActions']);
  });

  it('counts by status and by responded agree with the REST list over the same window', async () => {
    const h = fresh();
    const byStatus = (
      await h.value('query.analytics.actions', { ...base, lines: count, groupBy: [{ field: 'status' }] })
    )['rows'] as Row[];
    expect(byStatus.length).toBeGreaterThan(1);
    for (const row of byStatus) {
      expect(row.values['actions.count']).toBe(
        (await restList(h, `status=${row.group['status']}`))['totalRecords'],
      );
    }
    const byResponded = (
      await h.value('query.analytics.actions', { ...base, lines: count, groupBy: [{ field: 'responded' }] })
    )['rows'] as Row[];
    for (const row of byResponded) {
      expect(row.values['actions.count']).toBe(
        (await restList(h, `responded=${row.group['responded']}`))['totalRecords'],
      );
    }
  });

  it('per assignee: action counts and average first response time agree with GET /v0/agents', async () => {
    const h = fresh();
    const rows = (
      await h.value('query.analytics.actions', {
        ...base,
        lines: [...count, { measure: 'firstResponseTime', aggregation: 'avg' }],
        groupBy: [{ field: 'assignee' }],
      })
    )['rows'] as Row[];
    const agents = obj((await h.rest('GET', `/v0/agents?from=${FROM}&to=${TO}`)).body)['data'] as Record<
      string,
      unknown
    >[];
    expect(agents.length).toBeGreaterThan(0);
    for (const agent of agents) {
      const metrics = obj(agent['metrics']);
      const row = rows.find((r) => r.group['assignee'] === agent['agentId']);
      expect(row?.values['actions.count'] ?? 0).toBe(metrics['totalActions']);
      if (row !== undefined)
        expect(row.values['firstResponseTime.avg'] ?? 0).toBe(metrics['averageResponseTime']);
    }
  });

  it('AGENT-MCP-ANALYTICS-INPUT-SHAPE, AGENT-MCP-SCHEMAS-READ-AT-RUNTIME: the full input shape is accepted, and so is every example valid against spec(id)', async () => {
    const h = fresh();
    const examples: Array<[string, unknown]> = [
      [
        'query.analytics.actions',
        {
          v: 1,
          source: 'actions',
          dateRange: { relative: { unit: 'day', count: 7, calendar: true, includeCurrent: false } },
          lines: [{ measure: 'csat', aggregation: 'avg' }],
          groupBy: [{ field: 'source' }],
          options: { fillEmpty: true },
        },
      ],
      [
        'query.search.actions',
        {
          filter: and(cond('source', 'TWITTER'), cond('status', 'OPEN')),
          dateRange: { relative: { unit: 'day', count: 7, calendar: false, includeCurrent: true } },
          limit: 20,
        },
      ],
      ['query.search.tags', { name: 'bill' }],
      ['config.savedSearch.list', {}],
      ['config.savedSearch.create', { name: 'n', query: { limit: 20 } }],
    ];
    const { compileIn, createAjv } = await import('../src/contract/validator-schemas.ts');
    const ajv = createAjv({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {},
      'x-all': h.registry.list().map((d) => h.registry.spec(d.id)),
    } as never);
    for (const [id, input] of examples) {
      const schema = h.registry.spec(id)?.inputSchema;
      expect(compileIn(ajv, schema)(input)).toBe(true);
      expect((await h.call(id, input)).ok).toBe(true);
    }
  });

  it('AGENT-MCP-ANALYTICS-META: meta carries the resolved query, the absolute date range and dateField', async () => {
    const h = fresh();
    const answer = await h.value('query.analytics.actions', {
      v: 1,
      source: 'actions',
      dateRange: { relative: { unit: 'month', count: 1, calendar: true, includeCurrent: false } },
      lines: count,
    });
    const meta = obj(answer['meta']);
    expect(meta['dateField']).toBe('createdAt');
    expect(meta['dateRange']).toEqual({ from: '2026-10-01T00:00:00.000Z', to: '2026-10-31T23:59:59.999Z' });
    const query = JSON.parse(String(meta['queryJSON'])) as Record<string, unknown>;
    expect(query).toMatchObject({
      v: 1,
      source: 'actions',
      dateRange: meta['dateRange'],
      groupBy: [],
      options: { fillEmpty: false },
    });
  });

  it('AGENT-MCP-ANALYTICS-EMPTY-REASON: an empty result says why; fillEmpty answers every day of the range with zeros', async () => {
    const h = fresh();
    const future = await h.value('query.analytics.actions', {
      ...base,
      dateRange: { from: '2030-01-01', to: '2030-01-03' },
      lines: count,
      groupBy: [{ field: 'day' }],
    });
    expect(future).toMatchObject({ rows: [], emptyReason: 'no_actions_in_range' });
    const filled = await h.value('query.analytics.actions', {
      ...base,
      dateRange: { from: '2030-01-01', to: '2030-01-03' },
      lines: [...count, { measure: 'csat', aggregation: 'avg' }],
      groupBy: [{ field: 'day' }],
      options: { fillEmpty: true },
    });
    expect(filled['rows']).toEqual(
      ['2030-01-01', '2030-01-02', '2030-01-03'].map((day) => ({
        group: { day },
        values: { 'actions.count': 0, 'csat.avg': null },
      })),
    );
    expect(filled['emptyReason']).toBe('no_actions_in_range');
    const filteredOut = await h.value('query.analytics.actions', {
      ...base,
      filter: and(cond('tag', 'no such tag')),
      lines: count,
    });
    expect(filteredOut['emptyReason']).toBe('no_actions_match_filter');
    expect(filteredOut['rows']).toEqual([{ group: {}, values: { 'actions.count': 0 } }]);
  });

  it('too many groups are refused naming groupBy', async () => {
    const h = fresh();
    const failure = await failureOf(h, 'query.analytics.actions', {
      v: 1,
      source: 'actions',
      dateRange: { from: '2000-01-01' },
      lines: count,
      groupBy: [{ field: 'day' }, { field: 'status' }],
      options: { fillEmpty: true },
    });
    expect(failure).toMatchObject({ kind: 'invalid_input', field: '/groupBy' });
  });
});

describe('config.savedSearch.*', () => {
  const query = {
    filter: and(cond('status', 'OPEN')),
    dateRange: { relative: { unit: 'day', count: 7 } },
    limit: 50,
  };

  it('create, get, list, update, delete: ids are strings, times come from the engine clock, names are unique', async () => {
    const h = fresh();
    const created = await h.value('config.savedSearch.create', { name: 'Open this week', query });
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Open this week',
      query,
      createdAt: iso(START),
      updatedAt: iso(START),
      createdBy: 'test read_write key',
    });
    expect(
      await failureOf(h, 'config.savedSearch.create', { name: 'Open this week', query: {} }),
    ).toMatchObject({
      kind: 'conflict',
      field: '/name',
    });
    expect(await h.value('config.savedSearch.get', { id: created['id'] })).toEqual(created);
    h.engine.admin.advanceClock(60_000);
    const updated = await h.value('config.savedSearch.update', { id: created['id'], name: 'Open' });
    expect(updated).toEqual({ ...created, name: 'Open', updatedAt: iso(START + 60_000) });
    expect(await h.value('config.savedSearch.list', {})).toEqual({ items: [updated] });
    expect(await h.value('config.savedSearch.delete', { id: created['id'] })).toEqual({
      id: created['id'],
      deleted: true,
    });
    expect(await failureOf(h, 'config.savedSearch.get', { id: created['id'] })).toMatchObject({
      kind: 'not_found',
      field: '/id',
    });
    expect(await failureOf(h, 'config.savedSearch.delete', { id: created['id'] })).toMatchObject({
      kind: 'not_found',
    });
  });

  it('a saved query runs as query.search.actions input', async () => {
    const h = fresh();
    const created = await h.value('config.savedSearch.create', { name: 'q', query });
    const page = await h.value('query.search.actions', created['query']);
    expect(Array.isArray(page['items'])).toBe(true);
  });

  it('AGENT-MCP-SAVEDSEARCH-ORG-SCOPED: invisible to another organization, which cannot get, update or delete it', async () => {
    const h = fresh();
    const created = await h.value('config.savedSearch.create', { name: 'mine', query });
    const other = h.context('read_write', OTHER_ORG);
    expect(await h.value('config.savedSearch.list', {}, other)).toEqual({ items: [] });
    for (const [id, input] of [
      ['config.savedSearch.get', { id: created['id'] }],
      ['config.savedSearch.update', { id: created['id'], name: 'theirs' }],
      ['config.savedSearch.delete', { id: created['id'] }],
    ] as const) {
      expect(await failureOf(h, id, input, other)).toMatchObject({ kind: 'not_found', field: '/id' });
    }
    // The same name is free in the other organization.
    expect((await h.value('config.savedSearch.create', { name: 'mine', query }, other))['name']).toBe('mine');
    expect(await h.value('config.savedSearch.get', { id: created['id'] })).toEqual(created);
  });

  it('admin.reset() clears saved searches with the rest of the state', async () => {
    const h = fresh();
    await h.value('config.savedSearch.create', { name: 'gone after reset', query });
    h.engine.admin.reset();
    expect(await h.value('config.savedSearch.list', {})).toEqual({ items: [] });
  });
});
