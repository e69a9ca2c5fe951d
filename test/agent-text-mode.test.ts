/**
 * One copy by default: a success's text is a summary next to structuredContent (counts, first items,
 * the resume point), the whole JSON with `text: 'full'`; a failure's text is the failure JSON, its
 * message once, with no structuredContent.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer } from '../mocks/agent/server/agent-server.ts';
import type { TextMode } from '../mocks/agent/server/text-summary.ts';
import { createEngine } from '../mocks/engine/index.ts';

const engine = createEngine({ seed: 42, actions: 400 });
const key = engine.admin.createKey({ organizationId: 'org_acme', profile: 'reporting', expiry: 'none' }).key;
const servers: AgentServer[] = [];
const clients: Client[] = [];

async function clientFor(text: TextMode): Promise<Client> {
  const agent = createAgentServer(engine, { text, sandbox: { resultBytes: 8_000 } });
  servers.push(agent);
  const client = new Client({ name: 'text-mode', version: '1' });
  await client.connect(await agent.connectInProcess(key));
  clients.push(client);
  return client;
}

afterAll(async () => {
  for (const c of clients) await c.close();
  for (const s of servers) await s.close();
});

const textOf = (result: { content?: unknown }) =>
  ((result.content ?? []) as { type: string; text: string }[]).map((c) => c.text).join('\n');

const EXPORT = `
  const input = { dateRange: { relative: { unit: 'year', count: 50 } }, limit: 50 };
  const page = await call('query.search.actions', input);
  const next = await call('query.search.actions', { ...input, cursor: page.nextCursor });
  return { items: [...page.items, ...next.items] };`;

describe('text of tool results', () => {
  it('AGENT-MCP-RESULT-STRUCTURED-AND-TEXT: summary by default: counts, first items and the resume point, not the JSON again', async () => {
    const client = await clientFor('summary');
    const result = await client.callTool({ name: 'execute', arguments: { script: EXPORT } });
    expect(result.isError ?? false).toBe(false);
    const structured = result.structuredContent as {
      result: { items: { actionId: string }[] };
      truncated: { result: { resume: unknown } };
    };
    const text = textOf(result);
    expect(text.length).toBeLessThan(JSON.stringify(structured).length / 3);
    expect(text).toContain(`items: ${structured.result.items.length} items`);
    expect(text).toContain(structured.result.items[0]?.actionId ?? 'no item');
    expect(structured.truncated.result.resume).not.toBeNull();
    expect(text).toContain(`resume: ${JSON.stringify(structured.truncated.result.resume)}`);
  });

  it('AGENT-MCP-RESULT-STRUCTURED-AND-TEXT: full: the text is the whole JSON of structuredContent', async () => {
    const client = await clientFor('full');
    const result = await client.callTool({ name: 'execute', arguments: { script: EXPORT } });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('AGENT-MCP-FAILURE-KINDS: a failure is its JSON once in the text, the message not repeated, no structuredContent', async () => {
    const client = await clientFor('summary');
    const result = await client.callTool({ name: 'read_skill', arguments: { name: 'no-such-skill' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const failure = JSON.parse(textOf(result)) as { kind: string; message: string };
    expect(failure.kind).toBe('not_found');
    expect(textOf(result).split(JSON.stringify(failure.message)).length - 1).toBe(1);
  });
});
