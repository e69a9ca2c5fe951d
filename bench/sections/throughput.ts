/**
 * Throughput and latency, side by side: cca-kit's mock (CLI process), Prism static, Prism --dynamic and a
 * node:http server replaying cca-kit's own bytes (the ceiling). Ratios are taken pair by pair in
 * alternation (cca-kit, other, cca-kit, other... short rounds) so machine drift cancels.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LoadResult, type LoadSettings, runLoad } from '../lib/load.ts';
import { type Pinning, pinProcess } from '../lib/pin.ts';
import { rssMb } from '../lib/proc.ts';
import { type BenchKeys, type BenchRoute, benchRoutes, type RouteName } from '../lib/routes.ts';
import {
  benchKeys,
  CCA_KIT_COMPUTED,
  CEILING,
  type RunningServer,
  startCcaKit,
  startCeiling,
  startPrismMock,
} from '../lib/servers.ts';
import { median } from '../lib/stats.ts';
import { runWrk } from '../lib/wrk.ts';
import type { Recording } from '../servers/ceiling.ts';

export interface ThroughputOptions {
  readonly load: LoadSettings;
  /** Alternating rounds per pair. */
  readonly rounds: number;
  /** Warm-up seconds per server and route. */
  readonly warmup: number;
  readonly routes?: readonly RouteName[];
  /** The servers compared with cca-kit (default all three). */
  readonly compare?: readonly Comparison[];
  /** Where cca-kit's recorded answers are written for the ceiling server. */
  readonly outDir: string;
  /** wrk (default: it outpaces the servers) or autocannon. */
  readonly generator?: 'wrk' | 'autocannon';
  /** Profile cca-kit's process (`--cpu-prof`) into this folder. */
  readonly cpuProfDir?: string;
  /** Servers and wrk on separate CPUs (bench/lib/pin.ts); null or absent: where the scheduler puts them. */
  readonly pin?: Pinning | null;
  readonly log: (line: string) => void;
}

/**
 * `cca-kit-computed` is cca-kit with `--no-answer-cache`: the same routes answered by computing every
 * request (the default remembers list, search and tag answers per window range), compared on GETs only.
 */
export type Comparison = 'prism-static' | 'prism-dynamic' | 'ceiling' | 'cca-kit-computed';

export interface ServerFigures {
  readonly server: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly errors: number;
  /** Bytes of one response body, from the probe request. */
  readonly bodyBytes: number;
  readonly probeStatus: number;
}

export interface PairRatio {
  /** The server divided (cca-kit when absent). */
  readonly subject?: string;
  readonly versus: string;
  /** Median of the per-round ratios subject rps / other rps. */
  readonly ratio: number;
  readonly perRound: readonly number[];
}

export interface ThroughputRow {
  readonly route: RouteName;
  readonly label: string;
  readonly isGet: boolean;
  readonly servers: readonly ServerFigures[];
  readonly ratios: readonly PairRatio[];
}

export interface ThroughputResult {
  readonly generator: 'wrk' | 'autocannon';
  readonly load: LoadSettings;
  readonly rounds: number;
  /** The CPUs of servers and wrk (absent: results written before pinning, or not pinned). */
  readonly pinned?: Pinning | null;
  readonly rows: readonly ThroughputRow[];
  readonly ccaKitRssMb: number | null;
}

async function probe(
  server: RunningServer,
  sample: ReturnType<BenchRoute['sample']>,
): Promise<{ status: number; headers: [string, string][]; body: Buffer }> {
  const response = await fetch(`${server.url}${sample.path}`, {
    method: sample.method,
    headers: sample.headers,
    ...(sample.body === undefined ? {} : { body: sample.body }),
  });
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    headers.push([name, value]);
  });
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** An action id of the seeded data, for GET detail (the newest action of the default list). */
export async function firstActionId(url: string, keys: BenchKeys): Promise<string> {
  const response = await fetch(`${url}/v0/action/list?pageSize=1`, { headers: { 'x-api-key': keys.read } });
  const first = (await response.json()) as { data?: { actionId: string }[] };
  const id = first.data?.[0]?.actionId;
  if (id === undefined)
    throw new Error(`cca-kit's action list gave no id for GET detail (${response.status})`);
  return id;
}

const a0 = (results: readonly LoadResult[] | undefined) => (results?.at(-1)?.rps ?? 0).toFixed(0);

function merge(results: readonly LoadResult[]): Omit<ServerFigures, 'server' | 'bodyBytes' | 'probeStatus'> {
  const statuses: Record<string, number> = {};
  for (const r of results)
    for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
  return {
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    statuses,
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
  };
}

const generatorIsWrk = (options: ThroughputOptions): boolean => (options.generator ?? 'wrk') === 'wrk';

