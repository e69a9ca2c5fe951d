/**
 * Chaos modes against the real HTTP mock (and MSW for dropped connections): each mode shows its effect,
 * and what the mock still answers validates against the contract (extra fields are allowed: every
 * response object is open). Modes are switched with the admin API (`PUT/DELETE /__mock/chaos`).
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChaos, isHostileId } from '../mocks/engine/chaos/index.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import {
  createViolationLog,
  printedAfterDoubleParse,
  type Violation,
} from '../mocks/engine/violations/index.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { createHandlers } from '../mocks/msw/index.ts';
import type { CliIo } from '../src/cli/io.ts';
import { main } from '../src/cli/main.ts';
import { type OperationId, validateResponse, validateSchema } from '../src/contract/index.ts';
import { keyOf as seededKey } from './support/keys.ts';

let mock: MockServer;

const keyOf = (organizationId: string, profile: string): string =>
  seededKey(mock.engine.admin, organizationId, profile);

async function setChaos(patch: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${mock.url}/__mock/chaos`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(patch),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

async function call(
  operationId: OperationId,
  path: string,
  key: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(`${mock.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      'x-api-key': key,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  const body: unknown = JSON.parse(text);
  expect(validateResponse(operationId, response.status, body), `${operationId} ${response.status}`).toEqual({
    ok: true,
  });
  return { status: response.status, body, text };
}

/** Every object of `plain` appears in `chaotic` at the same place with all its keys and at least one more. */
function everyObjectExtended(plain: unknown, chaotic: unknown, at = ''): string[] {
  if (Array.isArray(plain)) {
    if (!Array.isArray(chaotic) || chaotic.length !== plain.length) return [`${at}: array changed`];
    return plain.flatMap((item, i) => everyObjectExtended(item, chaotic[i], `${at}/${i}`));
  }
  if (typeof plain !== 'object' || plain === null) return [];
  if (typeof chaotic !== 'object' || chaotic === null) return [`${at}: object lost`];
  const before = plain as Record<string, unknown>;
  const after = chaotic as Record<string, unknown>;
  const problems: string[] = [];
  const extra = Object.keys(after).filter((key) => !(key in before));
  if (extra.length === 0) problems.push(`${at}: no unknown field`);
  for (const [key, value] of Object.entries(before)) {
    if (key === 'customFields' || key === 'value') continue;
    problems.push(...everyObjectExtended(value, after[key], `${at}/${key}`));
  }
  return problems;
}

/** All string values under the given keys, anywhere in a JSON value. */
function valuesOf(body: unknown, keys: ReadonlySet<string>): string[] {
  if (Array.isArray(body)) return body.flatMap((item) => valuesOf(item, keys));
  if (typeof body !== 'object' || body === null) return [];
  return Object.entries(body).flatMap(([key, value]) =>
    keys.has(key) && typeof value === 'string'
      ? [value]
      : key === 'customFields'
        ? []
        : valuesOf(value, keys),
  );
}

beforeAll(async () => {
  mock = await startMockServer({
    seed: 42,
    selfCheck: true,
    clock: 'frozen',
    interceptors: [createViolationLog(), createChaos()],
  });
});
afterEach(async () => {
  const off = await fetch(`${mock.url}/__mock/chaos`, { method: 'DELETE' });
  expect(off.status).toBe(200);
});
afterAll(async () => {
  expect(mock.engine.selfCheckFailures).toEqual([]);
  await mock.close();
});

describe('chaos: unknown fields', () => {
  it('VER-TOLERATE-UNKNOWN-FIELDS: every response object gains a field the contract does not know, and still validates', async () => {
    const key = keyOf('org_acme', 'read_write');
    const requests: [OperationId, string][] = [
      ['listActions', '/v0/action/list?pageSize=3'],
      ['listAgents', '/v0/agents'],
      ['getTagAnalytics', '/v0/analytics/tags?limit=3'],
      ['getEngagement', '/v0/analytics/engagement'],
      ['getAction', '/v0/action/no-such-action'],
    ];
    const plain = await Promise.all(requests.map(([op, path]) => call(op, path, key)));
    const list = plain[0]?.body as { data: { actionId: string }[] };
    const detailPath = `/v0/action/${encodeURIComponent(list.data[0]?.actionId ?? '')}`;
    const plainDetail = await call('getAction', detailPath, key);

    await setChaos({ unknownFields: true, seed: 3 });
    for (const [index, [op, path]] of requests.entries()) {
      const chaotic = await call(op, path, key);
      expect(chaotic.status).toBe(plain[index]?.status);
      expect(everyObjectExtended(plain[index]?.body, chaotic.body), path).toEqual([]);
    }
    expect(everyObjectExtended(plainDetail.body, (await call('getAction', detailPath, key)).body)).toEqual(
      [],
    );
    const state = await (await fetch(`${mock.url}/__mock/chaos`)).json();
    expect(state).toMatchObject({
      chaos: { unknownFields: true, seed: 3 },
      stats: { unknownFields: expect.any(Number) },
    });
  });
});

