/**
 * Group commit of `--state-file`: 16 writers at once against the mock in memory and with a state
 * file (every write acknowledged only once its bytes are on disk, concurrent writes sharing one
 * `fdatasync`), and the latency of reads while those writes run against the same reads on a quiet
 * mock. Writes: moderation submissions, a new externalId each; reads: `GET /v0/agents`. Real processes
 * of the built CLI on loopback; the state file in the temp directory (ext4 on the benchmark machine, not tmpfs).
 *
 *   npm run bench -- --only group-commit [--generator wrk]
 *
 * With autocannon (the default here) the writers and the readers are two instances in this one
 * process: a read's latency then includes the time this process spends on the writers' answers. With
 * `--generator wrk` the writers are a wrk process, as fast as the mock takes them (which also reaches
 * the snapshots a long burst makes), and the readers a process of their own that reads at a fixed
 * rate and times each read from when it was due (`paced-reader.mjs`): the latency a polling client
 * sees, which a closed loop of readers hides by slowing down with the server.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AutocannonRequest } from 'autocannon';
import { sampleSubmission } from '../../mocks/engine/moderation/sample.ts';
import { mockKeys } from '../../suites/target.ts';
import { startMock } from '../../test/support/state-processes.ts';
import { type LoadResult, type LoadSettings, runLoad } from '../lib/load.ts';
import { runWrk, type WrkRequest } from '../lib/wrk.ts';

const PACED_READER = fileURLToPath(new URL('../lib/paced-reader.mjs', import.meta.url));
/** Reads a second from the paced reader: a dashboard's polling, far below what the mock serves. */
const PACED_RATE = 1_000;

/** `seconds` of reads at `PACED_RATE` over `connections`, in a process of their own. */
function pacedReads(baseUrl: string, connections: number, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        PACED_READER,
        `${baseUrl}/v0/agents`,
        keys.read ?? '',
        String(PACED_RATE),
        String(seconds),
        String(connections),
      ],
      { timeout: (seconds + 30) * 1000 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`paced reader failed: ${error.message}\n${stderr}`));
          return;
        }
        const r = JSON.parse(stdout) as {
          requests: number;
          p50: number;
          p99: number;
          non2xx: number;
          errors: number;
          seconds: number;
        };
        resolve({
          requests: r.requests,
          rps: r.requests / r.seconds,
          p50: r.p50,
          p99: r.p99,
          statuses: { '2xx': r.requests - r.non2xx - r.errors, ...(r.non2xx > 0 ? { other: r.non2xx } : {}) },
          errors: r.errors,
          timeouts: 0,
          seconds: r.seconds,
        });
      },
    );
  });
}

export interface GroupCommitRow {
  readonly store: string;
  readonly writeRps: number;
  readonly writeP99: number;
  readonly quietReadRps: number;
  readonly quietReadP99: number;
  /** Reads run next to the write burst. */
  readonly burstReadRps: number;
  readonly burstReadP99: number;
  readonly failures: number;
}

export interface GroupCommitResult {
  readonly generator: 'autocannon' | 'wrk';
  readonly writers: number;
  readonly readers: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly rows: readonly GroupCommitRow[];
}

const keys = mockKeys();

const reads = (): AutocannonRequest[] => [
  { method: 'GET', path: '/v0/agents', headers: { 'x-api-key': keys.read ?? '' } },
];

function writes(tag: string): AutocannonRequest[] {
  let n = 0;
  return [
    {
      method: 'POST',
      path: '/v0/moderation/cases',
      headers: { 'x-api-key': keys.write ?? '', 'content-type': 'application/json' },
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify(sampleSubmission({ externalId: `gc-${tag}-${++n}` })),
      }),
    },
  ];
}

/** The same submission as `writes`, made unique by wrk around a marker in its externalId. */
function wrkWrite(tag: string): WrkRequest {
  const marker = 'gc-externalId-marker';
  const [prefix = '', suffix = ''] = JSON.stringify(sampleSubmission({ externalId: marker })).split(marker);
  return {
    method: 'POST',
    path: '/v0/moderation/cases',
    headers: { 'x-api-key': keys.write ?? '', 'content-type': 'application/json' },
    unique: { prefix: `${prefix}gc-`, suffix, tag },
  };
}

const failures = (...results: readonly LoadResult[]): number =>
  results.reduce(
    (sum, result) =>
      sum +
      result.errors +
      Object.entries(result.statuses)
        .filter(([status]) => !status.startsWith('2'))
        .reduce((a, [, count]) => a + count, 0),
    0,
  );

