/**
 * Release over release: this checkout's mock against another git ref's, and both against the node:http
 * ceiling replaying this mock's bytes, under the same load generator, alternated round by round so a
 * busy machine's drift hits all three alike.
 *
 *   npm run bench -- --only compare --against a3a4501
 *
 * The other ref is built in a temporary git worktree (node_modules symlinked to this one's, removed at
 * the end). Besides requests per second, each server's CPU time per request is read from
 * /proc/<pid>/stat (utime + stime), which other processes on the machine disturb far less.
 *
 * A/A calibration: the other ref runs twice (two processes of the same build, `that` and `that′`), and
 * `that′ ÷ that` measured in the same rounds is what this machine's noise alone makes of a ratio. Each
 * round runs the four servers in a rotated order (so none always goes first after the ceiling's idle
 * pause), and the ratios are paired per round. A `this ÷ that` ratio is called slower or faster only when
 * its median over the rounds lies outside the range the A/A ratios took; inside it, it is noise.
 */
import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractDocument } from '../../src/contract/index.ts';
import { freePort, ROOT } from '../../test/support/processes.ts';
import { type LoadResult, type LoadSettings, runLoad } from '../lib/load.ts';
import { type Pinning, pinProcess } from '../lib/pin.ts';
import type { BenchKeys } from '../lib/routes.ts';
import { benchKeys, type RunningServer, startCeiling, waitForHttp } from '../lib/servers.ts';
import { median } from '../lib/stats.ts';
import { runWrk, WRK } from '../lib/wrk.ts';
import type { Recording } from '../servers/ceiling.ts';

export interface CompareOptions {
  /** The git ref to compare with (`a3a4501`, `main`). */
  readonly against: string;
  readonly rounds: number;
  readonly load: LoadSettings;
  readonly generator: 'wrk' | 'autocannon';
  /** Servers and wrk on separate CPUs (bench/lib/pin.ts); null runs them where the scheduler puts them. */
  readonly pin: Pinning | null;
  readonly log: (line: string) => void;
}

interface CompareRoute {
  readonly name: string;
  readonly label: string;
  readonly method: 'GET' | 'PATCH';
  readonly path: string;
  readonly key: keyof BenchKeys;
  readonly body?: string;
}

/** Per-round paired ratios of one measure: this against that, and the A/A pair that′ against that. */
export interface PairedRatios {
  /** Median over the rounds of the round's ratio. */
  readonly median: number;
  /** The A/A ratio of the same measure: median, lowest and highest round. */
  readonly aa: { readonly median: number; readonly min: number; readonly max: number };
  /** 'slower' / 'faster' only outside the A/A range; 'noise' inside it. */
  readonly verdict: Verdict;
}

export type Verdict = 'slower' | 'faster' | 'noise';

export interface CompareRow {
  readonly route: string;
  readonly label: string;
  /** Median requests per second over the rounds: this, that, ceiling. */
  readonly rps: { readonly this: number; readonly that: number; readonly ceiling: number };
  /** Best round of each. */
  readonly maxRps: { readonly this: number; readonly that: number; readonly ceiling: number };
  /** Median server CPU microseconds per request. */
  readonly cpuUs: { readonly this: number; readonly that: number; readonly ceiling: number };
  /**
   * Requests per second as `this ÷ that` per round (A/A: `that′ ÷ that`), and CPU per request as
   * `that ÷ this` (A/A: `that ÷ that′`): above 1 means this is faster in both. Absent in results
   * written before the A/A calibration.
   */
  readonly calibrated?: { readonly rps: PairedRatios; readonly cpu: PairedRatios };
}

export interface CompareResult {
  readonly against: string;
  readonly againstCommit: string;
  readonly thisCommit: string;
  readonly rounds: number;
  readonly load: LoadSettings;
  readonly generator: string;
  /** Whether the other ref ran twice for the A/A calibration (absent: results written before it). */
  readonly calibrated?: boolean;
  /** The CPUs of servers and wrk (absent: results written before pinning, or not pinned). */
  readonly pinned?: Pinning | null;
  readonly loadBefore: number;
  readonly loadAfter: number;
  readonly rows: readonly CompareRow[];
}