describe('chaos: big ids', () => {
  it('ID-STRING-PRESERVED / ID-JSON-STRING-IN-RAW-BODY: ids are served above 2^53 with leading zeros and resolve when sent back', async () => {
    await setChaos({ bigIds: true, seed: 5 });
    const read = keyOf('org_acme', 'read_write');
    const list = await call('listActions', '/v0/action/list?pageSize=20', read);
    const ids = valuesOf(list.body, new Set(['actionId', 'userId', 'assigneeUserId']));
    expect(ids.length).toBeGreaterThan(20);
    expect(ids.filter((id) => !isHostileId(id))).toEqual([]);
    expect(ids.some((id) => id.startsWith('00') && BigInt(id) > 2n ** 53n)).toBe(true);
    expect(list.text).not.toMatch(/"(actionId|userId)":\s*\d/);

    const actions = (list.body as { data: { actionId: string }[] }).data;
    for (const { actionId } of actions.slice(0, 5)) {
      const detail = await call('getAction', `/v0/action/${encodeURIComponent(actionId)}`, read);
      expect(detail.status).toBe(200);
      expect((detail.body as { actionId: string }).actionId).toBe(actionId);
    }
    const served = actions.find((a) => a.actionId.startsWith('009'))?.actionId ?? '';
    const fieldsPath = `/v0/actions/${encodeURIComponent(served)}/custom-fields`;
    const fields = await call('getCustomFields', fieldsPath, read);
    expect(fields.status).toBe(200);
    expect((fields.body as { actionId: string }).actionId).toBe(served);

    const agents = await call('listAgents', '/v0/agents', read);
    const agentIds = (agents.body as { data: { agentId: string }[] }).data.map((a) => a.agentId);
    expect(agentIds.every(isHostileId)).toBe(true);
    for (const agentId of agentIds) {
      expect((await call('getAgent', `/v0/agents/${encodeURIComponent(agentId)}`, read)).status).toBe(200);
    }

    const ack = await call('submitModerationCase', '/v0/moderation/cases', keyOf('org_acme', 'write'), {
      method: 'POST',
      body: sampleSubmission({ externalId: 'chaos-big-ids' }),
    });
    const caseId = (ack.body as { caseId: string; externalId: string }).caseId;
    expect(isHostileId(caseId)).toBe(true);
    expect((ack.body as { externalId: string }).externalId).toBe('chaos-big-ids');
    const status = await call('getModerationCase', `/v0/moderation/cases/${caseId}`, read);
    expect((status.body as { caseId: string }).caseId).toBe(caseId);
  });

  it('a served id mangled by a number parser is logged as precision loss naming the served id', async () => {
    await setChaos({ bigIds: true, seed: 5 });
    const read = keyOf('org_acme', 'reporting');
    const agents = await call('listAgents', '/v0/agents', read);
    const served = (agents.body as { data: { agentId: string }[] }).data
      .map((a) => a.agentId)
      .find((id) => id.startsWith('009'));
    if (served === undefined) throw new Error('no aliased agent id');
    await fetch(`${mock.url}/__mock/violations`, { method: 'DELETE' });
    const sent = printedAfterDoubleParse(served);
    expect((await call('getAgent', `/v0/agents/${sent}`, read)).status).toBe(404);
    const log = (await (await fetch(`${mock.url}/__mock/violations?kind=precision-loss`)).json()) as {
      violations: Violation[];
    };
    expect(log.violations.map((v) => v.intendedId)).toEqual([served]);
  });
});

describe('chaos: latency', () => {
  it('delays each REST request by at least the configured minimum (a lower bound only)', async () => {
    await setChaos({ latency: '150-200', seed: 1 });
    const key = keyOf('org_acme', 'reporting');
    const started = performance.now();
    const answer = await call('listQueues', '/v0/queues', key);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
    expect(answer.status).toBe(200);
    const state = (await (await fetch(`${mock.url}/__mock/chaos`)).json()) as {
      stats: { delayed: number; delayedMs: number };
    };
    expect(state.stats.delayed).toBe(1);
    expect(state.stats.delayedMs).toBeGreaterThanOrEqual(150);
  });
});

