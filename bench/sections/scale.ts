/**
 * Scale: 10k, 100k and 1M actions, each seeded in its own process (`bench/servers/scale-worker.ts`).
 * Reports seeding time, heap per action, and p50/p99 of the list (default window and a 30-day window)
 * and of conversation search.
 */
import { execFile } from 'node:child_process';
import { ROOT } from '../../test/support/processes.ts';

export interface ScalePoint {
  readonly actions: number;
  readonly seedMs: number;
  readonly heapBytes: number;
  readonly heapPerAction: number | null;
  readonly seededBytesPerAction: number | null;
  readonly queriedBytesPerAction: number | null;
  readonly arrayBufferBytes: number;
  readonly latency: Readonly<
    Record<string, { p50: number; p99: number; status: number; totalRecords: number | null }>
  >;
}

export interface ScaleResult {
  readonly requests: number;
  readonly points: readonly ScalePoint[];
}

export function runScaleWorker(
  actions: number,
  requests: number,
  nodeArgs: readonly string[] = [],
): Promise<ScalePoint> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--expose-gc',
        '--max-old-space-size=8192',
        ...nodeArgs,
        '--import',
        'tsx',
        `${ROOT}bench/servers/scale-worker.ts`,
        String(actions),
        String(requests),
      ],
      { cwd: ROOT, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          return reject(new Error(`scale worker (${actions} actions) failed: ${error.message}\n${stderr}`));
        const line = stdout.trim().split('\n').at(-1) ?? '';
        try {
          resolve(JSON.parse(line) as ScalePoint);
        } catch {
          reject(new Error(`scale worker (${actions} actions) printed no result:\n${stdout}\n${stderr}`));
        }
      },
    );
  });
}

export async function scale(options: {
  sizes: readonly number[];
  requests: number;
  log: (line: string) => void;
}): Promise<ScaleResult> {
  const points: ScalePoint[] = [];
  for (const size of options.sizes) {
    const point = await runScaleWorker(size, options.requests);
    points.push(point);
    const l = point.latency;
    options.log(
      `  scale ${size}: seed ${(point.seedMs / 1000).toFixed(1)} s, heap/action ${(point.heapPerAction ?? 0).toFixed(0)} B, seeded bytes/action ${(point.seededBytesPerAction ?? 0).toFixed(0)} B, list p50 ${l['listDefault']?.p50.toFixed(2)} ms, list 30d p50 ${l['list30Days']?.p50.toFixed(2)} ms, search p50 ${l['search']?.p50.toFixed(2)} ms`,
    );
  }
  return { requests: options.requests, points };
}
