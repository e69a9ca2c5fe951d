/**
 * Starting third-party tools (Prism, Spectral, Redocly) from tests: on loopback, on a free
 * ephemeral port, always stopped by the test that started them.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const bin = (name: string): string => `${ROOT}node_modules/.bin/${name}`;

/** A port the kernel just handed out on 127.0.0.1 (for tools that cannot listen on port 0 and report it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a command to completion; never rejects, so tests can assert on the exit code and output. */
export function run(
  command: string,
  args: readonly string[],
  timeoutMs = 120_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Everything a spawned child writes, and its exit code, once it exits (its stdout and stderr must be pipes). */
export function outputOf(
  child: ChildProcess,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Started {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts Prism's mock of a contract and waits until it listens. */
export async function startPrism(contractPath: string, extraArgs: readonly string[] = []): Promise<Started> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      `${ROOT}node_modules/@stoplight/prism-cli/dist/index.js`,
      'mock',
      contractPath,
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      ...extraArgs,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const url = `http://127.0.0.1:${port}`;
  // With -v warn Prism prints nothing when it is ready, so poll until it answers.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Prism did not answer within 90 s:\n${output}`);
    }
    try {
      await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
