/**
 * Independent deployments of the REST interface, each written blind from the spec alone (another
 * language, another data model, its own choice at every open point) with deviations planted by its
 * author and switched on one at a time by `DEVIATIONS=<id>`. They are the suite's sparring partners:
 * the suite must pass each one clean, and fail the run on each deviation naming a rule of its section.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEY_ENV, KEY_ROLES, type KeyRole, type Keys } from '../../src/client/types.ts';
import type { ConformanceReport } from '../../src/conformance/kit/report.ts';
import { runConformance } from '../../src/conformance/runner.ts';
import { allLaws } from '../../suites/laws/index.ts';

export interface Deployment {
  /** Folder under test/foreign. */
  readonly name: string;
  /** The program, found when the deployment is started (a pinned Node is fetched on first use). */
  readonly command: () => string;
  /** Arguments, given where the deployment writes its keys (a file of the test's own temp folder). */
  readonly args: (keysFile: string) => readonly string[];
}

export const PYTHON: Deployment = { name: 'py', command: () => 'python3', args: () => ['server.py'] };
/** The second Python deployment: its data in sqlite tables, its own choices. */
export const PYTHON2: Deployment = { name: 'py2', command: () => 'python3', args: () => ['server.py'] };

/**
 * A deployment's program, built once per test process into a folder of its own (and removed at
 * exit): another test process building at the same time cannot pull it from under a running one.
 */
function builtOnce(name: string, build: (out: string) => string): () => string {
  let built: string | undefined;
  return () => {
    if (built === undefined) {
      const out = mkdtempSync(join(tmpdir(), `cca-foreign-${name}-`));
      process.once('exit', () => rmSync(out, { recursive: true, force: true }));
      built = build(out);
    }
    return built;
  };
}

/** The Java deployment's classes, compiled once per test process (a source launch compiles on every start). */
const compiledJava = builtOnce('java-classes', (out) => {
  execFileSync('javac', ['-nowarn', '-d', out, 'Server.java'], { cwd: join(FOREIGN, 'java'), stdio: 'pipe' });
  return out;
});

export const JAVA: Deployment = {
  name: 'java',
  command: () => 'java',
  args: (keysFile) => [`-DkeysFile=${keysFile}`, '-cp', compiledJava(), 'Server'],
};

/** The Go binary (Debian's golang-go; standard library only), its GOCACHE in its own folder too. */
const builtGo = builtOnce('go', (out) => {
  execFileSync('go', ['build', '-o', join(out, 'ccago'), '.'], {
    cwd: join(FOREIGN, 'go'),
    stdio: 'pipe',
    env: { ...process.env, GOCACHE: join(out, 'cache'), GOFLAGS: '-mod=mod', GOPROXY: 'off' },
  });
  return join(out, 'ccago');
});

/** The Go deployment: its own data model in structs and maps, its own choices. */
export const GO: Deployment = { name: 'go', command: () => builtGo(), args: () => [] };

/** The Perl deployment: core modules only, one process with an IO::Select loop, its own choices. */
export const PERL: Deployment = { name: 'perl', command: () => 'perl', args: () => ['server.pl'] };

/** The C++ binary (g++, the standard library and POSIX sockets only), built into a folder of its own. */
const builtCpp = builtOnce('cpp', (out) => {
  const binary = join(out, 'cca-cpp');
  const sources = readdirSync(join(FOREIGN, 'cpp')).filter((f) => f.endsWith('.cpp'));
  execFileSync('g++', ['-O2', '-std=c++17', '-pthread', '-o', binary, ...sources], {
    cwd: join(FOREIGN, 'cpp'),
    stdio: 'pipe',
  });
  return binary;
});

/** The C++ deployment: typed records in vectors per organization with index maps, a thread per connection. */
export const CPP: Deployment = { name: 'cpp', command: () => builtCpp(), args: () => [] };

/** PHP 8.2 CLI, standard library only: one process, a stream_select loop, its own choices. */
export const PHP: Deployment = { name: 'php', command: () => 'php', args: () => ['server.php'] };

/** Python with every record in SQLite tables, reads as SQL queries (test/foreign/sql). */
export const SQL: Deployment = { name: 'sql', command: () => 'python3', args: () => ['server.py'] };

/** Ruby 3.1, standard library only (a fourth round, blind like the others). */
export const RUBY: Deployment = { name: 'ruby', command: () => 'ruby', args: () => ['server.rb'] };

/** The Rust binary (cargo, the standard library only), its target folder its own. */
const builtRust = builtOnce('rust', (out) => {
  execFileSync('cargo', ['build', '--release', '--offline', '--quiet', '--target-dir', out], {
    cwd: join(FOREIGN, 'rust'),
    stdio: 'pipe',
  });
  return join(out, 'release', 'cca-blind2');
});

/** The Rust deployment: a thread per connection, its own JSON and column store, its own choices. */
export const RUST: Deployment = { name: 'rust', command: () => builtRust(), args: () => [] };

/** The folder of a pinned official Node binary (scripts/node-runtime.js fetches it on first use). */
function pinnedNode(major: number): string {
  const script = join(FOREIGN, '..', '..', 'scripts', 'node-runtime.js');
  return execFileSync(process.execPath, [script, String(major)], { encoding: 'utf8' }).trim();
}

/** Node 22 (node:sqlite), whatever Node runs the tests: the pinned official binary. */
export const NODE: Deployment = {
  name: 'node',
  command: () => join(pinnedNode(22), 'node'),
  args: () => ['--no-warnings', 'server.mjs'],
};

export const FOREIGN = join(import.meta.dirname);

export interface Running {
  readonly baseUrl: string;
  readonly keys: Keys;
  stop(): Promise<void>;
}

/** Starts a deployment on an ephemeral loopback port; resolves once it printed its `listening` line. */
export async function start(deployment: Deployment, deviations: string): Promise<Running> {
  const dir = join(FOREIGN, deployment.name);
  const keysFile = join(mkdtempSync(join(tmpdir(), `cca-foreign-${deployment.name}-`)), 'keys.json');
  const child: ChildProcess = spawn(deployment.command(), [...deployment.args(keysFile)], {
    cwd: dir,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '/tmp',
      PORT: '0',
      DEVIATIONS: deviations,
      KEYS_FILE: keysFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${deployment.name} did not start:\n${output}`)), 45_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${deployment.name} exited with ${code}:\n${output}`));
    });
  });
  const byEnv = JSON.parse(readFileSync(keysFile, 'utf8')) as Record<string, string>;
  const keys: Partial<Record<KeyRole, string>> = {};
  for (const role of KEY_ROLES) {
    const value = byEnv[KEY_ENV[role]];
    if (value !== undefined) keys[role] = value;
  }
  return {
    baseUrl,
    keys,
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

/** The REST laws (the agent interface is not part of these deployments), against a running one. */
export async function conform(running: Running, only: readonly string[] = []): Promise<ConformanceReport> {
  return runConformance(
    {
      target: { baseUrl: running.baseUrl, keys: running.keys },
      seed: 7,
      // A targeted run has few laws: more cases each, so a deviation that shows on some records only is met.
      runs: only.length === 0 ? 3 : 8,
      only,
      skip: ['agent'],
      allowWrites: true,
      moderationTimeoutMs: 15_000,
    },
    { laws: allLaws },
  );
}

/** Rule ids the run failed or warned on (a should rule's failure is a warning unless --strict). */
export function failedRules(report: ConformanceReport): string[] {
  return [...new Set(report.laws.flatMap((law) => law.failures.map((failure) => failure.ruleId)))].sort();
}
