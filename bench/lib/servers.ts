/**
 * Starting the servers under test as separate processes on 127.0.0.1, and stopping them. cca-kit's mock
 * is started through its CLI (`node bin/cca-kit.js mock`) so it never shares the benchmark's process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort, ROOT, startPrism } from '../../test/support/processes.ts';
import type { BenchKeys } from './routes.ts';

export interface RunningServer {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/** Polls `url` until `accept(status)` or the deadline; throws with the child's output on failure. */
export async function waitForHttp(
  child: ChildProcess,
  url: string,
  init: RequestInit,
  accept: (status: number) => boolean,
  output: () => string,
  timeoutMs = 120_000,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${url}: process exited with ${child.exitCode}\n${output()}`);
    if (Date.now() > deadline) throw new Error(`${url}: no answer within ${timeoutMs} ms\n${output()}`);
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (accept(response.status)) return;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
}

function collect(child: ChildProcess): () => string {
  let output = '';
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return () => output;
}

export interface CcaKitOptions {
  readonly seed?: number;
  readonly actions?: number;
  /** Extra node flags (`--cpu-prof`, `--expose-gc`...). */
  readonly nodeArgs?: readonly string[];
  /** `--self-check`: a response that breaks the contract becomes a 500. */
  readonly selfCheck?: boolean;
  readonly moderationLatency?: string;
  /** `--no-answer-cache`: list, search and tag answers computed on every request. */
  readonly noAnswerCache?: boolean;
}

/** Spawns `node bin/cca-kit.js mock --port P --seed S [--actions N]` without waiting. */
export async function spawnCcaKit(options: CcaKitOptions = {}) {
  const port = await freePort();
  const args = [
    ...(options.nodeArgs ?? []),
    `${ROOT}bin/cca-kit.js`,
    'mock',
    '--port',
    String(port),
    '--seed',
    String(options.seed ?? 42),
    ...(options.actions === undefined ? [] : ['--actions', String(options.actions)]),
    ...(options.selfCheck === true ? ['--self-check'] : []),
    ...(options.moderationLatency === undefined ? [] : ['--moderation-latency', options.moderationLatency]),
    ...(options.noAnswerCache === true ? ['--no-answer-cache'] : []),
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, url: `http://127.0.0.1:${port}`, output: collect(child) };
}

/** Starts cca-kit's mock through its CLI and waits until it answers. */
export async function startCcaKit(options: CcaKitOptions = {}): Promise<RunningServer> {
  const { child, url, output } = await spawnCcaKit(options);
  await waitForHttp(child, `${url}/__mock/clock`, {}, (s) => s === 200, output);
  const name = options.noAnswerCache === true ? CCA_KIT_COMPUTED : 'cca-kit';
  return { name, url, pid: child.pid ?? 0, stop: stopper(child) };
}

/** The name of cca-kit started with `--no-answer-cache` in the tables. */
export const CCA_KIT_COMPUTED = 'cca-kit, no answer cache';

/** Prism's mock of our contract, `-v warn` (its fastest logging), static examples or `--dynamic`. */
export async function startPrismMock(dynamic: boolean): Promise<RunningServer> {
  const started = await startPrism(`${ROOT}contract/openapi.json`, [
    '-v',
    'warn',
    ...(dynamic ? ['--dynamic'] : []),
  ]);
  return {
    name: dynamic ? 'Prism --dynamic' : 'Prism static',
    url: started.url,
    pid: started.process.pid ?? 0,
    stop: started.stop,
  };
}

/** The name of the node:http replay server in the tables. */
export const CEILING = 'node:http ceiling';

/** The node:http replay server (`bench/servers/ceiling.ts`) over a recordings file. */
export async function startCeiling(recordingsFile: string): Promise<RunningServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', `${ROOT}bench/servers/ceiling.ts`, recordingsFile],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = collect(child);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ceiling did not start:\n${output()}`)), 30_000);
    child.stdout?.on('data', () => {
      const match = /"port":\s*(\d+)/.exec(output());
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(Number.parseInt(match[1], 10));
      }
    });
    child.once('exit', (code) => reject(new Error(`ceiling exited with ${code}:\n${output()}`)));
  });
  return {
    name: CEILING,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: stopper(child),
  };
}

interface KeyListing {
  readonly keys: readonly {
    key: string;
    organizationId: string;
    profile: string;
    status: string;
  }[];
}

/** Reads the keys of the organization in `ad_policy` mode through the admin API (loopback). */
export async function benchKeys(mockUrl: string): Promise<BenchKeys> {
  const orgs = (await (await fetch(`${mockUrl}/__mock/organizations`)).json()) as {
    organizations: { id: string; moderationMode: string }[];
  };
  const org = orgs.organizations.find((o) => o.moderationMode === 'ad_policy') ?? orgs.organizations[0];
  if (org === undefined) throw new Error('the mock has no organization');
  const listing = (await (
    await fetch(`${mockUrl}/__mock/keys?organizationId=${org.id}`)
  ).json()) as KeyListing;
  const active = listing.keys.filter((k) => k.status === 'active');
  const pick = (profile: string) => {
    const found = active.find((k) => k.profile === profile);
    if (found === undefined) throw new Error(`no active ${profile} key for ${org.id}`);
    return found.key;
  };
  return { read: pick('read_write'), write: pick('read_write'), ingest: pick('import') };
}

/** Spawns Prism (`-v warn`) without waiting, for start-up timing. */
export async function spawnPrism(dynamic: boolean) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      `${ROOT}node_modules/@stoplight/prism-cli/dist/index.js`,
      'mock',
      `${ROOT}contract/openapi.json`,
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-v',
      'warn',
      ...(dynamic ? ['--dynamic'] : []),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return { child, url: `http://127.0.0.1:${port}`, output: collect(child), stop: stopper(child) };
}

/** Stops a spawned child (SIGTERM, then SIGKILL after 5 s). */
export function stopChild(child: ChildProcess): Promise<void> {
  return stopper(child)();
}
