/**
 * Start-up: from process spawn to the first 200 on GET /v0/action/list, cca-kit (CLI) vs Prism static,
 * alternating, median of several runs. Polls every 10 ms.
 */
import type { BenchKeys } from '../lib/routes.ts';
import { spawnCcaKit, spawnPrism, stopChild, waitForHttp } from '../lib/servers.ts';
import { median } from '../lib/stats.ts';

export interface StartupResult {
  readonly runs: number;
  readonly ccaKitMs: readonly number[];
  readonly prismMs: readonly number[];
  readonly ccaKitMedianMs: number;
  readonly prismMedianMs: number;
  /** Prism median / cca-kit median. */
  readonly speedup: number;
}

async function timeToFirstList(
  spawned: Awaited<ReturnType<typeof spawnCcaKit>>,
  key: string,
  started: number,
): Promise<number> {
  await waitForHttp(
    spawned.child,
    `${spawned.url}/v0/action/list`,
    { headers: { 'x-api-key': key } },
    (status) => status === 200,
    spawned.output,
    120_000,
    10,
  );
  return performance.now() - started;
}

export async function startup(options: {
  runs: number;
  keys: BenchKeys;
  log: (line: string) => void;
}): Promise<StartupResult> {
  const ccaKitMs: number[] = [];
  const prismMs: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    let t0 = performance.now();
    const cca = await spawnCcaKit({ seed: 42 });
    try {
      ccaKitMs.push(await timeToFirstList(cca, options.keys.read, t0));
    } finally {
      await stopChild(cca.child);
    }
    t0 = performance.now();
    const prism = await spawnPrism(false);
    try {
      prismMs.push(await timeToFirstList(prism, options.keys.read, t0));
    } finally {
      await prism.stop();
    }
    options.log(
      `  startup run ${i + 1}: cca-kit ${ccaKitMs.at(-1)?.toFixed(0)} ms, Prism ${prismMs.at(-1)?.toFixed(0)} ms`,
    );
  }
  const ccaKitMedianMs = median(ccaKitMs);
  const prismMedianMs = median(prismMs);
  return {
    runs: options.runs,
    ccaKitMs,
    prismMs,
    ccaKitMedianMs,
    prismMedianMs,
    speedup: prismMedianMs / ccaKitMedianMs,
  };
}
