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

export interface CompareRow {
  readonly route: string;
  readonly label: string;
  /** Median requests per second over the rounds: this, that, ceiling. */
  readonly rps: { readonly this: number; readonly that: number; readonly ceiling: number };
  /** Best round of each. */
  readonly maxRps: { readonly this: number; readonly that: number; readonly ceiling: number };
  /** Median server CPU microseconds per request. */
  readonly cpuUs: { readonly this: number; readonly that: number; readonly ceiling: number };
}

export interface CompareResult {
  readonly against: string;
  readonly againstCommit: string;
  readonly thisCommit: string;
  readonly rounds: number;
  readonly load: LoadSettings;
  readonly generator: string;
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
    const keys = await benchKeys(mine.url);
    const theirKeys = await benchKeys(theirs.url);
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
    }
    const recordingsFile = join(dir, 'recordings.json');
    writeFileSync(recordingsFile, JSON.stringify(recordings));
    const ceiling = await startCeiling(recordingsFile);
    servers.push(ceiling);

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
      const rps = { this: [] as number[], that: [] as number[], ceiling: [] as number[] };
      const cpu = { this: [] as number[], that: [] as number[], ceiling: [] as number[] };
      const subjects = [
        ['this', mine, keys],
        ['that', theirs, theirKeys],
        ['ceiling', ceiling, keys],
      ] as const;
      // A short warm-up each (JIT, caches), not counted.
      for (const [, server, k] of subjects) await hit(server, route, k);
      for (let round = 0; round < options.rounds; round++) {
        for (const [name, server, k] of subjects) {
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
      };
      log(
        `   ${route.name}: this ${row.rps.this.toFixed(0)}, that ${row.rps.that.toFixed(0)}, ceiling ${row.rps.ceiling.toFixed(0)} req/s; cpu ${row.cpuUs.this.toFixed(1)} / ${row.cpuUs.that.toFixed(1)} / ${row.cpuUs.ceiling.toFixed(1)} us/req`,
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

const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? (a / b).toFixed(2) : '–');

/** The markdown block for one comparison (RESULTS.md keeps one per compared ref). */
export function renderCompare(result: CompareResult): string {
  const lines = [
    `### This (${result.thisCommit.slice(0, 7)}) against ${result.against} (${result.againstCommit.slice(0, 7)})`,
    '',
    `${result.generator}, ${result.load.connections} connections, ${result.rounds} alternating rounds of ${result.load.duration} s per server and route; load average ${result.loadBefore} before, ${result.loadAfter} after (2 cores shared: medians and CPU per request are the figures to trust).`,
    '',
    '| route | this req/s | that req/s | ceiling req/s | this ÷ that | this ÷ ceiling | best round this ÷ that | CPU µs/req this / that / ceiling | CPU that ÷ this |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...result.rows.map(
      (r) =>
        `| ${r.label} | ${r.rps.this.toFixed(0)} | ${r.rps.that.toFixed(0)} | ${r.rps.ceiling.toFixed(0)} | ${ratio(r.rps.this, r.rps.that)} | ${ratio(r.rps.this, r.rps.ceiling)} | ${ratio(r.maxRps.this, r.maxRps.that)} | ${r.cpuUs.this.toFixed(1)} / ${r.cpuUs.that.toFixed(1)} / ${r.cpuUs.ceiling.toFixed(1)} | ${ratio(r.cpuUs.that, r.cpuUs.this)} |`,
    ),
    '',
  ];
  return lines.join('\n');
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
