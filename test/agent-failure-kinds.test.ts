/**
 * The agent failure kinds are one list everywhere a model or a maintainer reads them: the contract
 * (failures.json kinds and its schema), the server instructions, the failures page the docs host
 * serves and the failure table of docs/agent-interface.md. Section 7's "truncated results (limit
 * reported)" is no kind in any of them (a cut answer is a success whose truncated.result reports the
 * limit), and an unknown operation id is invalid input naming `/operationId`.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import failuresJson from '../contract/agent/failures.json' with { type: 'json' };
import { type AgentServer, createAgentServer } from '../mocks/agent/server/agent-server.ts';
import { instructionsFor } from '../mocks/agent/server/mcp-server.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { answerData } from './agent-answer.ts';

const kinds = failuresJson.kinds.map((k) => k.kind).sort();
let agent: AgentServer;
let client: Client;

beforeAll(async () => {
  const engine = createEngine({ seed: 42 });
  agent = createAgentServer(engine);
  const key = engine.admin.createKey({
    organizationId: 'org_acme',
    profile: 'read_write',
    expiry: 'none',
  }).key;
  client = new Client({ name: 'kinds', version: '1' });
  await client.connect(await agent.connectInProcess(key));
});
afterAll(async () => {
  await client.close();
  await agent.close();
});

describe('AGENT-MCP-FAILURE-KINDS: one list of failure kinds', () => {
  it('failures.json: its kinds are exactly the branches of its schema, truncated not among them', () => {
    const branches = failuresJson.schema.oneOf.map((b) => b.$ref.replace('#/$defs/', '')).sort();
    expect(branches).toEqual(kinds);
    expect(kinds).not.toContain('truncated');
    expect(Object.keys(failuresJson.schema.$defs)).not.toContain('truncated');
  });

  it('the server instructions name every kind, and a cut result as a success', () => {
    const text = instructionsFor(null);
    for (const kind of kinds) expect(text, kind).toContain(kind);
    expect(text).toMatch(/cut at a size limit is a success whose truncated\.result reports the limit/);
    expect(text).not.toMatch(/\btruncated \(|kind is[^.]*\btruncated\b/);
  });

  it('the failures page served to models lists the kinds of failures.json, and says truncation is a success', () => {
    const page = agent.docs.pages.find((p) => p.path === '/agent/docs/failures.md');
    expect(page).toBeDefined();
    const rows = (page?.markdown ?? '')
      .split('\n')
      .filter((l) => /^\| [a-z_]+ \| [A-Z_]+ \|/.test(l))
      .map((l) => l.split('|')[1]?.trim() ?? '');
    expect(rows.sort()).toEqual(kinds);
    expect(page?.markdown).toMatch(/not a failure: `execute` answers a success whose `truncated\.result`/);
    expect(page?.markdown).toContain('`/operationId` for an unknown operation id');
  });

  it('the failure table of docs/agent-interface.md lists the same kinds', () => {
    const guide = readFileSync(new URL('../docs/agent-interface.md', import.meta.url), 'utf8');
    const table = guide.slice(guide.indexOf('| kind | code | fields | spec |'));
    const rows = table.split('\n\n')[0]?.split('\n').slice(2) ?? [];
    const listed = rows.flatMap((r) => (r.split('|')[1] ?? '').split(',').map((k) => k.trim()));
    expect(listed.sort()).toEqual(kinds);
  });
});

describe('AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE: an unknown operation id over MCP', () => {
  it('uncaught, execute fails as invalid_input naming /operationId and the operation', async () => {
    const result = await client.callTool({
      name: 'execute',
      arguments: { script: "return await call('query.search.everything', {});" },
    });
    expect(result.isError).toBe(true);
    expect(answerData(result)).toMatchObject({
      kind: 'invalid_input',
      code: 'INVALID_INPUT',
      field: '/operationId',
      operationId: 'query.search.everything',
    });
  });

  it('caught, the Error carries the same kind and field', async () => {
    const result = await client.callTool({
      name: 'execute',
      arguments: {
        script:
          "try { await call('query.search.everything', {}); return null; } catch (e) { return { kind: e.kind, field: e.field }; }",
      },
    });
    expect(result.isError).not.toBe(true);
    expect(answerData<{ result: unknown }>(result)?.result).toEqual({
      kind: 'invalid_input',
      field: '/operationId',
    });
  });
});
