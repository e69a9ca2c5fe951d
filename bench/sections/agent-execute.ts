/**
 * The `execute` sandbox in process (no transport): how long the warm pool takes to start, and the
 * latency of one execution with no call, with one `call` to the real `query.search.actions`, and with
 * ten calls, p50/p99 over `runs` sequential executions after a warm-up. Each execution creates a fresh
 * QuickJS runtime and context in an already-warm worker thread. The HTTP figure (MCP over loopback) is
 * in the `agent` section, which adds the transport.
 *
 *   npx tsx bench/sections/agent-execute.ts [runs]
 */
import { pathToFileURL } from 'node:url';
import { createOperationRegistry } from '../../mocks/agent/operations/index.ts';
import { createSandbox } from '../../mocks/agent/sandbox/index.ts';
import type { AgentContext } from '../../mocks/agent/types.ts';
import { MockClock } from '../../mocks/engine/clock.ts';
import { createEngine } from '../../mocks/engine/engine.ts';
import { percentileOfSorted } from '../lib/stats.ts';

export interface ExecuteLatency {
  readonly label: string;
  readonly runs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly meanMs: number;
}

export interface AgentExecuteResult {
  /** From createSandbox to every worker ready (QuickJS loaded and warmed up). */
  readonly poolReadyMs: number;
  readonly latencies: readonly ExecuteLatency[];
}

const SCRIPTS: readonly { readonly label: string; readonly script: string }[] = [
  { label: 'no call (return 1)', script: 'return 1;' },
  {
    label: 'one call (query.search.actions, limit 1)',
    script: "const page = await call('query.search.actions', { limit: 1 }); return page.items.length;",
  },
  {
    label: 'ten calls, sequential',
    script:
      "let n = 0; for (let i = 0; i < 10; i++) n += (await call('query.search.actions', { limit: 1 })).items.length; return n;",
  },
];

export async function agentExecuteSection(options: {
  readonly runs: number;
  readonly log: (line: string) => void;
}): Promise<AgentExecuteResult> {
  const engine = createEngine({
    seed: 42,
    actions: 2000,
    clock: new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') }),
  });
  const ctx: AgentContext = {
    engine,
    identity: { organizationId: 'org_acme', keyName: 'bench', profile: 'reporting', scopes: ['read'] },
    publicOrigin: null,
    signal: new AbortController().signal,
  };
  const started = performance.now();
  const sandbox = createSandbox(createOperationRegistry());
  await sandbox.ready();
  const poolReadyMs = performance.now() - started;
  options.log(`agent-execute: pool of ${sandbox.limits.poolSize} ready in ${poolReadyMs.toFixed(0)} ms`);
  const latencies: ExecuteLatency[] = [];
  try {
    for (const { label, script } of SCRIPTS) {
      for (let i = 0; i < 20; i++) await sandbox.runScript(ctx, script);
      const samples: number[] = [];
      for (let i = 0; i < options.runs; i++) {
        const t0 = performance.now();
        const outcome = await sandbox.runScript(ctx, script);
        samples.push(performance.now() - t0);
        if (!outcome.ok) throw new Error(`${label}: ${outcome.failure.message}`);
      }
      const sorted = [...samples].sort((a, b) => a - b);
      const latency: ExecuteLatency = {
        label,
        runs: samples.length,
        p50Ms: percentileOfSorted(sorted, 50),
        p99Ms: percentileOfSorted(sorted, 99),
        meanMs: samples.reduce((a, b) => a + b, 0) / samples.length,
      };
      latencies.push(latency);
      options.log(
        `agent-execute: ${label}: p50 ${latency.p50Ms.toFixed(2)} ms, p99 ${latency.p99Ms.toFixed(2)} ms (${latency.runs} runs)`,
      );
    }
  } finally {
    await sandbox.close();
  }
  return { poolReadyMs, latencies };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number.parseInt(process.argv[2] ?? '300', 10);
  await agentExecuteSection({ runs, log: (line) => console.log(line) });
}
