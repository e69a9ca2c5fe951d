/**
 * The agent group judges a deployment over either MCP revision: a fault that breaks only the stateless
 * revision (a proxy that empties `structuredContent` of stateless `tools/call` answers) fails the
 * 2026-07-28 run, with the revision named in the findings, while the 2025-11-25 run through the same
 * proxy still passes. Every agent law runs in both (the fault reaches every tool call), one case a law:
 * what is checked is which revision a finding is charged to, not the laws' reach. The clean mock
 * passing over each revision with every case is test/agent-conformance-mock.test.ts (2026-07-28) and
 * test/conformance-mock.test.ts (2025-11-25).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpRevision } from '../src/conformance/kit/mcp/endpoint.ts';
import { runConformance } from '../src/conformance/runner.ts';
import { renderConsoleReport } from '../src/reporters/console.ts';
import { agentLaws } from '../suites/agent/index.ts';
import { startMockTarget } from '../suites/target.ts';
import { scaled } from './support/timeouts.ts';

type Running = Awaited<ReturnType<typeof startMockTarget>>;
let running: Running;
let proxy: Server;
let proxyUrl: string;

/** Whether a request is stateless MCP (no session) calling a tool. */
function statelessToolCall(headers: Headers, body: string): boolean {
  if (headers.get('mcp-session-id') !== null) return false;
  try {
    const message = JSON.parse(body) as { method?: unknown };
    return message.method === 'tools/call';
  } catch {
    return false;
  }
}

/** Forwards everything to the mock; a stateless tools/call answer loses its structuredContent. */
async function startBreakingProxy(target: string): Promise<Server> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
    const answer = await fetch(new URL(req.url ?? '/', target), {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
    });
    let text = await answer.text();
    if (
      new URL(req.url ?? '/', target).pathname === '/mcp' &&
      statelessToolCall(headers, body) &&
      (answer.headers.get('content-type') ?? '').includes('application/json')
    ) {
      const message = JSON.parse(text) as { result?: { structuredContent?: unknown } };
      if (message.result?.structuredContent !== undefined) message.result.structuredContent = {};
      text = JSON.stringify(message);
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding')
        out[name] = value;
    });
    res.writeHead(answer.status, out);
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  running = await startMockTarget({ seed: 7 });
  proxy = await startBreakingProxy(running.target.baseUrl);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await running.close();
});

async function run(mcpRevision: McpRevision, mcpUrl: string) {
  const report = await runConformance(
    {
      target: { ...running.target, mcpRevision, mcpUrl },
      seed: 7,
      runs: 1,
    },
    { laws: agentLaws },
  );
  const secrets = Object.values(running.target.keys).filter((k): k is string => typeof k === 'string');
  return { report, text: renderConsoleReport(report, secrets) };
}

describe('cca-kit conform --only agent over both MCP revisions', () => {
  it('a fault in the stateless revision only: the 2026-07-28 run fails naming it, 2025-11-25 passes', {
    timeout: scaled(250_000),
  }, async () => {
    const stateless = await run('2026-07-28', `${proxyUrl}/mcp`);
    expect(stateless.report.ok).toBe(false);
    const messages = stateless.report.laws.flatMap((l) => l.failures.map((f) => f.message));
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) expect(message).toMatch(/^\[MCP 2026-07-28\] /);
    const sessions = await run('2025-11-25', `${proxyUrl}/mcp`);
    expect(sessions.report.ok, sessions.text).toBe(true);
  });
});
