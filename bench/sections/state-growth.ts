/**
 * State growth: how a `--state-file` and a `--state redis://` mock start after a long log, before and
 * after compaction. The log is written directly, by the file store's own serializer (N commands: one
 * new moderation case in ten, the rest resubmissions of known cases and moderation-mode changes, the
 * mix of a CI pipeline that runs the writing laws again and again), then the built CLI is started on it: time from spawn to the first
 * 200 of `GET /v0/agents`, and the process's RSS then. "Before" replays the whole log (snapshots off);
 * "after" starts from the snapshot a compaction wrote (the log then holds only what follows it). A
 * million commands for the file store only (Redis up to `REDIS_UP_TO`).
 *
 *   npm run bench -- --only state-growth
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import type { LoggedCommand } from '../../mocks/engine/commands/types.ts';
import { sampleSubmission } from '../../mocks/engine/moderation/sample.ts';
import { openStateFile, serializeEntry } from '../../mocks/engine/store/file.ts';
import { createPersistentEngine } from '../../mocks/engine/store/open.ts';
import { mockKeys } from '../../suites/target.ts';
import { ROOT } from '../../test/support/processes.ts';
import { startRedis } from '../../test/support/state-processes.ts';

export interface GrowthRow {
  readonly store: 'file' | 'redis';
  readonly commands: number;
  readonly phase: 'before compaction' | 'after compaction';
  readonly firstOkMs: number;
  readonly rssMiB: number;
  /** Bytes of the log (file) or entries in the stream (Redis) at that start. */
  readonly logSize: string;
}

export interface StateGrowthResult {
  readonly rows: readonly GrowthRow[];
  readonly sizes: readonly number[];
  readonly skipped: string | null;
}

const keys = mockKeys();
const ARGS = ['--seed', '42', '--clock', 'frozen'];

/** The i-th command of the mix (the same for both stores), as the file store writes it. */
export function commandLine(i: number, real: number): string {
  const kind = i % 10;
  const command =
    kind === 0
      ? {
          type: 'moderation.submit',
          organizationId: 'org_acme',
          submission: sampleSubmission({ externalId: `growth-${i}` }),
        }
      : kind === 9
        ? {
            type: 'organization.moderationMode',
            organizationId: 'org_globex',
            mode: i % 20 === 9 ? 'standard' : 'ad_policy',
          }
        : {
            type: 'moderation.submit',
            organizationId: 'org_acme',
            submission: sampleSubmission({ externalId: `growth-${i - kind}` }),
          };
  return serializeEntry({ real, command: command as LoggedCommand['command'] });
}

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  readonly firstOkMs: number;
  readonly rssMiB: number;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

