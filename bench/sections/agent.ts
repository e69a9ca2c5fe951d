/**
 * The agent interface (MCP at /mcp), on loopback against an in-process mock server:
 *
 * - `initialize` + `tools/list`: a 2025-era client's handshake (initialize, the initialized
 *   notification, tools/list: three POSTs, a new session each run), and a stateless 2026-07-28 client
 *   (the SDK `Client` pinned to that revision: server/discover + tools/list);
 * - `execute` of a script with one `call`, p50 and p99 over HTTP on one session (target p50 ≤ 5 ms);
 * - paging 10,000 actions through cursors: the operation alone (registry, in process) and inside one
 *   `execute` over HTTP (target ≥ 20,000 items per second).
 *
 * Client and server share the process (2 cores), so the latencies include the client's work.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createOperationRegistry } from '../../mocks/agent/operations/index.ts';
import type { AgentContext } from '../../mocks/agent/types.ts';
import { startMockServer } from '../../mocks/http/server.ts';
import { percentileOfSorted } from '../lib/stats.ts';

export interface LatencySummary {
  readonly runs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
}

export interface AgentResult {
  readonly handshake2025: LatencySummary;
  readonly handshakeStateless: LatencySummary;
  /** null when execute is not served by this build. */
  readonly executeOneCall: LatencySummary | null;
  readonly paging: {
    readonly actions: number;
    readonly pageSize: number;
    readonly registryItemsPerSecond: number;
    readonly executeItemsPerSecond: number | null;
    readonly executeMs: number | null;
  };
}

function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    runs: samples.length,
    p50Ms: percentileOfSorted(sorted, 50),
    p99Ms: percentileOfSorted(sorted, 99),
    meanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
  };
}

const PAGING_SCRIPT = (pageSize: number) => `
  const input = { dateRange: { relative: { unit: 'year', count: 50 } }, limit: ${pageSize} };
  let count = 0;
  let cursor = null;
  do {
    const page = await call('query.search.actions', cursor === null ? input : { ...input, cursor });
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { count };`;

