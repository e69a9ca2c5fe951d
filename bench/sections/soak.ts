/**
 * Memory soak: sustained mixed load (reads, duplicate moderation submissions, repeated ingestion
 * batches, 4xx errors) on one mock process for at least 60 s after a warm-up; heap after full GCs at
 * the start, every interval, and at the end. Writes that create new state (unique moderation cases)
 * are left out on purpose: they grow the state by design; this measures leaks, not data.
 */
import { fork } from 'node:child_process';
import { ROOT } from '../../test/support/processes.ts';
import { runLoad } from '../lib/load.ts';
import { ingestionBatch, moderationSubmission } from '../lib/routes.ts';
import { benchKeys } from '../lib/servers.ts';
import { firstActionId } from './throughput.ts';

interface Memory {
  readonly heapUsed: number;
  readonly rss: number;
  readonly arrayBuffers: number;
  readonly external: number;
}

export interface SoakResult {
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly requests: number;
  readonly rps: number;
  readonly statuses: Readonly<Record<string, number>>;
  /** Heap after GC, MiB: start (after warm-up), each interval, end. */
  readonly heapMb: readonly number[];
  readonly rssMb: readonly number[];
  readonly growthMb: number;
  readonly boundMb: number;
  readonly withinBound: boolean;
}

export async function soak(options: {
  seconds: number;
  warmupSeconds: number;
  intervalSeconds: number;
  boundMb: number;
  connections: number;
  pipelining: number;
  log: (line: string) => void;
}): Promise<SoakResult> {
  const child = fork(`${ROOT}bench/servers/mock-child.ts`, ['42'], {
    cwd: ROOT,
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /"url":"([^"]+)"/.exec(out);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`mock child exited with ${code}`)));
    });
    const heap = () =>
      new Promise<Memory>((resolve) => {
        child.once('message', (message) => resolve(message as Memory));
        child.send('heap');
      });
    const keys = await benchKeys(url);
    const detailId = await firstActionId(url, keys);
    const json = { 'content-type': 'application/json' };
    const requests = [
      { method: 'GET', path: '/v0/action/list?pageSize=50', headers: { 'x-api-key': keys.read } },
      {
        method: 'GET',
        path: `/v0/action/${encodeURIComponent(detailId)}`,
        headers: { 'x-api-key': keys.read },
      },
      { method: 'GET', path: '/v0/conversations/search?pageSize=50', headers: { 'x-api-key': keys.read } },
      { method: 'GET', path: '/v0/analytics/tags', headers: { 'x-api-key': keys.read } },
      { method: 'GET', path: '/v0/agents', headers: { 'x-api-key': keys.read } },
      {
        method: 'POST',
        path: '/v0/moderation/cases',
        headers: { ...json, 'x-api-key': keys.write },
        body: JSON.stringify(moderationSubmission('soak-duplicate')),
      },
      {
        method: 'POST',
        path: '/v0/ingest/records',
        headers: { ...json, 'x-api-key': keys.ingest },
        body: JSON.stringify(ingestionBatch(20, 'soak')),
      },
      { method: 'GET', path: '/v0/nowhere', headers: { 'x-api-key': keys.read } },
      { method: 'GET', path: '/v0/agents', headers: { 'x-api-key': 'not-a-key' } },
      {
        method: 'POST',
        path: '/v0/moderation/cases',
        headers: { ...json, 'x-api-key': keys.write },
        body: '{broken',
      },
    ];
    const settings = { connections: options.connections, pipelining: options.pipelining };
    await runLoad(url, requests, { ...settings, duration: options.warmupSeconds });
    const samples: Memory[] = [await heap()];
    const statuses: Record<string, number> = {};
    let total = 0;
    let elapsed = 0;
    while (elapsed < options.seconds) {
      const result = await runLoad(url, requests, { ...settings, duration: options.intervalSeconds });
      elapsed += result.seconds;
      total += result.requests;
      for (const [s, n] of Object.entries(result.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
      samples.push(await heap());
      options.log(
        `  soak ${elapsed.toFixed(0)} s: ${result.rps.toFixed(0)} req/s, heap ${(samples.at(-1)?.heapUsed ?? 0) / 2 ** 20} MiB`,
      );
    }
    const heapMb = samples.map((m) => m.heapUsed / 2 ** 20);
    const rssMb = samples.map((m) => m.rss / 2 ** 20);
    const growthMb = (heapMb.at(-1) ?? 0) - (heapMb[0] ?? 0);
    return {
      seconds: elapsed,
      warmupSeconds: options.warmupSeconds,
      requests: total,
      rps: total / elapsed,
      statuses,
      heapMb,
      rssMb,
      growthMb,
      boundMb: options.boundMb,
      withinBound: growthMb <= options.boundMb,
    };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    });
  }
}