describe('chaos: injected errors', () => {
  it('ERR-500-MESSAGE: at rate 1 every REST request gets 500 {success:false, error:"Internal server error"}; the admin API stays up', async () => {
    await setChaos({ errorRate: 1 });
    const key = keyOf('org_acme', 'reporting');
    for (const [op, path] of [
      ['listActions', '/v0/action/list'],
      ['listAgents', '/v0/agents'],
    ] as const) {
      const answer = await call(op, path, key);
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ success: false, error: 'Internal server error' });
      expect(validateSchema('ErrorBody', answer.body)).toEqual({ ok: true });
    }
    expect((await fetch(`${mock.url}/__mock/chaos`)).status).toBe(200);
    expect((await fetch(`${mock.url}/docs/json`)).status).toBe(200);
  });

  it('at rate 0.5 the same seed gives the same sequence of failures', async () => {
    const key = keyOf('org_acme', 'reporting');
    const statuses = async (): Promise<number[]> => {
      await setChaos({ errorRate: 0.5, seed: 7 });
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await call('listQueues', '/v0/queues', key)).status);
      return out;
    };
    const first = await statuses();
    const failures = first.filter((s) => s === 500).length;
    expect(failures).toBeGreaterThan(3);
    expect(failures).toBeLessThan(27);
    expect(first.every((s) => s === 200 || s === 500)).toBe(true);
    expect(await statuses()).toEqual(first);
  });
});

describe('chaos: dropped connections', () => {
  it('the HTTP mock destroys the socket: the client sees a network error, not a response', async () => {
    await setChaos({ dropRate: 1 });
    const key = keyOf('org_acme', 'reporting');
    await expect(fetch(`${mock.url}/v0/agents`, { headers: { 'x-api-key': key } })).rejects.toThrow(
      TypeError,
    );
    const state = (await (await fetch(`${mock.url}/__mock/chaos`)).json()) as { stats: { drops: number } };
    expect(state.stats.drops).toBe(1);
    await setChaos({ dropRate: 0 });
    expect((await call('listAgents', '/v0/agents', key)).status).toBe(200);
  });

  it('under MSW a dropped connection is a network error (HttpResponse.error)', async () => {
    const msw = createHandlers({
      baseUrl: 'https://chaos.cca.test',
      seed: 42,
      clock: 'frozen',
      chaos: { dropRate: 1 },
    });
    const server = setupServer(...msw.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const key = msw.admin.listKeys('org_acme')[0]?.key ?? '';
      await expect(
        fetch('https://chaos.cca.test/v0/agents', { headers: { 'x-api-key': key } }),
      ).rejects.toThrow(TypeError);
      msw.admin.chaosOff();
      expect(
        (await fetch('https://chaos.cca.test/v0/agents', { headers: { 'x-api-key': key } })).status,
      ).toBe(200);
    } finally {
      server.close();
    }
  });
});

describe('chaos: admin API and CLI', () => {
  it('PUT /__mock/chaos rejects invalid modes with 400 and names the problem', async () => {
    const put = (body: unknown) =>
      fetch(`${mock.url}/__mock/chaos`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const rate = await put({ errorRate: 2 });
    expect(rate.status).toBe(400);
    expect(((await rate.json()) as { error: string }).error).toContain(
      'errorRate must be a number from 0 to 1',
    );
    const unknown = await put({ chaosMonkey: true });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain('unknown chaos option chaosMonkey');
    expect((await put({ latency: '300-50' })).status).toBe(400);
  });

  it('cca-kit mock --chaos-* starts the mock with those modes (read back from GET /__mock/chaos)', async () => {
    const controller = new AbortController();
    const out: string[] = [];
    const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => out.push(t), signal: controller.signal };
    const running = main(
      [
        'mock',
        '--port',
        '0',
        '--actions',
        '50',
        '--chaos-unknown-fields',
        '--chaos-big-ids',
        '--chaos-latency',
        '50-300',
        '--chaos-error-rate',
        '0.05',
        '--chaos-drop-rate',
        '0.01',
        '--chaos-seed',
        '7',
      ],
      io,
    );
    try {
      for (let i = 0; i < 400 && !out.join('').includes('Press Ctrl+C'); i++)
        await new Promise((r) => setTimeout(r, 25));
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out.join(''))?.[1];
      expect(url, out.join('')).toBeDefined();
      expect(out.join('')).toContain(
        'chaos: unknown fields, big ids, latency 50-300 ms, error rate 0.05, drop rate 0.01, seed 7',
      );
      const state = (await (await fetch(`${url}/__mock/chaos`)).json()) as Record<string, unknown>;
      expect(state['chaos']).toEqual({
        unknownFields: true,
        bigIds: true,
        latency: { minMs: 50, maxMs: 300 },
        errorRate: 0.05,
        dropRate: 0.01,
        seed: 7,
      });
      expect((await fetch(`${url}/__mock/violations`)).status).toBe(200);
    } finally {
      controller.abort();
      expect(await running).toBe(0);
    }
    const bad = main(['mock', '--port', '0', '--chaos-error-rate', '2'], {
      stdout: () => undefined,
      stderr: (t) => out.push(t),
      signal: AbortSignal.abort(),
    });
    expect(await bad).toBe(2);
    expect(out.join('')).toContain('--chaos-error-rate must be a number from 0 to 1');
  });
});
