/**
 * The long garbage run: at least 1,000,000 generated garbage requests against cca-kit's mock started
 * through its CLI with `--self-check` (a response that breaks the contract becomes a 500 and is
 * counted). The requests come from the fast-check arbitrary of `test/hardening-garbage.test.ts`: a pool
 * of distinct ones is generated up front (generation costs ~90 µs a request, too slow inline on the
 * two shared cores), rendered to raw HTTP/1.1 bytes, and replayed in turn by wrk (C; a Lua script
 * cycles through the pool, adds a unique `x-garbage-seq` header to each request and counts statuses
 * by class). The server closing a connection on purpose (a 413 it did not read, a header overflow)
 * shows as a wrk read error and a reconnect.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { type GarbageRequest, garbageRequest } from '../lib/garbage.ts';
import { benchKeys, startCcaKit } from '../lib/servers.ts';
import { WRK } from '../lib/wrk.ts';

export interface GarbageResult {
  readonly target: number;
  readonly pool: number;
  readonly responses: number;
  readonly seconds: number;
  readonly rps: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly fiveHundreds: number;
  /** wrk read/write/connect errors: connections the server closed on purpose, then re-opened. */
  readonly socketErrors: number;
  readonly aliveAfter: boolean;
  readonly connections: number;
  readonly seed: number;
}

