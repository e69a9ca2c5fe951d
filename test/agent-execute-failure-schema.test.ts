/**
 * A failed execute answers an isError result whose text is the AgentFailure JSON plus `execution`
 * (what the script did before it failed), and no structuredContent: clients on the 1.x SDK validate
 * structuredContent against the advertised outputSchema even on an error result, and that schema
 * describes a success. Each real failure kind must validate against the contract's failure shape
 * (`execute.json#/failureExecution`).
 */

import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer } from '../mocks/agent/server/agent-server.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { agentContract } from '../src/contract/agent.ts';
import { answerData } from './agent-answer.ts';

let agent: AgentServer;
let client: Client;

beforeAll(async () => {
  const engine = createEngine({ seed: 42 });
  agent = createAgentServer(engine, { sandbox: { poolSize: 1, queueLength: 0, calls: 1, timeMs: 1500 } });
  const key =
    engine.admin.listKeys('org_acme').find((k) => k.profile === 'reporting' && k.status === 'active')?.key ??
    undefined;
  if (key === undefined) throw new Error('no active reporting key');
  client = new Client({ name: 'execute-failure-schema-test', version: '1.0.0' });
  await client.connect(await agent.connectInProcess(key));
});
afterAll(async () => {
  await client.close();
  await agent.close();
});

function failureValidators() {
  const validator = agentContract().validator('execute.json', '/failureExecution');
  if (validator === undefined) throw new Error('execute.json#/failureExecution does not compile');
  return [validator];
}

async function failureOf(script: string): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name: 'execute', arguments: { script } });
  if (result.isError !== true) throw new Error(`expected a failure, got ${JSON.stringify(result)}`);
  const structured = answerData(result);
  if (result.structuredContent !== undefined) throw new Error('a failure with structuredContent');
  if (typeof structured !== 'object' || structured === null)
    throw new Error('a failure whose text is not JSON');
  return { ...structured };
}

describe('execute failures: the failure JSON as text, valid against the contract', () => {
  it('script_error, limit_exceeded and busy, each with its execution report', async () => {
    const validators = failureValidators();
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
        const checked = validate.check(failure);
        expect(checked.ok, `${String(failure['kind'])}: ${JSON.stringify(checked)}`).toBe(true);
      }
  });

  it('an execution report that breaks its schema is refused (the shared definition is checked, not open)', async () => {
    const validators = failureValidators();
    const failure = await failureOf(`throw new Error('boom');`);
    const broken = { ...failure, execution: { logs: [{ level: 'shout', text: 1 }] } };
    for (const validate of validators) expect(validate.check(broken).ok).toBe(false);
  });
});
