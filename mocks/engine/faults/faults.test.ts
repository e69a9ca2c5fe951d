import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contract } from '../../../src/contract/index.ts';
import { createEngine } from '../engine.ts';
import { createJournal } from '../journal/index.ts';
import { sampleSubmission } from '../moderation/sample.ts';
import { createFaults, FaultInputError, faultStatuses } from './index.ts';

const BASE = 'http://mock.test';

function setUp() {
  const journal = createJournal();
  const engine = createEngine({ seed: 42, actions: 200, clock: 'frozen', interceptors: [journal] });
  const keyOf = (profile: string, organizationId = 'org_acme') =>
    engine.admin.listKeys(organizationId).find((k) => k.profile === profile && k.status === 'active')?.key ??
    '';
  const call = (path: string, key: string, init: RequestInit = {}) =>
    engine.handle(
      new Request(`${BASE}${path}`, { ...init, headers: { 'x-api-key': key, ...init.headers } }),
      { inProcess: true },
    );
  const submit = (key: string, externalId: string) =>
    call('/v0/moderation/cases', key, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sampleSubmission({ externalId })),
    });
  return { engine, journal, keyOf, call, submit };
}

describe('targeted faults on the engine', () => {
  it('answers the status with the spec error body the next N times only, then the operation answers again; counters say so', async () => {
    const { engine, journal, keyOf, call } = setUp();
    const key = keyOf('reporting');
    const fault = engine.admin.faults.add({ operation: 'listAgents', status: 500, times: 2 });
    expect(fault).toMatchObject({ id: 'f1', fired: 0, remaining: 2, times: 2 });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call('/v0/agents', key));
    expect(answers.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(await answers[0]?.json()).toEqual({ success: false, error: 'Internal server error' });
    expect(answers[0]?.headers.get('x-mock-fault')).toBe('f1');
    expect(answers[0]?.headers.get('x-mock-error-code')).toBe('FAULT_INJECTED');
    expect(answers[2]?.headers.get('x-mock-fault')).toBeNull();
    expect(engine.admin.faults.get('f1')).toMatchObject({ fired: 2, remaining: 0 });
    expect(engine.admin.faults.get('f1').description).toBe('listAgents → 500, 2 times');
    // The journal marks the answers the fault gave, and only those.
    expect(journal.list().map((e) => e.fault)).toEqual(['f1', 'f1', null]);
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('narrows by key, path and body: other keys, paths and bodies are answered as usual', async () => {
    const { engine, keyOf, call } = setUp();
    const reporting = keyOf('reporting');
    const other = keyOf('read_write');
    engine.admin.faults.add({ operation: 'listAgents', key: reporting, status: 403, times: null });
    expect((await call('/v0/agents', other)).status).toBe(200);
    const refused = await call('/v0/agents', reporting);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^Forbidden \(the mock's fault f1/);
    expect((await call('/v0/agents', reporting)).status).toBe(403);
    expect(engine.admin.faults.get('f1')).toMatchObject({ fired: 2, remaining: null });

    const list = (await (await call('/v0/action/list?pageSize=5', reporting)).json()) as {
      data: { actionId: string }[];
    };
    const [first, second] = list.data;
    engine.admin.faults.add({ operation: 'getAction', path: `/v0/action/${first?.actionId}`, status: 404 });
    const sibling = await call(`/v0/action/${second?.actionId}`, reporting);
    expect(sibling.status, await sibling.clone().text()).toBe(200);
    expect((await call(`/v0/action/${first?.actionId}`, reporting)).status).toBe(404);
    expect((await call(`/v0/action/${first?.actionId}`, reporting)).status).toBe(200);

    const write = keyOf('write');
    engine.admin.faults.add({ operation: 'submitModerationCase', body: { externalId: 'b-2' }, status: 409 });
    const { submit } = { submit: (id: string) => setUpSubmit(call, write, id) };
    expect((await submit('b-1')).status).toBe(202);
    expect((await submit('b-2')).status).toBe(409);
    expect((await submit('b-2')).status).toBe(202);
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('drops the connection: dispatch answers a drop, the Fetch API a network error; the journal shows status 0 and the fault', async () => {
    const { engine, journal, keyOf, call } = setUp();
    const key = keyOf('reporting');
    engine.admin.faults.add({ operation: 'listQueues', drop: true });
    const dropped = await call('/v0/queues', key);
    expect(dropped.type).toBe('error');
    expect((await call('/v0/queues', key)).status).toBe(200);
    expect(journal.list()[0]).toMatchObject({ status: 0, fault: 'f1', operation: 'listQueues' });
  });

  it('delays the answer by the given ms, then answers as usual', async () => {
    const { engine, keyOf, call } = setUp();
    engine.admin.faults.add({ operation: 'listQueues', delayMs: 120 });
    const started = performance.now();
    const late = await call('/v0/queues', keyOf('reporting'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    expect(late.status).toBe(200);
    expect(late.headers.get('x-mock-fault')).toBe('f1');
  });

  it('answers 202 and the case then ends as failed on the clock; a refused submission does not spend the fault', async () => {
    const { engine, keyOf, call, submit } = setUp();
    const write = keyOf('write');
    const reader = keyOf('reporting');
    engine.admin.faults.add({ operation: 'submitModerationCase', failCase: true, failureCode: 'MODEL_DOWN' });
    const refused = await call('/v0/moderation/cases', write, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ externalId: 'incomplete' }),
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(engine.admin.faults.get('f1').remaining).toBe(1);
    const ack = await submit(write, 'fails-1');
    expect(ack.status).toBe(202);
    expect(ack.headers.get('x-mock-fault')).toBe('f1');
    const { caseId } = (await ack.json()) as { caseId: string };
    const read = async () =>
      (await (await call(`/v0/moderation/cases/${caseId}`, reader)).json()) as Record<string, unknown>;
    expect((await read())['analysisStatus']).toBe('pending');
    engine.admin.advanceClock(10_000);
    expect(await read()).toMatchObject({ analysisStatus: 'failed', failureCode: 'MODEL_DOWN' });
    // The next case is not failed: the fault was spent.
    const next = (await (await submit(write, 'fine-1')).json()) as { caseId: string };
    engine.admin.advanceClock(10_000);
    const status = (await (await call(`/v0/moderation/cases/${next.caseId}`, reader)).json()) as Record<
      string,
      unknown
    >;
    expect(status['analysisStatus']).toBe('completed');
    expect(engine.admin.faults.get('f1')).toMatchObject({ fired: 1, remaining: 0 });
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('fails every case a batch accepted, not the duplicates', async () => {
    const { engine, keyOf, call, submit } = setUp();
    const write = keyOf('write');
    const reader = keyOf('reporting');
    const first = (await (await submit(write, 'batch-old')).json()) as { caseId: string };
    engine.admin.faults.add({ operation: 'submitModerationBatch', failCase: true });
    const answer = await call('/v0/moderation/cases/batch', write, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        cases: ['batch-old', 'batch-1', 'batch-2'].map((externalId) => sampleSubmission({ externalId })),
      }),
    });
    expect(answer.status).toBe(202);
    const { results } = (await answer.json()) as { results: { caseId: string; status: string }[] };
    expect(results.map((r) => r.status)).toEqual(['duplicate', 'accepted', 'accepted']);
    engine.admin.advanceClock(10_000);
    const states = [];
    for (const r of results) {
      const read = await call(`/v0/moderation/cases/${r.caseId}`, reader);
      states.push(((await read.json()) as { analysisStatus: string }).analysisStatus);
    }
    expect(results[0]?.caseId).toBe(first.caseId);
    expect(states).toEqual(['completed', 'failed', 'failed']);
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('is cleared by reset (ids restart at f1) and is deterministic: the same calls give the same answers', async () => {
    const run = async () => {
      const { engine, keyOf, call } = setUp();
      engine.admin.faults.add({ operation: 'listAgents', status: 500 });
      engine.admin.faults.add({ operation: 'listAgents', status: 403, times: 2 });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call('/v0/agents', keyOf('reporting'))).status);
      return { engine, statuses };
    };
    const one = await run();
    expect(one.statuses).toEqual([500, 403, 403, 200]);
    expect((await run()).statuses).toEqual(one.statuses);
    one.engine.admin.reset();
    expect(one.engine.admin.faults.list()).toEqual([]);
    expect(one.engine.admin.faults.add({ operation: 'listAgents', drop: true }).id).toBe('f1');
  });

  it('answers every error status every operation declares with a body that passes the self-check', async () => {
    const { engine, keyOf, call } = setUp();
    const key = keyOf('read_write');
    engine.admin.setModerationMode('org_acme', 'ad_policy');
    const list = (await (await call('/v0/action/list?pageSize=1', key)).json()) as {
      data: { actionId: string }[];
    };
    const actionId = list.data[0]?.actionId ?? '';
    const agents = (await (await call('/v0/agents', key)).json()) as { data: { agentId: string }[] };
    let checked = 0;
    for (const operation of contract.operations.values()) {
      if (operation.requiredScope === null || operation.requestBodySchema !== undefined) continue;
      const path = operation.pathTemplate
        .replace('{id}', operation.operationId === 'getAgent' ? (agents.data[0]?.agentId ?? '') : actionId)
        .replace('{actionId}', actionId)
        .replace('{caseId}', 'mc_0000000000000000');
      for (const status of faultStatuses(operation)) {
        engine.admin.faults.add({ operation: operation.operationId, status });
        const answer = await call(path, key);
        expect(answer.status, `${operation.operationId} ${status}`).toBe(status);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(engine.selfCheckFailures).toEqual([]);
    expect(engine.admin.faults.list().every((f) => f.fired === 1)).toBe(true);
  });
});

function setUpSubmit(
  call: (path: string, key: string, init?: RequestInit) => Promise<Response>,
  key: string,
  externalId: string,
) {
  return call('/v0/moderation/cases', key, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(sampleSubmission({ externalId })),
  });
}

describe('a fault is checked when it is added, the error naming the field', () => {
  const faults = () => createFaults(contract.operations);
  const refusal = (input: unknown): { field: string; message: string } => {
    try {
      faults().add(input);
    } catch (error) {
      if (error instanceof FaultInputError) return { field: error.field, message: error.message };
      throw error;
    }
    throw new Error('accepted');
  };

  it.each([
    [{ operation: 'getActions', status: 500 }, 'operation', /operationId of a service operation.*getAction/],
    [{ operation: 'getOpenApiDocument', status: 500 }, 'operation', /service operation/],
    [
      { operation: 'getAction', status: 409 },
      'status',
      /declares no 409 answer; it declares 400, 401, 403, 404, 500/,
    ],
    [{ operation: 'getAction', status: 500.5 }, 'status', /integer from 400 to 599/],
    [{ operation: 'getAction', status: 200 }, 'status', /integer from 400 to 599/],
    [{ operation: 'getAction', status: 500, drop: true }, 'drop', /one way: status and drop/],
    [{ operation: 'getAction' }, '', /needs one of status, drop, failCase or delayMs/],
    [{ operation: 'getAction', failCase: true }, 'failCase', /only moderation submissions/],
    [
      { operation: 'submitModerationCase', failureCode: 'X', status: 500 },
      'failureCode',
      /goes with failCase/,
    ],
    [{ operation: 'getAction', status: 500, times: 0 }, 'times', /integer from 1 to 1000000/],
    [{ operation: 'getAction', delayMs: 60_001 }, 'delayMs', /integer from 0 to 60000/],
    [{ operation: 'getAction', status: 500, path: 'v0/action/1' }, 'path', /must start with "\/"/],
    [{ operation: 'getAction', status: 500, body: { a: 1 } }, 'body', /takes no request body/],
    [{ operation: 'submitModerationCase', status: 500, body: [1] }, 'body', /must be an object/],
    [{ operation: 'getAction', status: 500, key: '' }, 'key', /non-empty string/],
    [{ operation: 'getAction', status: 500, retries: 2 }, 'retries', /unknown field/],
    ['getAction', '', /must be an object/],
  ])('refuses %j naming %s', (input, field, message) => {
    const refused = refusal(input);
    expect(refused.field).toBe(field);
    expect(refused.message).toMatch(message);
  });

  it('matches a path with * wildcards as a whole path, literally elsewhere', () => {
    const set = faults();
    set.add({ operation: 'getAction', status: 404, path: '/v0/action/a.b*', times: null });
    const at = (pathname: string) =>
      set.match({ operationId: 'getAction', key: 'k', pathname, body: undefined });
    expect(at('/v0/action/a.b')?.id).toBe('f1');
    expect(at('/v0/action/a.bcd')?.id).toBe('f1');
    expect(at('/v0/action/axb')).toBeUndefined();
    expect(at('/x/v0/action/a.b')).toBeUndefined();
  });

  it('matches a body by the fields it gives, nested objects included, arrays and scalars exactly', () => {
    const set = faults();
    set.add({
      operation: 'submitModerationCase',
      status: 500,
      body: { targeting: { geos: ['US'] }, market: 'US' },
      times: null,
    });
    const at = (body: unknown) =>
      set.match({ operationId: 'submitModerationCase', key: 'k', pathname: '/', body })?.id;
    expect(at({ market: 'US', title: 't', targeting: { geos: ['US'], ageMin: null } })).toBe('f1');
    expect(at({ market: 'US', targeting: { geos: ['US', 'FR'] } })).toBeUndefined();
    expect(at({ market: 'FR', targeting: { geos: ['US'] } })).toBeUndefined();
    expect(at({ targeting: { geos: ['US'] } })).toBeUndefined();
    expect(at(undefined)).toBeUndefined();
  });
});

describe('the counters count what was done', () => {
  it('property: over any faults and requests, each fault answers at most `times` requests, only ones it matches, the first live match first; fired + remaining = times', () => {
    const operations = ['listAgents', 'listQueues', 'getAction'] as const;
    const keys = ['key-a', 'key-b'] as const;
    const faultArb = fc.record({
      operation: fc.constantFrom(...operations),
      key: fc.option(fc.constantFrom(...keys), { nil: undefined }),
      times: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
    });
    const requestArb = fc.record({
      operationId: fc.constantFrom(...operations),
      key: fc.constantFrom(...keys),
    });
    fc.assert(
      fc.property(
        fc.array(faultArb, { maxLength: 5 }),
        fc.array(requestArb, { maxLength: 30 }),
        (inputs, requests) => {
          const set = createFaults(contract.operations);
          for (const input of inputs)
            set.add({ ...input, ...(input.key === undefined ? {} : { key: input.key }), status: 500 });
          const answered = new Map<string, number>();
          for (const request of requests) {
            const fault = set.match({ ...request, pathname: '/', body: undefined });
            // The model: the first fault, in the order added, that matches and is not spent.
            const expected = inputs.findIndex(
              (input, i) =>
                input.operation === request.operationId &&
                (input.key === undefined || input.key === request.key) &&
                (input.times === null || (answered.get(`f${i + 1}`) ?? 0) < input.times),
            );
            expect(fault?.id).toBe(expected < 0 ? undefined : `f${expected + 1}`);
            if (fault === undefined) continue;
            set.fire(fault.id);
            answered.set(fault.id, (answered.get(fault.id) ?? 0) + 1);
          }
          for (const view of set.list()) {
            expect(view.fired).toBe(answered.get(view.id) ?? 0);
            if (view.times === null) expect(view.remaining).toBeNull();
            else expect(view.fired + (view.remaining ?? Number.NaN)).toBe(view.times);
          }
          expect(set.armed).toBe(set.list().some((v) => v.remaining === null || v.remaining > 0));
        },
      ),
      { seed: 31, numRuns: 300 },
    );
  });
});
