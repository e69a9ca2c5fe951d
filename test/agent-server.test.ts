/**
 * The agent server in process (SDK `Client` over the SDK's in-memory transport, no port): tools per
 * key profile derived from contract/agent/tools.json, arguments validated against the contract schemas
 * with failures as data, results as structuredContent plus a text copy.
 */

import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentAuthError, type AgentServer, createAgentServer } from '../mocks/agent/server/agent-server.ts';
import { createEngine, type Engine } from '../mocks/engine/index.ts';
import { agentContract } from '../src/contract/agent.ts';
import { answerData } from './agent-answer.ts';

let engine: Engine;
let agent: AgentServer;
const clients: Client[] = [];

function keyOf(profile: string): string {
  const key =
    engine.admin.listKeys('org_acme').find((k) => k.profile === profile && k.status === 'active')?.key ??
    undefined;
  if (key === undefined) throw new Error(`no active ${profile} key`);
  return key;
}

async function clientFor(key: string): Promise<Client> {
  const client = new Client({ name: 'agent-server-test', version: '1.0.0' });
  await client.connect(await agent.connectInProcess(key));
  clients.push(client);
  return client;
}

async function someActionId(): Promise<string> {
  const response = await engine.handle(
    new Request('http://mock.local/v0/conversations/search?pageSize=1', {
      headers: { 'x-api-key': keyOf('reporting') },
    }),
  );
  const body = (await response.json()) as { data: { actionId: string }[] };
  const id = body.data[0]?.actionId;
  if (id === undefined) throw new Error('no action in the seed data');
  return id;
}

beforeEach(() => {
  engine = createEngine({ seed: 42 });
  agent = createAgentServer(engine);
});

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await agent.close();
});

describe('tools per key profile (contract/agent/tools.json)', () => {
  it('AGENT-MCP-TOOLS-LIST-ONLY-USABLE: each profile lists exactly its row of the table, among the tools served', async () => {
    const contract = agentContract();
    const served = new Set(agent.tools.served.map((t) => t.declaration.name));
    for (const profile of ['reporting', 'write', 'read_write', 'import'] as const) {
      const client = await clientFor(keyOf(profile));
      const { tools } = await client.listTools();
      const expected = contract.profiles[profile].filter((name) => served.has(name));
      expect(
        tools.map((t) => t.name),
        profile,
      ).toEqual(expected);
    }
  });

  it('AGENT-MCP-REPLY-TOOLS-MAY-BE-ABSENT: a reporting or import key never sees a reply tool; read_write sees all three', async () => {
    const rw = (await (await clientFor(keyOf('read_write'))).listTools()).tools.map((t) => t.name);
    expect(rw).toEqual(expect.arrayContaining(['prepare_reply', 'review_reply', 'open_reply']));
    for (const profile of ['reporting', 'import']) {
      const names = (await (await clientFor(keyOf(profile))).listTools()).tools.map((t) => t.name);
      expect(
        names.filter((n) => n.endsWith('_reply')),
        profile,
      ).toEqual([]);
      expect(names, profile).not.toContain(profile === 'import' ? 'execute' : 'prepare_reply');
    }
  });

  it('lists each tool with its contract input and output schema and annotations', async () => {
    const client = await clientFor(keyOf('read_write'));
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const schemas = agentContract().toolSchemas(tool.name);
      expect(tool.inputSchema).toEqual(schemas?.inputSchema);
      // The contract's success schema made portable (advertised-schema.ts): every property it names.
      const advertised = tool.outputSchema as { properties?: Record<string, unknown> };
      const contractOutput = schemas?.outputSchema as { properties?: Record<string, unknown> };
      expect(Object.keys(advertised.properties ?? {})).toEqual(Object.keys(contractOutput.properties ?? {}));
      expect(tool.description?.length ?? 0).toBeGreaterThan(20);
      expect(tool.annotations).toBeDefined();
    }
  });

  it('refuses an unknown, expired or revoked key before any server exists', () => {
    expect(() => agent.serverForKey('nope')).toThrow(AgentAuthError);
    const revoked = engine.admin.listKeys('org_acme').find((k) => k.status === 'revoked')?.key ?? '';
    expect(() => agent.serverForKey(revoked)).toThrow(/revoked/);
  });
});

describe('tool calls', () => {
  it('AGENT-MCP-INVALID-INPUT-NAMES-FIELD: wrong argument types give an isError invalid_input naming the field', async () => {
    const client = await clientFor(keyOf('read_write'));
    const result = await client.callTool({
      name: 'prepare_reply',
      arguments: { actionId: 42, text: 'hi', requestId: randomUUID() },
    });
    expect(result.isError).toBe(true);
    const failure = answerData(result) as {
      kind: string;
      code: string;
      field: string;
      message: string;
    };
    expect(failure.kind).toBe('invalid_input');
    expect(failure.code).toBe('INVALID_INPUT');
    expect(failure.field).toBe('/actionId');
    expect(failure.message).toMatch(/actionId/);
    expect(agentContract().checkFailure(failure)).toEqual({ ok: true });
    const missing = await client.callTool({ name: 'open_reply', arguments: {} });
    expect((answerData(missing) as { field: string }).field).toBe('/requestId');
  });

  it('AGENT-MCP-RESULT-STRUCTURED-AND-TEXT: a success is structuredContent valid against outputSchema plus the same JSON as text', async () => {
    const client = await clientFor(keyOf('read_write'));
    const requestId = randomUUID();
    const result = await client.callTool({
      name: 'prepare_reply',
      arguments: { actionId: await someActionId(), text: 'Thanks, we are on it.', requestId },
    });
    expect(result.isError ?? false).toBe(false);
    const schemas = agentContract().toolSchemas('prepare_reply');
    expect(schemas).toBeDefined();
    const validator = agentContract().validator('replies.json', '/tools/prepare_reply/outputSchema');
    expect(validator?.check(answerData(result))).toEqual({ ok: true });
    const content = result.content as { type: string; text: string }[];
    expect(JSON.parse(content[0]?.text ?? '')).toEqual(answerData(result));
  });

  it('AGENT-MCP-APPROVAL-REQUIRED-NOT-SUCCESS: review_reply is an isError approval_required failure, never a success', async () => {
    const client = await clientFor(keyOf('read_write'));
    const requestId = randomUUID();
    await client.callTool({
      name: 'prepare_reply',
      arguments: { actionId: await someActionId(), text: 'A reply.', requestId },
    });
    const review = await client.callTool({ name: 'review_reply', arguments: { requestId } });
    expect(review.isError).toBe(true);
    const failure = answerData(review) as { kind: string; requestId: string };
    expect(failure.kind).toBe('approval_required');
    expect(failure.requestId).toBe(requestId);
  });

  it('a key revoked mid-connection fails its next tool call at once', async () => {
    const created = engine.admin.createKey({ organizationId: 'org_acme', profile: 'read_write' });
    const client = await clientFor(created.key);
    engine.admin.revokeKey(created.key);
    await expect(
      client.callTool({ name: 'open_reply', arguments: { requestId: randomUUID() } }),
    ).rejects.toThrow(/revoked/);
  });
});
