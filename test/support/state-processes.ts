/**
 * Real processes for the state-store tests: `cca-kit mock` replicas (the built CLI, as users run it),
 * Debian's `redis-server` on an ephemeral loopback port with its own directory, and a small
 * round-robin HTTP proxy. Everything listens on 127.0.0.1 and is stopped by the test that started it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from './processes.ts';

export interface MockProcess {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything written so far. */
  output(): string;
  /** SIGTERM (a clean stop), or SIGKILL with `kill`; resolves when the process is gone. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Runs `cca-kit mock` with `args` until it exits (for refusals); resolves its code and output. */
export function runMock(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [`${ROOT}bin/cca-kit.js`, 'mock', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Starts `cca-kit mock --port 0 ...args` and waits for its URL. */
export async function startMock(args: readonly string[]): Promise<MockProcess> {
  const child = spawn(process.execPath, [`${ROOT}bin/cca-kit.js`, 'mock', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock did not start in 20 s:\n${output}`)), 20_000);
    const check = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mock exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    process: child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      child.kill(signal);
      await exited(child);
    },
  };
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  stop(): Promise<void>;
  /** Starts it again on the same port and directory (its append-only file keeps the stream). */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  remove(): Promise<void>;
}

/** Debian's redis-server on a free loopback port, persisting to an append-only file in its own temp dir. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cca-redis-'));
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    const started = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '',
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      started.stdout?.on('data', (c: Buffer) => {
        output += c.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
  };
  await launch();
  const stop = async (): Promise<void> => {
    const running = child;
    if (running === undefined) return;
    child = undefined;
    running.kill('SIGTERM');
    await exited(running);
  };
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    dir,
    stop,
    restart: launch,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RoundRobinProxy {
  readonly url: string;
  /** Which upstream answered each request so far, by index. */
  readonly hits: number[];
  close(): Promise<void>;
}

/** A round-robin HTTP proxy over `upstreams` (each request to the next one), as any balancer would be. */
export async function startRoundRobinProxy(upstreams: () => readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const hits: number[] = [];
  const server: Server = createServer((req, res) => {
    const list = upstreams();
    const index = next++ % list.length;
    hits.push(index);
    const target = new URL(req.url ?? '/', list[index]);
    const forwarded = httpRequest(
      target,
      // A fresh upstream connection per request: no race with a replica closing an idle keep-alive one.
      { method: req.method, headers: { ...req.headers, host: target.host }, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: `proxy: ${error.message}` }));
    });
    req.pipe(forwarded);
  });
  // Longer than clients keep idle connections (undici: 4 s), so a reused connection is never closed under them.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A JSON request to a mock (a replica or the proxy): its status and parsed body. */
export async function json(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