const run = (cmd: string, args: readonly string[], cwd: string, timeoutMs = 600_000): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, out, err) => {
      if (error) reject(new Error(`${cmd} ${args.join(' ')} failed in ${cwd}: ${error.message}\n${err}`));
      else resolve(out);
    });
  });

/** The contract's `updated` example of the custom-field PATCH, so the two cannot drift. */
function customFieldsBody(): string {
  type Body = { content: { 'application/json': { examples: { updated: { value: unknown } } } } };
  const body = contractDocument.paths?.['/v0/actions/{actionId}/custom-fields']?.patch?.requestBody as
    | Body
    | undefined;
  if (body === undefined) throw new Error('the contract has no body for PATCH custom-fields');
  return JSON.stringify(body.content['application/json'].examples.updated.value);
}

/** cca-kit's mock of the checkout at `root`, through its CLI. */
async function startMockAt(root: string, name: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join(root, 'bin/cca-kit.js'), 'mock', '--port', String(port), '--seed', '42'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(
    child,
    `${url}/__mock/clock`,
    {},
    (s) => s === 200,
    () => output,
  );
  return {
    name,
    url,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** utime + stime of a process, in microseconds (Linux; NaN elsewhere). */
function cpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5), counted after the command name (which may hold spaces).
    const ticks = Number.parseInt(fields[11] ?? '', 10) + Number.parseInt(fields[12] ?? '', 10);
    return (ticks * 1_000_000) / 100;
  } catch {
    return Number.NaN;
  }
}

async function firstActionId(url: string, key: string): Promise<string> {
  const response = await fetch(`${url}/v0/action/list?pageSize=1`, { headers: { 'x-api-key': key } });
  const text = await response.text();
  // The id is read as text: identifiers are strings end to end.
  const match = /"actionId"\s*:\s*"([^"]+)"/.exec(text);
  if (match?.[1] === undefined)
    throw new Error(`no action in ${url}: ${response.status} ${text.slice(0, 200)}`);
  return match[1];
}