export async function throughput(options: ThroughputOptions): Promise<ThroughputResult> {
  const { log, load } = options;
  const started: RunningServer[] = [];
  try {
    log('throughput: starting cca-kit (CLI) and the servers it is compared with');
    const cca = await startCcaKit({
      seed: 42,
      ...(options.cpuProfDir === undefined
        ? {}
        : { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] }),
    });
    started.push(cca);
    const keys: BenchKeys = await benchKeys(cca.url);
    const wanted = (name: RouteName) => options.routes === undefined || options.routes.includes(name);
    // GET detail and PATCH custom fields both name a seeded action (a run of only the PATCH once sent
    // it to an action that does not exist, and measured 404s).
    const detailId =
      wanted('detail') || wanted('customFields') ? await firstActionId(cca.url, keys) : 'unused';
    const routes = benchRoutes(detailId, `${process.pid}-${Date.now()}`).filter((r) => wanted(r.name));

    // Record cca-kit's bytes for the ceiling (one request per route).
    const recordings: Recording[] = [];
    const ccaProbe = new Map<RouteName, { status: number; bytes: number }>();
    for (const route of routes) {
      const sample = route.sample(keys);
      const answer = await probe(cca, sample);
      ccaProbe.set(route.name, { status: answer.status, bytes: answer.body.byteLength });
      recordings.push({
        method: sample.method,
        path: sample.path,
        status: answer.status,
        headers: answer.headers,
        bodyBase64: answer.body.toString('base64'),
      });
    }
    mkdirSync(options.outDir, { recursive: true });
    const recordingsFile = join(options.outDir, 'recordings.json');
    writeFileSync(recordingsFile, JSON.stringify(recordings));

    const compare = options.compare ?? ['prism-static', 'prism-dynamic', 'ceiling', 'cca-kit-computed'];
    const others: RunningServer[] = [];
    for (const which of compare) {
      const server =
        which === 'ceiling'
          ? await startCeiling(recordingsFile)
          : which === 'cca-kit-computed'
            ? await startCcaKit({ seed: 42, noAnswerCache: true })
            : await startPrismMock(which === 'prism-dynamic');
      started.push(server);
      others.push(server);
    }

    const pin = generatorIsWrk(options) ? (options.pin ?? null) : null;
    if (pin !== null) for (const server of started) pinProcess(server.pid, pin.server);

    const rows: ThroughputRow[] = [];
    for (const route of routes) {
      // Writes take the same path with or without the answer cache: compared on reads only.
      const versus = others.filter((other) => route.isGet || other.name !== CCA_KIT_COMPUTED);
      const probes = new Map<string, { status: number; bytes: number }>();
      probes.set(cca.name, ccaProbe.get(route.name) ?? { status: 0, bytes: 0 });
      for (const other of versus) {
        const answer = await probe(other, route.sample(keys));
        probes.set(other.name, { status: answer.status, bytes: answer.body.byteLength });
      }
      const generator = options.generator ?? 'wrk';
      let runCount = 0;
      const measure = (server: RunningServer, duration: number): Promise<LoadResult> => {
        const settings = { ...load, duration };
        runCount++;
        return generator === 'wrk'
          ? runWrk(server.url, route.wrk(keys, `r${runCount}`), settings, pin?.generator)
          : runLoad(server.url, route.requests(keys), settings);
      };
      for (const server of [cca, ...versus]) await measure(server, options.warmup);

      const runs = new Map<string, LoadResult[]>();
      const push = (name: string, result: LoadResult) => runs.set(name, [...(runs.get(name) ?? []), result]);
      const ratios: PairRatio[] = [];
      const pair = async (subject: RunningServer, other: RunningServer): Promise<void> => {
        const perRound: number[] = [];
        for (let round = 0; round < options.rounds; round++) {
          const a = await measure(subject, load.duration);
          const b = await measure(other, load.duration);
          push(subject.name, a);
          push(other.name, b);
          perRound.push(a.rps / b.rps);
        }
        ratios.push({
          ...(subject === cca ? {} : { subject: subject.name }),
          versus: other.name,
          ratio: median(perRound),
          perRound,
        });
        log(
          `  ${route.name}: ${subject.name}/${other.name} = ${median(perRound).toFixed(2)} (${perRound.map((r) => r.toFixed(2)).join(', ')}); ${a0(runs.get(subject.name))} vs ${a0(runs.get(other.name))} req/s`,
        );
      };
      for (const other of versus) await pair(cca, other);
      // The computed answer against the ceiling, measured pair by pair too (not only derived).
      const computed = versus.find((other) => other.name === CCA_KIT_COMPUTED);
      const ceiling = versus.find((other) => other.name === CEILING);
      if (computed !== undefined && ceiling !== undefined) await pair(computed, ceiling);
      const servers = [cca, ...versus].map((server) => ({
        server: server.name,
        ...merge(runs.get(server.name) ?? []),
        bodyBytes: probes.get(server.name)?.bytes ?? 0,
        probeStatus: probes.get(server.name)?.status ?? 0,
      }));
      rows.push({ route: route.name, label: route.label, isGet: route.isGet, servers, ratios });
    }
    return {
      generator: options.generator ?? 'wrk',
      load,
      rounds: options.rounds,
      pinned: pin,
      rows,
      ccaKitRssMb: rssMb(cca.pid),
    };
  } finally {
    for (const server of started.reverse()) await server.stop();
  }
}
