/**
 * A failed execute answers an isError result whose structuredContent is the AgentFailure plus
 * `execution` (what the script did before it failed). Clients on the 1.x SDK validate error results
 * against the advertised outputSchema too, so each real failure kind execute returns must validate
 * against what tools/list advertises, compiled as a client compiles it (its own ajv, strict off).
 */
import { Client } from '@modelcontextprotocol/client';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer } from '../mocks/agent/server/agent-server.ts';
import { createEngine } from '../mocks/engine/index.ts';

let agent: AgentServer;
let client: Client;

beforeAll(async () => {
  const engine = createEngine({ seed: 42 });
  agent = createAgentServer(engine, { sandbox: { poolSize: 1, queueLength: 0, calls: 1, timeMs: 1500 } });
  const key = engine.admin
    .listKeys('org_acme')
    .find((k) => k.profile === 'reporting' && k.status === 'active')?.key;
  if (key === undefined) throw new Error('no active reporting key');
  client = new Client({ name: 'execute-failure-schema-test', version: '1.0.0' });
  await client.connect(await agent.connectInProcess(key));
});
afterAll(async () => {
  await client.close();
  await agent.close();
});

async function advertisedValidators() {
  const { tools } = await client.listTools();
  const listed = tools.find((t) => t.name === 'execute')?.outputSchema;
  if (listed === undefined) throw new Error('execute is not listed');
  const schema: Record<string, unknown> = { ...listed };
  return [new Ajv2020({ strict: false }).compile(schema), new Ajv({ strict: false }).compile(schema)];
}

async function failureOf(script: string): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name: 'execute', arguments: { script } });
  if (result.isError !== true) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  const structured = result.structuredContent;
  if (typeof structured !== 'object' || structured === null)
    throw new Error('a failure without structuredContent');
  return { ...structured };
}

describe('execute failures validate against the advertised outputSchema', () => {
  it('script_error, limit_exceeded and busy, each with its execution report', async () => {
    const validators = await advertisedValidators();
    const thrown = await failureOf(`console.log('before'); throw new Error('boom');`);
    const overCalls = await failureOf(
      `await call('query.search.actions', { limit: 1 }); await call('query.search.actions', { limit: 1 });`,
    );
    const running = failureOf('while (true) {}');
    const busy = await failureOf('return 1');
    const timedOut = await running;
    const seen = [thrown, overCalls, busy, timedOut];
    expect(seen.map((f) => f['kind'])).toEqual(['script_error', 'limit_exceeded', 'busy', 'limit_exceeded']);
    expect(thrown['execution']).toMatchObject({ logs: [{ level: 'log', text: 'before' }] });
    expect(overCalls['execution']).toMatchObject({
      calls: { total: 1, byOperation: [{ operationId: 'query.search.actions', ok: 1 }] },
    });
    for (const failure of seen)
      for (const validate of validators) {
        const valid = validate(failure);
        expect(valid, `${String(failure['kind'])}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(
          true,
        );
      }
  });

  it('an execution report that breaks its schema is refused (the shared definition is checked, not open)', async () => {
    const validators = await advertisedValidators();
    const failure = await failureOf(`throw new Error('boom');`);
    const broken = { ...failure, execution: { logs: [{ level: 'shout', text: 1 }] } };
    for (const validate of validators) expect(validate(broken)).toBe(false);
  });
});