async function record(url: string, route: CompareRoute, key: string): Promise<Recording> {
  const response = await fetch(`${url}${route.path}`, {
    method: route.method,
    headers: {
      'x-api-key': key,
      ...(route.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(route.body === undefined ? {} : { body: route.body }),
  });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status >= 400)
    throw new Error(`${route.label}: ${response.status} ${body.toString().slice(0, 300)}`);
  return {
    method: route.method,
    path: route.path,
    status: response.status,
    headers: [...response.headers.entries()],
    bodyBase64: body.toString('base64'),
  };
}

export async function compare(options: CompareOptions): Promise<CompareResult> {
  const { against, log } = options;
  const loadBefore = loadavg()[0] ?? 0;
  const againstCommit = (await run('git', ['rev-parse', `${against}^{commit}`], ROOT)).trim();
  const thisCommit = (await run('git', ['rev-parse', 'HEAD'], ROOT)).trim();
  const dir = mkdtempSync(join(tmpdir(), 'cca-compare-'));
  const tree = join(dir, 'tree');
  const servers: RunningServer[] = [];
  try {
    log(`   building ${against} (${againstCommit.slice(0, 7)}) in ${tree}`);
    await run('git', ['worktree', 'add', '--detach', tree, againstCommit], ROOT);
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(tree, 'node_modules'));
    await run(process.execPath, ['scripts/build.js'], tree, 900_000);
    if (!existsSync(join(ROOT, 'dist/cli/main.js')))
      throw new Error('this checkout has no dist/: npm run build');
    const mine = await startMockAt(ROOT, 'this');
    servers.push(mine);
    const theirs = await startMockAt(tree, 'that');
    servers.push(theirs);
    // The same build again, as its own process: the A/A pair.
    const twin = await startMockAt(tree, 'that′');
    servers.push(twin);
    const keys = await benchKeys(mine.url);
    const theirKeys = await benchKeys(theirs.url);
    const twinKeys = await benchKeys(twin.url);
    const id = await firstActionId(mine.url, keys.read);
    const routes: CompareRoute[] = [
      {
        name: 'detail',
        label: 'GET action detail',
        method: 'GET',
        path: `/v0/action/${encodeURIComponent(id)}`,
        key: 'read',
      },
      {
        name: 'list',
        label: 'GET action list (pageSize 50)',
        method: 'GET',
        path: '/v0/action/list?pageSize=50',
        key: 'read',
      },
      {
        name: 'search',
        label: 'GET conversation search',
        method: 'GET',
        path: '/v0/conversations/search?pageSize=50',
        key: 'read',
      },
      { name: 'tags', label: 'GET tag analytics', method: 'GET', path: '/v0/analytics/tags', key: 'read' },
      {
        name: 'custom-fields',
        label: 'PATCH custom fields (the same value each time)',
        method: 'PATCH',
        path: `/v0/actions/${encodeURIComponent(id)}/custom-fields`,
        key: 'write',
        body: customFieldsBody(),
      },
    ];
    const recordings: Recording[] = [];
    for (const route of routes) {
      recordings.push(await record(mine.url, route, keys[route.key]));
      await record(theirs.url, route, theirKeys[route.key]);
      await record(twin.url, route, twinKeys[route.key]);
    }
    const recordingsFile = join(dir, 'recordings.json');
    writeFileSync(recordingsFile, JSON.stringify(recordings));
    const ceiling = await startCeiling(recordingsFile);
    servers.push(ceiling);
    if (options.pin !== null) for (const server of servers) pinProcess(server.pid, options.pin.server);

    const hit = async (server: RunningServer, route: CompareRoute, k: BenchKeys): Promise<LoadResult> => {
      const headers = {
        'x-api-key': k[route.key],
        ...(route.body === undefined ? {} : { 'content-type': 'application/json' }),
      };
      if (options.generator === 'wrk' && existsSync(WRK)) {
        return runWrk(
          server.url,
          {
            method: route.method,
            path: route.path,
            headers,
            ...(route.body === undefined ? {} : { body: route.body }),
          },
          options.load,
          options.pin?.generator,
        );
      }
      return runLoad(
        server.url,
        [
          {
            method: route.method,
            path: route.path,
            headers,
            ...(route.body === undefined ? {} : { body: route.body }),
          },
        ],
        options.load,
      );
    };

    const rows: CompareRow[] = [];
    for (const route of routes) {
      const rps = {
        this: [] as number[],
        that: [] as number[],
        twin: [] as number[],
        ceiling: [] as number[],
      };
      const cpu = {
        this: [] as number[],
        that: [] as number[],
        twin: [] as number[],
        ceiling: [] as number[],
      };
      const subjects = [
        ['this', mine, keys],
        ['that', theirs, theirKeys],
        ['twin', twin, twinKeys],
        ['ceiling', ceiling, keys],
      ] as const;
      // A short warm-up each (JIT, caches), not counted.
      for (const [, server, k] of subjects) await hit(server, route, k);
      for (let round = 0; round < options.rounds; round++) {
        const order = subjects.map((_, i) => subjects[(i + round) % subjects.length] ?? subjects[0]);
        for (const [name, server, k] of order) {
          const before = cpuMicros(server.pid);
          const result = await hit(server, route, k);
          const used = cpuMicros(server.pid) - before;
          rps[name].push(result.rps);
          cpu[name].push(result.requests > 0 ? used / result.requests : Number.NaN);
        }
      }
      const row: CompareRow = {
        route: route.name,
        label: route.label,
        rps: { this: median(rps.this), that: median(rps.that), ceiling: median(rps.ceiling) },
        maxRps: {
          this: Math.max(...rps.this),
          that: Math.max(...rps.that),
          ceiling: Math.max(...rps.ceiling),
        },
        cpuUs: { this: median(cpu.this), that: median(cpu.that), ceiling: median(cpu.ceiling) },
        calibrated: {
          rps: pairedRatios(rps.this, rps.that, rps.twin),
          // CPU per request the other way round (that ÷ this), so that above 1 means faster here too.
          cpu: pairedRatios(cpu.that, cpu.this, cpu.that, cpu.twin),
        },
      };
      const c = row.calibrated;
      log(
        `   ${route.name}: this ${row.rps.this.toFixed(0)}, that ${row.rps.that.toFixed(0)}, that′ ${median(rps.twin).toFixed(0)}, ceiling ${row.rps.ceiling.toFixed(0)} req/s; cpu ${row.cpuUs.this.toFixed(1)} / ${row.cpuUs.that.toFixed(1)} / ${median(cpu.twin).toFixed(1)} / ${row.cpuUs.ceiling.toFixed(1)} us/req; this÷that ${c?.rps.median.toFixed(3)} (A/A ${c?.rps.aa.min.toFixed(3)}..${c?.rps.aa.max.toFixed(3)}: ${c?.rps.verdict}), cpu ${c?.cpu.median.toFixed(3)} (A/A ${c?.cpu.aa.min.toFixed(3)}..${c?.cpu.aa.max.toFixed(3)}: ${c?.cpu.verdict})`,
      );
      rows.push(row);
    }
    return {
      against,
      againstCommit,
      thisCommit,
      rounds: options.rounds,
      load: options.load,
      generator: options.generator === 'wrk' && existsSync(WRK) ? 'wrk' : 'autocannon',
      calibrated: true,
      pinned: options.generator === 'wrk' && existsSync(WRK) ? options.pin : null,
      loadBefore: Math.round(loadBefore * 100) / 100,
      loadAfter: Math.round((loadavg()[0] ?? 0) * 100) / 100,
      rows,
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    await run('git', ['worktree', 'remove', '--force', tree], ROOT).catch((error: unknown) => {
      process.stderr.write(`compare: could not remove the worktree ${tree}: ${String(error)}\n`);
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per round `a[r] ÷ b[r]`; rounds where either is not a positive finite figure are left out. */
function perRound(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  a.forEach((x, r) => {
    const y = b[r] ?? Number.NaN;
    if (Number.isFinite(x) && Number.isFinite(y) && x > 0 && y > 0) out.push(x / y);
  });
  return out;
}

/**
 * The paired ratio `num ÷ den` against the A/A ratio `aaNum ÷ aaDen` of the same rounds. With the
 * A/A range [min, max], a median inside it (bounds included) is what noise alone gives: 'noise'.
 *
 * @example
 * pairedRatios([90, 91], [100, 100], [99, 101]).verdict; // 'slower' (0.905 below the A/A 0.99..1.01)
 */
export function pairedRatios(
  num: readonly number[],
  den: readonly number[],
  aaNum: readonly number[],
  aaDen: readonly number[] = den,
): PairedRatios {
  const ratios = perRound(num, den);
  const aa = perRound(aaNum, aaDen);
  const m = ratios.length === 0 ? Number.NaN : median(ratios);
  const min = aa.length === 0 ? Number.NaN : Math.min(...aa);
  const max = aa.length === 0 ? Number.NaN : Math.max(...aa);
  const verdict: Verdict = m < min ? 'slower' : m > max ? 'faster' : 'noise';
  return { median: m, aa: { median: aa.length === 0 ? Number.NaN : median(aa), min, max }, verdict };
}

const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? (a / b).toFixed(2) : '–');

/** The markdown block for one comparison (RESULTS.md keeps one per compared ref). */
export function renderCompare(result: CompareResult): string {
  const lines = [
    `### This (${result.thisCommit.slice(0, 7)}) against ${result.against} (${result.againstCommit.slice(0, 7)})`,
    '',
    `${result.generator}, ${result.load.connections} connections, ${result.rounds} alternating rounds of ${result.load.duration} s per server and route; load average ${result.loadBefore} before, ${result.loadAfter} after (2 cores shared: medians and CPU per request are the figures to trust). ${result.pinned ? `Servers pinned to CPU ${result.pinned.server}, wrk to CPU ${result.pinned.generator} (taskset).` : 'Not pinned: servers and the load generator share the cores.'}`,
    '',
    '| route | this req/s | that req/s | ceiling req/s | this ÷ that | this ÷ ceiling | best round this ÷ that | CPU µs/req this / that / ceiling | CPU that ÷ this |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...result.rows.map(
      (r) =>
        `| ${r.label} | ${r.rps.this.toFixed(0)} | ${r.rps.that.toFixed(0)} | ${r.rps.ceiling.toFixed(0)} | ${ratio(r.rps.this, r.rps.that)} | ${ratio(r.rps.this, r.rps.ceiling)} | ${ratio(r.maxRps.this, r.maxRps.that)} | ${r.cpuUs.this.toFixed(1)} / ${r.cpuUs.that.toFixed(1)} / ${r.cpuUs.ceiling.toFixed(1)} | ${ratio(r.cpuUs.that, r.cpuUs.this)} |`,
    ),
    '',
    ...renderCalibration(result),
  ];
  return lines.join('\n');
}

const VERDICT: Readonly<Record<Verdict, string>> = {
  slower: '**slower**',
  faster: '**faster**',
  noise: 'noise',
};

const paired = (p: PairedRatios): string =>
  `${p.median.toFixed(3)} | ${p.aa.median.toFixed(3)} (${p.aa.min.toFixed(3)} – ${p.aa.max.toFixed(3)}) | ${VERDICT[p.verdict]}`;

/** The A/A table: each paired ratio beside the range the same build against itself took. */
function renderCalibration(result: CompareResult): string[] {
  const rows = result.rows.filter((r) => r.calibrated !== undefined);
  if (result.calibrated !== true || rows.length === 0) return [];
  return [
    `A/A calibration: ${result.against} ran twice (that, that′), in the same ${result.rounds} rounds, each round in a rotated order. Ratios are paired per round, medians over the rounds; a ratio is called slower or faster only outside the range (lowest – highest round) of the A/A ratio. Both measures read above 1 as this being faster: req/s this ÷ that (A/A that′ ÷ that), CPU per request that ÷ this (A/A that ÷ that′).`,
    '',
    '| route | req/s this ÷ that | A/A median (range) | req/s verdict | CPU that ÷ this | A/A median (range) | CPU verdict |',
    '|---|---:|---:|---|---:|---:|---|',
    ...rows.map((r) =>
      r.calibrated === undefined
        ? ''
        : `| ${r.label} | ${paired(r.calibrated.rps)} | ${paired(r.calibrated.cpu)} |`,
    ),
    '',
  ];
}

const BEGIN = '<!-- compare:begin -->';
const END = '<!-- compare:end -->';

/** Puts the comparison's block into RESULTS.md (replacing the last one against the same ref). */
export function writeCompare(resultsFile: string, result: CompareResult): void {
  const text = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
  const blocks = new Map<string, string>();
  const start = text.indexOf(BEGIN);
  const stop = text.indexOf(END);
  if (start >= 0 && stop > start) {
    for (const part of text
      .slice(start + BEGIN.length, stop)
      .split('<!-- against ')
      .slice(1)) {
      const close = part.indexOf(' -->');
      blocks.set(part.slice(0, close), part.slice(close + 4).trim());
    }
  }
  blocks.set(result.against, renderCompare(result).trim());
  const section = [
    BEGIN,
    '## Release over release (`npm run bench -- --only compare --against <ref>`)',
    '',
    ...[...blocks].map(([ref, block]) => `<!-- against ${ref} -->\n${block}\n`),
    END,
  ].join('\n');
  const next =
    start >= 0 && stop > start
      ? `${text.slice(0, start)}${section}${text.slice(stop + END.length)}`
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(resultsFile, next);
}
