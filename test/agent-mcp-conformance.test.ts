/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.13, its CLI) against the
 * mock's /mcp, for the server scenarios that apply to a server of our own tools: server-initialize,
 * ping, tools-list and dns-rebinding-protection. The other scenarios need the suite's own fixture tools,
 * prompts or resources, which this server does not have.
 *
 * The suite sends no credentials, so it talks to a loopback proxy that adds the key and forwards
 * everything else unchanged (Host and Origin included, which the DNS-rebinding scenario depends on).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type MockServer, type MockServerOptions, startMockServer } from '../mocks/http/server.ts';
import { scaled } from './support/timeouts.ts';

const CONFORMANCE = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A mock plus a key-adding proxy; resolves the proxy's /mcp URL on `localhost`. */
async function target(options: MockServerOptions = {}): Promise<string> {
  const mock: MockServer = await startMockServer({ seed: 42, actions: 50, ...options });
  const key = mock.engine.admin
    .listKeys('org_acme')
    .find((k) => k.profile === 'read_write' && k.status === 'active')?.key;
  const upstream = new URL(mock.url);
  const proxy: Server = createServer((req, res) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${key ?? ''}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await mock.close();
  });
  return `http://localhost:${(proxy.address() as AddressInfo).port}/mcp`;
}

async function runScenario(url: string, scenario: string): Promise<readonly Check[]> {
  const out = mkdtempSync(join(tmpdir(), 'cca-mcp-conformance-'));
  try {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '-o', out],
        {
          stdio: 'ignore',
        },
      );
      child.once('exit', resolve);
    });
    const [run] = readdirSync(out);
    if (run === undefined) throw new Error(`conformance ${scenario} wrote no result (exit ${String(code)})`);
    return JSON.parse(readFileSync(join(out, run, 'checks.json'), 'utf8')) as Check[];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

describe('official MCP conformance server scenarios against /mcp', () => {
  it.each(['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'])(
    '%s passes',
    async (scenario) => {
      const checks = await runScenario(await target(), scenario);
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.filter((c) => c.status !== 'SUCCESS')).toEqual([]);
    },
    60_000,
  );

  it(
    'AGENT-MCP-DNS-REBINDING-REFUSED: the scenario fails when the guard is turned off (so it proves the guard)',
    async () => {
      const checks = await runScenario(
        await target({ agent: { originGuard: { enabled: false } } }),
        'dns-rebinding-protection',
      );
      expect(checks.find((c) => c.id === 'localhost-host-rebinding-rejected')?.status).toBe('FAILURE');
    },
    scaled(60_000),
  );
});
