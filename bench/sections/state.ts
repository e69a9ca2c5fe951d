/**
 * State stores, side by side in one run: read and write throughput of `cca-kit mock` in
 * memory, with `--state-file`, and with `--state redis://` as one replica and as two (load split
 * over both, as a balancer would, and summed). Reads: `GET /v0/agents` (the cheapest read, so the
 * catch-up to the log's end before each request weighs most). Writes: moderation submissions, each
 * with a new externalId (one command appended and applied each). Real processes and a real Debian
 * redis-server on loopback.
 *
 *   npm run bench -- --only state
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { sampleSubmission } from '../../mocks/engine/moderation/sample.ts';
import { mockKeys } from '../../suites/target.ts';
import { type MockProcess, startMock, startRedis } from '../../test/support/state-processes.ts';
import { type LoadResult, runLoad } from '../lib/load.ts';

export interface StoreRow {
  readonly store: string;
  readonly readRps: number;
  readonly readP50: number;
  readonly readP99: number;
  readonly writeRps: number;
  readonly writeP50: number;
  readonly writeP99: number;
  /** Non-2xx answers in either run (must be 0). */
  readonly failures: number;
  /** Mean time of one catch-up read of the log (Redis), from /__mock/health. */
  readonly catchUpMeanMs: number | null;
}

export interface StateResult {
  readonly connections: number;
  readonly seconds: number;
  readonly rows: readonly StoreRow[];
}

const keys = mockKeys();

function reads(): AutocannonRequest[] {
  return [{ method: 'GET', path: '/v0/agents', headers: { 'x-api-key': keys.read ?? '' } }];
}

function writes(tag: string): AutocannonRequest[] {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/v0/moderation/cases',
      headers: { 'x-api-key': keys.write ?? '', 'content-type': 'application/json' },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify(sampleSubmission({ externalId: `bench-${tag}-${++n}` })),
      }),
    },
  ];
}

/** Runs the same load on every replica at once (connections split), summed. */
async function splitLoad(
  replicas: readonly MockProcess[],
  requests: (index: number) => AutocannonRequest[],
  connections: number,
  seconds: number,
): Promise<LoadResult> {
  const share = Math.max(1, Math.round(connections / replicas.length));
  const results = await Promise.all(
    replicas.map((r, i) =>
      runLoad(r.url, requests(i), { connections: share, pipelining: 1, duration: seconds }),
    ),
  );
  const statuses: Record<string, number> = {};
  for (const result of results)
    for (const [status, count] of Object.entries(result.statuses))
      statuses[status] = (statuses[status] ?? 0) + count;
  const first = results[0] as LoadResult;
  return {
    ...first,
    requests: results.reduce((a, r) => a + r.requests, 0),
    rps: results.reduce((a, r) => a + r.rps, 0),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    statuses,
    errors: results.reduce((a, r) => a + r.errors, 0),
  };
}

const failures = (result: LoadResult): number =>
  Object.entries(result.statuses)
    .filter(([status]) => !status.startsWith('2'))
    .reduce((a, [, count]) => a + count, 0) + result.errors;

export async function stateSection(options: {
  readonly connections: number;
  readonly seconds: number;
  readonly log: (line: string) => void;
}): Promise<StateResult> {
  const { connections, seconds, log } = options;
  const dir = mkdtempSync(join(tmpdir(), 'cca-bench-state-'));
  const redis = await startRedis();
  const rows: StoreRow[] = [];
  const configurations: readonly { readonly store: string; readonly args: readonly string[][] }[] = [
    { store: 'in memory', args: [[]] },
    { store: '--state-file', args: [['--state-file', join(dir, 'bench.state')]] },
    { store: 'Redis, 1 replica', args: [['--state', `${redis.url}?prefix=one`]] },
    {
      store: 'Redis, 2 replicas (load split, summed)',
      args: [
        ['--state', `${redis.url}?prefix=two`],
        ['--state', `${redis.url}?prefix=two`],
      ],
    },
  ];
  try {
    for (const configuration of configurations) {
      const replicas: MockProcess[] = [];
      for (const args of configuration.args) replicas.push(await startMock(['--seed', '42', ...args]));
      try {
        // Warm-up: validators compiled, first reads derived.
        await splitLoad(replicas, () => reads(), connections, 1);
        const read = await splitLoad(replicas, () => reads(), connections, seconds);
        const tag = configuration.store.replace(/\W+/g, '-');
        const write = await splitLoad(replicas, (i) => writes(`${tag}-${i}`), connections, seconds);
        const health = (await (await fetch(`${replicas[0]?.url}/__mock/health`)).json()) as {
          store: { catchUp?: { meanMs: number } };
        };
        const row: StoreRow = {
          store: configuration.store,
          readRps: read.rps,
          readP50: read.p50,
          readP99: read.p99,
          writeRps: write.rps,
          writeP50: write.p50,
          writeP99: write.p99,
          failures: failures(read) + failures(write),
          catchUpMeanMs: health.store.catchUp?.meanMs ?? null,
        };
        rows.push(row);
        log(
          `  ${row.store}: reads ${Math.round(row.readRps)}/s (p50 ${row.readP50.toFixed(2)} ms), writes ${Math.round(row.writeRps)}/s (p50 ${row.writeP50.toFixed(2)} ms), non-2xx ${row.failures}`,
        );
      } finally {
        await Promise.all(replicas.map((r) => r.stop('SIGTERM')));
      }
    }
  } finally {
    await redis.remove();
    rmSync(dir, { recursive: true, force: true });
  }
  return { connections, seconds, rows };
}

export function renderState(result: StateResult, stamp: string): string {
  const memory = result.rows[0];
  const percent = (value: number, base: number | undefined): string =>
    base === undefined || base === 0
      ? ''
      : ` (${value >= base ? '+' : ''}${Math.round(((value - base) / base) * 100)} %)`;
  const lines = [
    '## State stores: in memory, --state-file, Redis',
    '',
    stamp,
    '',
    `${result.connections} connections, ${result.seconds} s per run, no pipelining. Reads: \`GET /v0/agents\`; writes: \`POST /v0/moderation/cases\`, a new externalId each.`,
    '',
    '| store | reads/s (vs in memory) | read p50 / p99 ms | writes/s (vs in memory) | write p50 / p99 ms | non-2xx | catch-up read, mean ms |',
    '|---|---|---|---|---|---|---|',
    ...result.rows.map(
      (r) =>
        `| ${r.store} | ${Math.round(r.readRps)}${percent(r.readRps, memory?.readRps)} | ${r.readP50.toFixed(2)} / ${r.readP99.toFixed(2)} | ${Math.round(r.writeRps)}${percent(r.writeRps, memory?.writeRps)} | ${r.writeP50.toFixed(2)} / ${r.writeP99.toFixed(2)} | ${r.failures} | ${r.catchUpMeanMs === null ? '-' : r.catchUpMeanMs.toFixed(3)} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