/** Raw request bytes, split where the sequence header goes. */
function render(request: GarbageRequest): { head: Buffer; tail: Buffer } {
  const lines = [`${request.method} ${request.path} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  return {
    head: Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'),
    tail: Buffer.concat([Buffer.from(`Content-Length: ${body.byteLength}\r\n\r\n`, 'latin1'), body]),
  };
}

const LUA = `
local function slurp(p) local f = assert(io.open(p, "rb")); local s = f:read("*a"); f:close(); return s end
local heads, tails = {}, {}
local n = 0
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  local data = slurp(args[1])
  local pos = 1
  for hl, tl in slurp(args[2]):gmatch("(%d+) (%d+)") do
    hl = tonumber(hl); tl = tonumber(tl)
    n = n + 1
    heads[n] = data:sub(pos, pos + hl - 1); pos = pos + hl
    tails[n] = data:sub(pos, pos + tl - 1); pos = pos + tl
  end
  seq = tonumber(args[3])
  c1, c2, c3, c4, c5 = 0, 0, 0, 0, 0
end
function request()
  seq = seq + 1
  local i = (seq % n) + 1
  return heads[i] .. "x-garbage-seq: " .. seq .. "\\r\\n" .. tails[i]
end
function response(status, headers, body)
  if status < 200 then c1 = c1 + 1 elseif status < 300 then c2 = c2 + 1 elseif status < 400 then c3 = c3 + 1
  elseif status < 500 then c4 = c4 + 1 else c5 = c5 + 1 end
end
function done(summary, latency, requests)
  local t = {0, 0, 0, 0, 0}
  for _, thread in ipairs(threads) do
    t[1] = t[1] + thread:get("c1"); t[2] = t[2] + thread:get("c2"); t[3] = t[3] + thread:get("c3")
    t[4] = t[4] + thread:get("c4"); t[5] = t[5] + thread:get("c5")
  end
  local e = summary.errors
  io.write(string.format('GARBAGEJSON {"requests":%d,"duration_us":%d,"1xx":%d,"2xx":%d,"3xx":%d,"4xx":%d,"5xx":%d,"errors":%d,"timeouts":%d}\\n',
    summary.requests, summary.duration, t[1], t[2], t[3], t[4], t[5], e.connect + e.read + e.write, e.timeout))
end
`;

function wrkChunk(
  url: string,
  files: { lua: string; data: string; index: string },
  seconds: number,
  connections: number,
  offset: number,
): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    execFile(
      WRK,
      [
        '-t1',
        `-c${connections}`,
        `-d${seconds}s`,
        '--timeout',
        '10s',
        '-s',
        files.lua,
        url,
        '--',
        files.data,
        files.index,
        String(offset),
      ],
      { timeout: (seconds + 60) * 1000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`wrk failed: ${error.message}\n${stderr}`));
        const line = stdout.split('\n').find((l) => l.startsWith('GARBAGEJSON '));
        if (line === undefined) return reject(new Error(`wrk printed no result:\n${stdout}\n${stderr}`));
        resolve(JSON.parse(line.slice(12)) as Record<string, number>);
      },
    );
  });
}

export async function garbageLongRun(options: {
  target: number;
  pool: number;
  maxSeconds: number;
  chunkSeconds: number;
  seed: number;
  connections: number;
  /** Profile the mock (`--cpu-prof`) into this folder. */
  cpuProfDir?: string;
  log: (line: string) => void;
}): Promise<GarbageResult> {
  const mock = await startCcaKit({
    seed: 42,
    selfCheck: true,
    ...(options.cpuProfDir === undefined
      ? {}
      : { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] }),
  });
  const dir = mkdtempSync(join(tmpdir(), 'cca-garbage-'));
  try {
    const keys = await benchKeys(mock.url);
    const listing = (await (await fetch(`${mock.url}/__mock/keys`)).json()) as { keys: { key: string }[] };
    const list = (await (
      await fetch(`${mock.url}/v0/action/list?pageSize=5`, { headers: { 'x-api-key': keys.read } })
    ).json()) as { data?: { actionId: string }[] };
    const arbitrary = garbageRequest(
      { keys: listing.keys.map((k) => k.key), ids: (list.data ?? []).map((a) => a.actionId) },
      { maxBodyBytes: 64 * 1024, oddMethods: true },
    );
    const t0 = performance.now();
    // HEAD is left out here: wrk does not know the method of a raw request and would wait for the body
    // a HEAD answer announces but never sends (the hardening test covers HEAD).
    const pool = fc
      .sample(arbitrary, { numRuns: options.pool, seed: options.seed })
      .filter((r) => r.method.toUpperCase() !== 'HEAD')
      .map(render);
    options.log(
      `  garbage: ${pool.length} distinct requests generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const files = {
      lua: join(dir, 'garbage.lua'),
      data: join(dir, 'requests.bin'),
      index: join(dir, 'index.txt'),
    };
    writeFileSync(files.lua, LUA);
    writeFileSync(files.data, Buffer.concat(pool.flatMap((r) => [r.head, r.tail])));
    writeFileSync(files.index, pool.map((r) => `${r.head.byteLength} ${r.tail.byteLength}`).join('\n'));

    const totals: Record<string, number> = { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
    let responses = 0;
    let sent = 0;
    let socketErrors = 0;
    let seconds = 0;
    while (responses < options.target && seconds < options.maxSeconds) {
      const remaining = options.maxSeconds - seconds;
      const chunk = await wrkChunk(
        mock.url,
        files,
        Math.max(1, Math.min(options.chunkSeconds, Math.ceil(remaining))),
        options.connections,
        sent,
      );
      const answered =
        (chunk['1xx'] ?? 0) +
        (chunk['2xx'] ?? 0) +
        (chunk['3xx'] ?? 0) +
        (chunk['4xx'] ?? 0) +
        (chunk['5xx'] ?? 0);
      for (const k of Object.keys(totals)) totals[k] = (totals[k] ?? 0) + (chunk[k] ?? 0);
      responses += answered;
      sent += (chunk['requests'] ?? 0) + (chunk['errors'] ?? 0) + 1_000;
      socketErrors += chunk['errors'] ?? 0;
      seconds += (chunk['duration_us'] ?? 0) / 1e6;
      options.log(`  garbage: ${responses} responses in ${seconds.toFixed(0)} s, 5xx ${totals['5xx']}`);
      if (!(await alive(mock.url, keys.read))) break;
    }
    const aliveAfter = await alive(mock.url, keys.read);
    const result = {
      target: options.target,
      pool: pool.length,
      responses,
      seconds,
      rps: responses / seconds,
      statuses: totals,
      fiveHundreds: totals['5xx'] ?? 0,
      socketErrors,
      aliveAfter,
      connections: options.connections,
      seed: options.seed,
    };
    options.log(
      `  garbage: ${responses} responses in ${seconds.toFixed(0)} s (${result.rps.toFixed(0)} req/s), 5xx ${result.fiveHundreds}, socket errors ${socketErrors}, alive ${aliveAfter}`,
    );
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await mock.stop();
  }
}

async function alive(url: string, key: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/v0/action/list`, { headers: { 'x-api-key': key } });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}