/** The median of each figure over rounds (the machine is shared: one round can fall on a busy moment). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function groupCommitSection(options: {
  readonly writers: number;
  readonly readers: number;
  readonly seconds: number;
  readonly rounds: number;
  readonly generator?: 'autocannon' | 'wrk';
  readonly log: (line: string) => void;
}): Promise<GroupCommitResult> {
  const { writers, readers, seconds, rounds, log } = options;
  const generator = options.generator ?? 'autocannon';
  const readLoad = (url: string, settings: LoadSettings): Promise<LoadResult> =>
    generator === 'wrk'
      ? pacedReads(url, settings.connections, settings.duration)
      : runLoad(url, reads(), settings);
  const writeLoad = (url: string, tag: string, settings: LoadSettings): Promise<LoadResult> =>
    generator === 'wrk' ? runWrk(url, wrkWrite(tag), settings) : runLoad(url, writes(tag), settings);
  const dir = mkdtempSync(join(tmpdir(), 'cca-bench-group-commit-'));
  // The two stores as served by default (writes start at most 4 a turn, after the reads), and as
  // with every request started at once, to show what the turns give the reads and cost the writes.
  const stores = [
    { store: 'in memory', args: [] as string[] },
    { store: '--state-file', args: ['--state-file', join(dir, 'bench.state')] },
    { store: 'in memory, --writes-per-turn 0', args: ['--writes-per-turn', '0'] },
    {
      store: '--state-file, --writes-per-turn 0',
      args: ['--state-file', join(dir, 'bench-at-once.state'), '--writes-per-turn', '0'],
    },
  ];
  const mocks = await Promise.all(stores.map(({ args }) => startMock(['--seed', '42', ...args])));
  const measured: GroupCommitRow[][] = stores.map(() => []);
  try {
    for (const [index, mock] of mocks.entries()) {
      const tag = `warm${index}`;
      await readLoad(mock.url, { connections: readers, pipelining: 1, duration: 1 });
      await writeLoad(mock.url, tag, { connections: writers, pipelining: 1, duration: 1 });
    }
    // Rounds alternate the stores, so a busy moment of the machine falls on both alike.
    for (let round = 1; round <= rounds; round++) {
      for (const [index, mock] of mocks.entries()) {
        const store = stores[index]?.store ?? '';
        const tag = `${index}-${round}`;
        const quiet = await readLoad(mock.url, {
          connections: readers,
          pipelining: 1,
          duration: seconds,
        });
        // The write rate alone: readers would take CPU from one store's writers more than the other's.
        const write = await writeLoad(mock.url, `${tag}-alone`, {
          connections: writers,
          pipelining: 1,
          duration: seconds,
        });
        const [during, burst] = await Promise.all([
          writeLoad(mock.url, tag, { connections: writers, pipelining: 1, duration: seconds }),
          readLoad(mock.url, { connections: readers, pipelining: 1, duration: seconds }),
        ]);
        const row: GroupCommitRow = {
          store,
          writeRps: write.rps,
          writeP99: write.p99,
          quietReadRps: quiet.rps,
          quietReadP99: quiet.p99,
          burstReadRps: burst.rps,
          burstReadP99: burst.p99,
          failures: failures(quiet, write, during, burst),
        };
        measured[index]?.push(row);
        log(
          `  round ${round} ${store}: writes ${Math.round(row.writeRps)}/s (p99 ${row.writeP99.toFixed(2)} ms); reads quiet p99 ${row.quietReadP99.toFixed(2)} ms, during the burst p99 ${row.burstReadP99.toFixed(2)} ms (${Math.round(row.burstReadRps)}/s); non-2xx ${row.failures}`,
        );
      }
    }
  } finally {
    await Promise.all(mocks.map((mock) => mock.stop('SIGTERM')));
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = measured.map((runs, index) => ({
    store: stores[index]?.store ?? '',
    writeRps: median(runs.map((r) => r.writeRps)),
    writeP99: median(runs.map((r) => r.writeP99)),
    quietReadRps: median(runs.map((r) => r.quietReadRps)),
    quietReadP99: median(runs.map((r) => r.quietReadP99)),
    burstReadRps: median(runs.map((r) => r.burstReadRps)),
    burstReadP99: median(runs.map((r) => r.burstReadP99)),
    failures: runs.reduce((a, r) => a + r.failures, 0),
  }));
  return { generator, writers, readers, seconds, rounds, rows };
}

export function renderGroupCommit(result: GroupCommitResult, stamp: string): string {
  /** The in-memory row of the same settings as `row`: what its writes are compared with. */
  const memoryOf = (row: GroupCommitRow) =>
    result.rows.find((r) => r.store === row.store.replace('--state-file', 'in memory'));
  const ratio = (value: number, base: number | undefined): string =>
    base === undefined || base === 0 ? '' : ` (${(value / base).toFixed(2)}×)`;
  return [
    '## Group commit of --state-file: writes at 16 writers, reads during the burst',
    '',
    stamp,
    '',
    `${result.writers} writers (\`POST /v0/moderation/cases\`, a new externalId each) and ${result.readers} readers (\`GET /v0/agents\`), load from ${result.generator === 'wrk' ? `wrk for the writers and a process of its own for the readers, ${PACED_RATE} reads a second timed from when each was due` : 'autocannon (writers and readers in one process)'}, ${result.seconds} s per run (the write rate with writers alone; then writers and readers at once for the reads during the burst), no pipelining; the median of ${result.rounds} rounds alternating the stores. Targets: writes ≥ 0.8× in memory; read p99 during the burst ≤ 2× the quiet p99.`,
    '',
    '| store | writes/s (vs in memory) | write p99 ms | reads quiet: /s, p99 ms | reads during the burst: /s, p99 ms (vs quiet) | non-2xx |',
    '|---|---|---|---|---|---|',
    ...result.rows.map(
      (r) =>
        `| ${r.store} | ${Math.round(r.writeRps)}${ratio(r.writeRps, memoryOf(r)?.writeRps)} | ${r.writeP99.toFixed(2)} | ${Math.round(r.quietReadRps)}, ${r.quietReadP99.toFixed(2)} | ${Math.round(r.burstReadRps)}, ${r.burstReadP99.toFixed(2)}${ratio(r.burstReadP99, r.quietReadP99)} | ${r.failures} |`,
    ),
    '',
  ].join('\n');
}