export async function agentSection(options: {
  runs: number;
  actions: number;
  log: (line: string) => void;
}): Promise<AgentResult> {
  const mock = await startMockServer({
    seed: 42,
    actions: options.actions,
    agent: { sandbox: { timeMs: 60_000, calls: 1000 } },
  });
  const key =
    mock.engine.admin.listKeys('org_acme').find((k) => k.profile === 'read_write' && k.status === 'active')
      ?.key ?? '';
  const url = `${mock.url}/mcp`;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${key}`,
  };
  let id = 0;
  async function rpc(body: object, session?: string): Promise<{ response: Response; json: unknown }> {
    const response = await fetch(url, {
      method: 'POST',
      headers:
        session === undefined
          ? headers
          : { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { response, json: text === '' ? null : (JSON.parse(text) as unknown) };
  }
  async function openSession(): Promise<string> {
    const { response } = await rpc({
      jsonrpc: '2.0',
      id: ++id,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
    const session = response.headers.get('mcp-session-id');
    if (session === null) throw new Error(`initialize answered ${response.status} without a session`);
    await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    return session;
  }

  try {
    const legacy: number[] = [];
    for (let i = 0; i < options.runs + 5; i++) {
      const t0 = performance.now();
      const session = await openSession();
      await rpc({ jsonrpc: '2.0', id: ++id, method: 'tools/list' }, session);
      if (i >= 5) legacy.push(performance.now() - t0);
      await fetch(url, { method: 'DELETE', headers: { ...headers, 'mcp-session-id': session } });
    }
    options.log(`  2025 handshake + tools/list p50 ${summarize(legacy).p50Ms.toFixed(2)} ms`);

    const stateless: number[] = [];
    for (let i = 0; i < Math.max(10, Math.floor(options.runs / 4)) + 2; i++) {
      const t0 = performance.now();
      const client = new Client(
        { name: 'bench', version: '1' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      await client.listTools();
      if (i >= 2) stateless.push(performance.now() - t0);
      await client.close();
    }
    options.log(`  stateless connect + tools/list p50 ${summarize(stateless).p50Ms.toFixed(2)} ms`);

    const served = mock.agent?.agent.tools.served.some((t) => t.declaration.name === 'execute') ?? false;
    let executeOneCall: LatencySummary | null = null;
    let executeItemsPerSecond: number | null = null;
    let executeMs: number | null = null;
    const pageSize = 100;
    if (served) {
      const session = await openSession();
      const callExecute = (script: string) =>
        rpc(
          {
            jsonrpc: '2.0',
            id: ++id,
            method: 'tools/call',
            params: { name: 'execute', arguments: { script } },
          },
          session,
        );
      const oneCall = "const tags = await call('query.search.tags', { name: 'bill' }); return tags;";
      const samples: number[] = [];
      for (let i = 0; i < options.runs + 20; i++) {
        const t0 = performance.now();
        const { json } = await callExecute(oneCall);
        const elapsed = performance.now() - t0;
        const result = (json as { result?: { isError?: boolean } }).result;
        if (result === undefined || result.isError === true)
          throw new Error(`execute failed: ${JSON.stringify(json).slice(0, 300)}`);
        if (i >= 20) samples.push(elapsed);
      }
      executeOneCall = summarize(samples);
      options.log(
        `  execute one call p50 ${executeOneCall.p50Ms.toFixed(2)} ms, p99 ${executeOneCall.p99Ms.toFixed(2)} ms`,
      );
      const t0 = performance.now();
      const { json } = await callExecute(PAGING_SCRIPT(pageSize));
      executeMs = performance.now() - t0;
      const count =
        (json as { result?: { structuredContent?: { result?: { count?: number } } } }).result
          ?.structuredContent?.result?.count ?? 0;
      executeItemsPerSecond = count / (executeMs / 1000);
      options.log(`  execute paging ${count} items in ${executeMs.toFixed(0)} ms`);
    }

    const registry = createOperationRegistry();
    const k = mock.engine.admin.listKeys('org_acme').find((x) => x.key === key);
    const ctx: AgentContext = {
      engine: mock.engine,
      identity: {
        organizationId: 'org_acme',
        keyName: k?.name ?? '',
        profile: 'read_write',
        scopes: ['read', 'write'],
      },
      publicOrigin: null,
      signal: new AbortController().signal,
    };
    const input = { dateRange: { relative: { unit: 'year', count: 50 } }, limit: pageSize };
    // Twice: the first walk also pays for what the engine builds on first use; the second is reported.
    let count = 0;
    let registryItemsPerSecond = 0;
    for (let walk = 0; walk < 2; walk++) {
      count = 0;
      const t0 = performance.now();
      let cursor: string | null = null;
      do {
        const outcome = await registry.call(
          ctx,
          'query.search.actions',
          cursor === null ? input : { ...input, cursor },
        );
        if (!outcome.ok) throw new Error(`search failed: ${outcome.failure.message}`);
        const page = outcome.value as { items: unknown[]; nextCursor: string | null };
        count += page.items.length;
        cursor = page.nextCursor;
      } while (cursor !== null);
      registryItemsPerSecond = count / ((performance.now() - t0) / 1000);
    }
    options.log(`  registry paging ${count} items, ${registryItemsPerSecond.toFixed(0)} items/s`);

    return {
      handshake2025: summarize(legacy),
      handshakeStateless: summarize(stateless),
      executeOneCall,
      paging: { actions: count, pageSize, registryItemsPerSecond, executeItemsPerSecond, executeMs },
    };
  } finally {
    await mock.close();
  }
}

const ms = (s: LatencySummary) =>
  `p50 ${s.p50Ms.toFixed(2)} ms, p99 ${s.p99Ms.toFixed(2)} ms (${s.runs} runs)`;

/** The RESULTS.md section. */
export function renderAgent(result: AgentResult, stamp: string): string {
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const exec = result.executeOneCall;
  const pagingExec = result.paging.executeItemsPerSecond;
  return [
    '## The agent interface (MCP)',
    '',
    stamp,
    '',
    'Over HTTP on loopback, client and server in one process.',
    '',
    '| what | measured | target | |',
    '|---|---|---|---|',
    `| 2025-era handshake (initialize, initialized, tools/list; a new session each run) | ${ms(result.handshake2025)} | report | |`,
    `| stateless 2026-07-28 SDK client: connect (server/discover) + tools/list | ${ms(result.handshakeStateless)} | report | |`,
    exec === null
      ? '| `execute` with one `call` | not run: execute is not served by this build | p50 ≤ 5 ms | |'
      : `| \`execute\` with one \`call\` (query.search.tags), one session | ${ms(exec)} | p50 ≤ 5 ms | ${verdict(exec.p50Ms <= 5)} |`,
    `| paging ${result.paging.actions} actions through cursors (limit ${result.paging.pageSize}), the operation in process | **${Math.round(result.paging.registryItemsPerSecond)} items/s** | ≥ 20,000 items/s | ${verdict(result.paging.registryItemsPerSecond >= 20_000)} |`,
    pagingExec === null
      ? '| the same inside one `execute` over HTTP | not run | | |'
      : `| the same inside one \`execute\` over HTTP | **${Math.round(pagingExec)} items/s** (${(result.paging.executeMs ?? 0).toFixed(0)} ms) | ≥ 20,000 items/s | ${verdict(pagingExec >= 20_000)} |`,
  ].join('\n');
}
