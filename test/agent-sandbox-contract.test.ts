/**
 * The execute tool's contract (contract/agent/execute.json) agrees with the sandbox: the documented
 * limit defaults are the code's, and real envelopes and failures, produced by scripts over the real
 * operation registry and engine, validate against the schemas in the project's ajv layer.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import executeJson from '../contract/agent/execute.json' with { type: 'json' };
import { createExecuteTool, DEFAULT_SANDBOX_LIMITS } from '../mocks/agent/sandbox/index.ts';
import { EXECUTE_FLAGS } from '../src/cli/mcp-command.ts';
import { agentContract } from '../src/contract/agent.ts';
import { createOperationsHarness, type OperationsHarness } from './agent-operations-support.ts';

let harness: OperationsHarness;
let execute: ReturnType<typeof createExecuteTool>;

beforeAll(async () => {
  harness = createOperationsHarness();
  execute = createExecuteTool(harness.registry, { poolSize: 1 });
  await execute.sandbox.ready();
});
afterAll(async () => {
  await execute.close();
});

function check(pointer: string, value: unknown) {
  const validator = agentContract().validator('execute.json', pointer);
  if (validator === undefined) throw new Error(`no schema at execute.json#${pointer}`);
  return validator.check(value);
}

describe('contract/agent/execute.json', () => {
  it('documents the defaults of DEFAULT_SANDBOX_LIMITS, every one', () => {
    const documented = Object.fromEntries(
      Object.entries(executeJson.limits).map(([name, entry]) => [name, entry.default]),
    );
    expect(documented).toEqual({ ...DEFAULT_SANDBOX_LIMITS });
  });

  it('names only flags that the CLI has', () => {
    const flags = Object.values(executeJson.limits)
      .map((entry) => ('flag' in entry ? entry.flag : undefined))
      .filter((flag) => flag !== undefined);
    expect(flags.length).toBeGreaterThan(0);
    for (const flag of flags) expect(Object.keys(EXECUTE_FLAGS)).toContain(flag.replace(/^--/, ''));
  });

  it('is the schema source of the execute tool in tools.json', () => {
    const schemas = agentContract().toolSchemas('execute');
    expect(schemas?.inputSchema).toEqual(executeJson.tool.inputSchema);
    expect(check('/tool/inputSchema', { script: 'return 1' })).toEqual({ ok: true });
    expect(check('/tool/inputSchema', { script: 1 }).ok).toBe(false);
  });

  it('a real execution over the real operations answers an envelope valid against outputSchema', async () => {
    const outcome = await execute.handle(harness.context('reporting'), {
      script: `const catalog = spec();
               const page = await call('query.search.actions', { limit: 3 });
               console.log('ids', page.items.map((a) => a.actionId ?? a.id));
               return { operations: catalog.map((o) => o.id), count: page.items.length, next: page.nextCursor };`,
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
    expect(check('/tool/outputSchema', outcome.value)).toEqual({ ok: true });
    const result = outcome.value.result as { operations: string[]; count: number };
    expect(result.operations).toEqual(harness.registry.list().map((o) => o.id));
    expect(result.count).toBe(3);
    expect(outcome.value.calls).toMatchObject({
      total: 1,
      byOperation: [{ operationId: 'query.search.actions', ok: 1, failed: 0, unanswered: 0 }],
      failed: [],
    });
  });

  it('AGENT-MCP-EXECUTE-ENVELOPE: the envelope carries the return value, the console output, the calls and the truncation flags with their limits', async () => {
    const small = createExecuteTool(harness.registry, { poolSize: 1, resultBytes: 200, logLines: 2 });
    try {
      await small.sandbox.ready();
      const whole = await small.handle(harness.context('reporting'), {
        script: `console.log('one'); console.warn({ two: 2 });
                 const page = await call('query.search.actions', { limit: 1 });
                 return { count: page.items.length };`,
      });
      if (!whole.ok) throw new Error(JSON.stringify(whole.failure));
      expect(check('/tool/outputSchema', whole.value)).toEqual({ ok: true });
      expect(whole.value.result).toEqual({ count: 1 });
      expect(whole.value.logs).toEqual([
        { level: 'log', text: 'one' },
        { level: 'warn', text: '{"two":2}' },
      ]);
      expect(whole.value.calls).toMatchObject({
        total: 1,
        byOperation: [{ operationId: 'query.search.actions', ok: 1, failed: 0, unanswered: 0 }],
      });
      expect(whole.value.truncated).toEqual({ result: null, logs: null });
      expect(whole.value.limits).toMatchObject({ resultBytes: 200, logLines: 2 });

      const cut = await small.handle(harness.context('reporting'), {
        script: `for (let i = 0; i < 5; i++) console.log(i); return 'x'.repeat(500);`,
      });
      if (!cut.ok) throw new Error(JSON.stringify(cut.failure));
      expect(check('/tool/outputSchema', cut.value)).toEqual({ ok: true });
      expect(cut.value.result).toMatch(/^x+$/);
      expect(Buffer.byteLength(JSON.stringify(cut.value.result))).toBeLessThanOrEqual(200);
      expect(cut.value.truncated).toMatchObject({
        result: { limit: 200, unit: 'bytes', size: 502, resume: null },
        logs: { limit: 2, unit: 'lines', dropped: 3 },
      });
      expect(cut.value.truncated.result?.cut).toMatchObject({
        characters: 500 - (cut.value.result as string).length,
        at: [{ pointer: '', unit: 'characters', total: 500 }],
      });
      expect(cut.value.logs).toEqual([
        { level: 'log', text: '0' },
        { level: 'log', text: '1' },
      ]);
    } finally {
      await small.close();
    }
  });

  it('a write through execute with a read key fails forbidden naming the scope; the failure validates', async () => {
    const outcome = await execute.handle(harness.context('reporting'), {
      script: `await call('config.savedSearch.create', { name: 'mine', query: { limit: 5 } });`,
    });
    if (outcome.ok) throw new Error('expected a failure');
    expect(outcome.failure.message).toMatch(/config\.savedSearch\.create/);
    expect(check('/failureExecution', outcome.failure)).toEqual({ ok: true });
    // Its definitions are the envelope's, shared at load: a report outside them is refused.
    const badReport = {
      ...outcome.failure,
      execution: { ...outcome.failure.execution, logs: [{ level: 'shout' }] },
    };
    expect(check('/failureExecution', badReport).ok).toBe(false);
    const { execution, ...failure } = outcome.failure;
    expect(agentContract().checkFailure(failure)).toEqual({ ok: true });
    expect(failure.kind).toBe('forbidden');
    expect(failure.message).toContain('FORBIDDEN (missing scope write)');
    expect(execution.calls.failed[0]).toMatchObject({
      ok: false,
      failure: { kind: 'forbidden', missingScope: 'write' },
    });
  });

  it('invalid input to an operation names the operation and the field inside the script', async () => {
    const outcome = await execute.handle(harness.context('reporting'), {
      script: `try { await call('query.search.actions', { limit: 100000 }); }
               catch (e) { return { message: e.message, code: e.code, field: e.field }; }`,
    });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
    const caught = outcome.value.result as { message: string; code: string; field: string };
    expect(caught.code).toBe('INVALID_INPUT');
    expect(caught.field).toContain('limit');
    expect(caught.message).toContain("call('query.search.actions') failed: INVALID_INPUT at");
  });

  it('the example of docs/agent-interface.md ("The execute sandbox") runs and does what it says', async () => {
    const doc = readFileSync(new URL('../docs/agent-interface.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## The execute sandbox'));
    const example = /```js[^\n]*\n([\s\S]*?)```/.exec(section)?.[1];
    if (example === undefined) throw new Error('no js example in the section');
    const outcome = await execute.handle(harness.context('reporting'), { script: example });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
    const result = outcome.value.result as { ids: unknown[]; nextCursor: unknown };
    expect(result.ids.length).toBeGreaterThan(0);
    for (const id of result.ids) expect(id).toBeTypeOf('string');
    expect(outcome.value.logs).toEqual([{ level: 'log', text: `${result.ids.length} actions` }]);
  });
});