async function startTimed(args: readonly string[], env: Record<string, string>): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, [`${ROOT}bin/cca-kit.js`, 'mock', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /(?:starting|listening) on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearInterval(timer);
        resolve(match[1]);
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`mock exited: ${output}`));
      }
    }, 5);
  });
  for (;;) {
    const answer = await fetch(`${url}/v0/agents`, { headers: { 'x-api-key': keys.read ?? '' } }).catch(
      () => undefined,
    );
    await answer?.arrayBuffer();
    if (answer?.status === 200) break;
    if (performance.now() - started > 300_000) throw new Error(`no 200 in 300 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const firstOkMs = Math.round(performance.now() - started);
  return { child, url, firstOkMs, rssMiB: rssOf(child.pid as number) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}

async function oneWrite(url: string): Promise<void> {
  const answer = await fetch(`${url}/v0/moderation/cases`, {
    method: 'POST',
    headers: { 'x-api-key': keys.write ?? '', 'content-type': 'application/json' },
    body: JSON.stringify(sampleSubmission({ externalId: 'growth-compaction' })),
  });
  await answer.arrayBuffer();
}

/**
 * A state file at `file` (a mock of seed 42 on a frozen clock) with `n` commands of the mix appended
 * directly, by the store's own serializer, not through HTTP.
 */
export async function writeGrowthLog(file: string, n: number): Promise<void> {
  const made = await createPersistentEngine({ seed: 42, clock: 'frozen' }, (d, p) =>
    openStateFile(file, d, p, { snapshotEvery: 0 }),
  );
  await made.store.close();
  const real = made.origin.clockStart;
  const chunk: string[] = [];
  for (let i = 0; i < n; i += 1) {
    chunk.push(commandLine(i, real));
    if (chunk.length === 10_000) {
      appendFileSync(file, chunk.join(''));
      chunk.length = 0;
    }
  }
  if (chunk.length > 0) appendFileSync(file, chunk.join(''));
}

async function fileRows(n: number, dir: string): Promise<GrowthRow[]> {
  const file = join(dir, `growth-${n}.state`);
  await writeGrowthLog(file, n);
  const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const rows: GrowthRow[] = [];
  // The interval is one past the log: the replay writes no snapshot, the one write after it does.
  const every = { CCA_MOCK_SNAPSHOT_EVERY: String(n + 1) };
  const before = await startTimed([...ARGS, '--state-file', file], every);
  rows.push({
    store: 'file',
    commands: n,
    phase: 'before compaction',
    firstOkMs: before.firstOkMs,
    rssMiB: before.rssMiB,
    logSize: mib(statSync(file).size),
  });
  await oneWrite(before.url);
  await stop(before.child);
  const after = await startTimed([...ARGS, '--state-file', file], { CCA_MOCK_SNAPSHOT_EVERY: '0' });
  rows.push({
    store: 'file',
    commands: n,
    phase: 'after compaction',
    firstOkMs: after.firstOkMs,
    rssMiB: after.rssMiB,
    logSize: `${mib(statSync(file).size)} + snapshot ${mib(statSync(`${file}.snapshot`).size)}`,
  });
  await stop(after.child);
  return rows;
}

/** `XADD <log> * c <entry>` in the protocol's own framing, the entry exactly as the file store writes it. */
function xaddFrame(entry: string): Buffer {
  const text = Buffer.from(entry);
  return Buffer.concat([
    Buffer.from(`*5\r\n$4\r\nXADD\r\n$11\r\ncca-kit:log\r\n$1\r\n*\r\n$1\r\nc\r\n$${text.length}\r\n`),
    text,
    Buffer.from('\r\n'),
  ]);
}

/**
 * Appends the mix's first `n` commands to the stream through `redis-cli --pipe` (one pipelined
 * stream of XADDs, the same entries the file rows write): a million entries in seconds, where a
 * client's round trips per batch take minutes.
 */
async function pipeEntries(port: number, n: number, real: number): Promise<void> {
  const child = spawn('redis-cli', ['-h', '127.0.0.1', '-p', String(port), '--pipe'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const chunk: Buffer[] = [];
  for (let i = 0; i < n; i += 1) {
    chunk.push(xaddFrame(commandLine(i, real).trimEnd()));
    if (chunk.length === 10_000 || i === n - 1) {
      const ok = child.stdin.write(Buffer.concat(chunk));
      chunk.length = 0;
      if (!ok) await new Promise((resolve) => child.stdin.once('drain', resolve));
    }
  }
  child.stdin.end();
  const code = await exited;
  // redis-cli --pipe ends with "errors: E, replies: R".
  const summary = /errors: (\d+), replies: (\d+)/.exec(output);
  if (code !== 0 || summary?.[1] !== '0' || summary[2] !== String(n))
    throw new Error(`redis-cli --pipe did not append ${n} entries (exit ${code}):\n${output}`);
}

async function redisRows(n: number, log: (line: string) => void): Promise<GrowthRow[]> {
  const redis = await startRedis();
  const client = createClient({ url: redis.url, RESP: 2 });
  try {
    const url = `${redis.url}`;
    // The first start creates the origin (and its epoch) the log's entries belong to.
    const first = await startTimed([...ARGS, '--state', url], { CCA_MOCK_SNAPSHOT_EVERY: '0' });
    await stop(first.child);
    await client.connect();
    const origin = JSON.parse((await client.sendCommand<string>(['GET', 'cca-kit:origin'])) ?? '{}') as {
      clockStart: number;
    };
    const loadStarted = performance.now();
    await pipeEntries(redis.port, n, origin.clockStart);
    log(
      `   redis ${n}: stream loaded in ${Math.round(performance.now() - loadStarted)} ms (redis-cli --pipe)`,
    );
    const rows: GrowthRow[] = [];
    const length = async (): Promise<string> =>
      `${await client.sendCommand<number>(['XLEN', 'cca-kit:log'])} entries`;
    // The interval is one past the log: the catch-up writes no snapshot, the one write after it does.
    const before = await startTimed([...ARGS, '--state', url], { CCA_MOCK_SNAPSHOT_EVERY: String(n + 1) });
    rows.push({
      store: 'redis',
      commands: n,
      phase: 'before compaction',
      firstOkMs: before.firstOkMs,
      rssMiB: before.rssMiB,
      logSize: await length(),
    });
    await oneWrite(before.url);
    // The replica snapshots after the round that applied the write; wait for the key.
    const snapshotStarted = performance.now();
    while ((await client.sendCommand<number>(['EXISTS', 'cca-kit:snapshot'])) !== 1) {
      // Without it the start "after compaction" would be a whole replay under the wrong name.
      if (performance.now() - snapshotStarted > 120_000)
        throw new Error(`no snapshot of ${n} commands in 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    log(
      `   redis ${n}: snapshot written ${Math.round(performance.now() - snapshotStarted)} ms after the write`,
    );
    await stop(before.child);
    const after = await startTimed([...ARGS, '--state', url], { CCA_MOCK_SNAPSHOT_EVERY: '0' });
    rows.push({
      store: 'redis',
      commands: n,
      phase: 'after compaction',
      firstOkMs: after.firstOkMs,
      rssMiB: after.rssMiB,
      logSize: `${await length()} + snapshot`,
    });
    await stop(after.child);
    return rows;
  } finally {
    await client.close().catch(() => undefined);
    await redis.remove();
  }
}

