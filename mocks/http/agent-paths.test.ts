import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAgentPath as servedByAgent } from '../agent/http.ts';
import { isAgentPath, pathOfTarget } from './agent-paths.ts';
import { startMockServer } from './server.ts';

const AGENT_PATHS = ['/mcp', '/mcp/', '/llms.txt', '/llms-full.txt', '/agent/', '/agent/reply/1'];

describe('the lazy agent loader picks the same paths as the agent routes serve', () => {
  it('agrees with mocks/agent/http.ts on the agent paths and their neighbours', () => {
    for (const path of [...AGENT_PATHS, '/', '/agent', '/mcpx', '/v0/agents', '/llms.txt/', '/docs/']) {
      expect(isAgentPath(path)).toBe(servedByAgent(path));
    }
  });

  it('agrees on any path, including ones built from the agent prefixes (property)', () => {
    const path = fc.oneof(
      fc.webPath(),
      fc.tuple(fc.constantFrom(...AGENT_PATHS), fc.webPath()).map(([a, b]) => `${a}${b}`),
      fc.string().map((s) => `/${s}`),
    );
    fc.assert(fc.property(path, (p) => isAgentPath(p) === servedByAgent(p)));
  });

  it('reads the path of a request target without its query', () => {
    expect(pathOfTarget('/mcp?session=1')).toBe('/mcp');
    expect(pathOfTarget(undefined)).toBe('/');
    expect(isAgentPath(pathOfTarget('/agent/x?y=/mcp'))).toBe(true);
  });
});

describe("agentLoad: 'first-request' (cca-kit mock)", () => {
  it('answers REST without the agent side, loads it at the first agent path, closes it', async () => {
    const mock = await startMockServer({ seed: 42, actions: 20, agentLoad: 'first-request' });
    try {
      expect(mock.agent).toBeUndefined();
      const rest = await fetch(`${mock.url}/v0/action/list`);
      expect(rest.status).toBe(401);
      expect(mock.agent).toBeUndefined();
      const [docs, again] = await Promise.all([fetch(`${mock.url}/llms.txt`), fetch(`${mock.url}/llms.txt`)]);
      expect([docs.status, again.status]).toEqual([200, 200]);
      expect(await docs.text()).toBe(await again.text());
      expect(mock.agent?.agent).toBeDefined();
    } finally {
      await mock.close();
    }
  });

  it('loads nothing for a server started with agent: false', async () => {
    const mock = await startMockServer({ seed: 42, actions: 20, agent: false, agentLoad: 'first-request' });
    try {
      expect((await fetch(`${mock.url}/llms.txt`)).status).toBe(404);
      expect(mock.agent).toBeUndefined();
    } finally {
      await mock.close();
    }
  });
});
