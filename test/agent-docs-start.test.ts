/**
 * The "Start here" page (docs/agent-start.md, served first in llms.txt) is written for a model: its
 * order of calls names tools that exist, and each JavaScript example runs through `execute` as written
 * and answers without a failure, so a model that copies one is not misled.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServer, createAgentServer } from '../mocks/agent/server/agent-server.ts';
import { createEngine } from '../mocks/engine/index.ts';

const START = readFileSync(new URL('../docs/agent-start.md', import.meta.url), 'utf8');
const scripts = [...START.matchAll(/```js(?: [^\n]*)?\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');

let agent: AgentServer;
let client: Client;

beforeAll(async () => {
  const engine = createEngine({ seed: 42, actions: 300 });
  agent = createAgentServer(engine);
  const key =
    engine.admin.listKeys('org_acme').find((k) => k.profile === 'read_write' && k.status === 'active')?.key ??
    undefined;
  if (key === undefined) throw new Error('no read_write key');
  client = new Client({ name: 'start-page', version: '1.0.0' });
  await client.connect(await agent.connectInProcess(key));
});
afterAll(async () => {
  await client.close();
  await agent.close();
});

describe('docs/agent-start.md', () => {
  it('names only tools a read-and-write key is served', async () => {
    const { tools } = await client.listTools();
    const served = new Set(tools.map((t) => t.name));
    // Tool names end in what they act on; other snake_case words on the page are kinds and states.
    const named = new Set(
      [...START.matchAll(/`([a-z]+_(?:skills?|skill_file|reply))`/g)].map((m) => m[1] ?? ''),
    );
    expect(named.size).toBeGreaterThan(4);
    for (const name of named) expect(served.has(name), name).toBe(true);
  });

  it.each(scripts.map((script, i) => [i + 1, script] as const))(
    'example %i runs through execute without a failure',
    async (_, script) => {
      const result = (await client.callTool({ name: 'execute', arguments: { script } })) as {
        isError?: boolean;
        structuredContent?: { result?: unknown };
      };
      expect(result.isError, JSON.stringify(result.structuredContent)).not.toBe(true);
      expect(result.structuredContent?.result).toBeDefined();
    },
  );

  it('has examples to run', () => {
    expect(scripts.length).toBeGreaterThanOrEqual(2);
  });
});
