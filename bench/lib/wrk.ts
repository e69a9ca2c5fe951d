/**
 * One load run with wrk (Debian's /usr/bin/wrk, C, one thread): the default load generator of the
 * throughput section, because autocannon (JavaScript) saturates before the servers do on the two
 * shared cores (it delivered ~650 req/s of the 79 KB list where wrk measures ~10,000 from the same
 * replay server). A Lua script sets method, headers and body, builds a unique body per request when
 * asked (moderation externalIds), and prints the figures as JSON.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult, LoadSettings } from './load.ts';
import { pinnedCommand } from './pin.ts';

export const WRK = '/usr/bin/wrk';

export interface WrkRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /**
   * A body made unique per request: `{prefix}{tag}-{counter}{suffix}` (the counter counts per run,
   * `tag` must differ between runs against one server).
   */
  readonly unique?: { readonly prefix: string; readonly suffix: string; readonly tag: string };
}

const luaString = (text: string) =>
  `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

function script(request: WrkRequest, files: { body: string; prefix: string; suffix: string }): string {
  const lines = [
    `wrk.method = ${luaString(request.method)}`,
    ...Object.entries(request.headers).map(([k, v]) => `wrk.headers[${luaString(k)}] = ${luaString(v)}`),
    'local function slurp(p) local f = assert(io.open(p, "rb")); local s = f:read("*a"); f:close(); return s end',
  ];
  if (request.body !== undefined) lines.push(`wrk.body = slurp(${luaString(files.body)})`);
  if (request.unique !== undefined) {
    lines.push(
      `local prefix = slurp(${luaString(files.prefix)})`,
      `local suffix = slurp(${luaString(files.suffix)})`,
      `local tag = ${luaString(request.unique.tag)}`,
      'local counter = 0',
      'request = function()',
      '  counter = counter + 1',
      '  return wrk.format(nil, nil, nil, prefix .. tag .. "-" .. counter .. suffix)',
      'end',
    );
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'WRKJSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status, e.connect, e.read, e.write, e.timeout))',
    'end',
  );
  return lines.join('\n');
}

export async function runWrk(
  baseUrl: string,
  request: WrkRequest,
  settings: LoadSettings,
  /** The CPUs wrk runs on (taskset's list), when the caller pins it apart from the server. */
  cpus?: string,
): Promise<LoadResult> {
  if (settings.pipelining !== 1)
    throw new RangeError('the wrk runner sends one request at a time per connection');
  const dir = mkdtempSync(join(tmpdir(), 'cca-wrk-'));
  try {
    const files = { body: join(dir, 'body'), prefix: join(dir, 'prefix'), suffix: join(dir, 'suffix') };
    writeFileSync(files.body, request.body ?? '');
    writeFileSync(files.prefix, request.unique?.prefix ?? '');
    writeFileSync(files.suffix, request.unique?.suffix ?? '');
    const lua = join(dir, 'script.lua');
    writeFileSync(lua, script(request, files));
    const args = [
      '-t1',
      `-c${settings.connections}`,
      `-d${Math.max(1, Math.round(settings.duration))}s`,
      '--timeout',
      '10s',
      '-s',
      lua,
      `${baseUrl}${request.path}`,
    ];
    const stdout = await new Promise<string>((resolve, reject) => {
      const [command, argv] = pinnedCommand(WRK, args, cpus);
      execFile(command, argv, { timeout: (settings.duration + 30) * 1000 }, (error, out, err) => {
        if (error) reject(new Error(`wrk failed: ${error.message}\n${err}`));
        else resolve(out);
      });
    });
    const line = stdout.split('\n').find((l) => l.startsWith('WRKJSON '));
    if (line === undefined) throw new Error(`wrk printed no result:\n${stdout}`);
    const r = JSON.parse(line.slice(8)) as {
      requests: number;
      duration_us: number;
      p50_us: number;
      p99_us: number;
      non2xx: number;
      connect: number;
      read: number;
      write: number;
      timeout: number;
    };
    const seconds = r.duration_us / 1e6;
    return {
      requests: r.requests,
      rps: r.requests / seconds,
      p50: r.p50_us / 1000,
      p99: r.p99_us / 1000,
      statuses: {
        '2xx/3xx': r.requests - r.non2xx,
        ...(r.non2xx > 0 ? { 'other (4xx/5xx)': r.non2xx } : {}),
      },
      errors: r.connect + r.read + r.write,
      timeouts: r.timeout,
      seconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