/** Redis is measured up to this many commands (a million entries load in about 40 s, replay in 90 s). */
const REDIS_UP_TO = 1_000_000;

export async function stateGrowthSection(options: {
  readonly sizes: readonly number[];
  readonly log: (line: string) => void;
}): Promise<StateGrowthResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cca-bench-growth-'));
  const rows: GrowthRow[] = [];
  try {
    for (const n of options.sizes) {
      const file = await fileRows(n, dir);
      // The log and its snapshot are gone before the next size is written (a million is half a gigabyte).
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      for (const row of [...file, ...(n <= REDIS_UP_TO ? await redisRows(n, options.log) : [])]) {
        rows.push(row);
        options.log(
          `   ${row.store} ${row.commands} ${row.phase}: first 200 in ${row.firstOkMs} ms, RSS ${row.rssMiB} MiB (${row.logSize})`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    rows,
    sizes: options.sizes,
    skipped: options.sizes.includes(1_000_000) ? null : '1,000,000 commands: not in this run',
  };
}

export function renderStateGrowth(result: StateGrowthResult, stamp: string): string {
  const lines = [
    '## State growth: start-up after a long log, before and after compaction',
    '',
    stamp,
    '',
    '| store | commands | start | time to first 200 | RSS | log |',
    '|---|---:|---|---:|---:|---|',
    ...result.rows.map(
      (r) =>
        `| ${r.store} | ${r.commands.toLocaleString('en-US')} | ${r.phase} | ${(r.firstOkMs / 1000).toFixed(2)} s | ${r.rssMiB} MiB | ${r.logSize} |`,
    ),
  ];
  const ratio = (store: string): string => {
    const at = (n: number) =>
      result.rows.find((r) => r.store === store && r.commands === n && r.phase === 'before compaction');
    const small = at(result.sizes[0] ?? 0);
    const big = at(result.sizes[1] ?? 0);
    return small === undefined || big === undefined ? 'n/a' : (big.firstOkMs / small.firstOkMs).toFixed(1);
  };
  if (result.sizes.length >= 2)
    lines.push(
      '',
      `Replay ratio (time to first 200, ${result.sizes[1]?.toLocaleString('en-US')} / ${result.sizes[0]?.toLocaleString('en-US')} commands, whole log): file ${ratio('file')}, Redis ${ratio('redis')} (linear is ${((result.sizes[1] ?? 0) / (result.sizes[0] ?? 1)).toFixed(0)}; the time includes the process start, about the same at every size).`,
    );
  lines.push(
    '',
    'The first compaction of a log keeps it whole: the log is cut at the *previous* snapshot, so a damaged latest one still leaves a way back; from the second snapshot on, the log holds at most two intervals (10,000 commands each by default). The file store reads its log in chunks and parses only the lines after the snapshot, so "after compaction" holds the state, not the log text (the whole log is still scanned once for its line count).',
  );
  if (result.sizes.some((n) => n > REDIS_UP_TO))
    lines.push(
      '',
      `Redis is measured up to ${REDIS_UP_TO.toLocaleString('en-US')} commands: more stream entries take longer to load and replay whole than this bench may.`,
    );
  if (!result.sizes.includes(1_000_000)) lines.push('', `${result.skipped ?? ''}.`);
  return lines.join('\n');
}
