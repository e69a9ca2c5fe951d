/**
 * The package as a user gets it: `npm pack` of this repository, then the tarball installed into a fresh
 * project in a temp directory with plain `npm install`. It packs the dist/ that `npm run build` wrote
 * (`npm test` and `npm run bench` build first) with `--ignore-scripts`: building again here would
 * rewrite dist/ under the tests that run the CLI from it in parallel. Shared by the
 * consumer test and the package benchmark. The project's direct dependencies, and cca-kit's own, are
 * pinned (`overrides`) to the versions this repository's package-lock.json resolved; their transitive
 * dependencies come from the npm registry (or npm's cache) as they would for a user. msw is the one a
 * user on this Node gets: msw 3 (`MSW_3`) on Node 22.12 and later, msw 2 (the lock's) on Node 20.
 *
 * Before packing, the entry points are checked as `prepack` does (scripts/check-exports.js), which
 * `--ignore-scripts` skips.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The msw 3 release the consumer projects install on Node 22.12+ (msw 3 needs it; msw 2 runs on 20). */
export const MSW_3 = '3.0.5';

/** Whether this Node runs msw 3 (>= 22.12). */
export function nodeRunsMsw3(version: string = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

/** The lean package the build cuts out of dist/ (scripts/lean-packages.js), as it is packed. */
export const LEAN_CORE = join(ROOT, 'dist-packages/core');

export interface Installed {
  /** The consumer project: `node_modules/cca-kit` is the installed tarball. */
  readonly project: string;
  readonly tarball: string;
  readonly packMs: number;
  readonly installMs: number;
  remove(): Promise<void>;
}

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion (never rejects): its exit code and output. */
export function runIn(
  cwd: string,
  command: string,
  args: readonly string[],
  options: { readonly timeoutMs?: number; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          ...process.env,
          npm_config_update_notifier: 'false',
          npm_config_fund: 'false',
          ...options.env,
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The `npm` on the PATH. */
export const npm = (cwd: string, args: readonly string[], timeoutMs?: number): Promise<CommandResult> =>
  runIn(cwd, 'npm', args, timeoutMs === undefined ? {} : { timeoutMs });

interface Manifest {
  readonly dependencies?: Readonly<Record<string, string>>;
}

/** The version package-lock.json resolved for a top-level package of this repository. */
async function lockedVersions(): Promise<(name: string) => string> {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  return (name) => {
    const version = lock.packages[`node_modules/${name}`]?.version;
    if (version === undefined) throw new Error(`package-lock.json resolves no ${name}`);
    return version;
  };
}

/** The msw a user on this Node gets: `MSW_3` on Node 22.12+, else the msw 2 this repository's lock has. */
export async function mswVersion(): Promise<string> {
  return nodeRunsMsw3() ? MSW_3 : (await lockedVersions())('msw');
}

/**
 * Packs this repository (or the lean package `LEAN_CORE` when `folder` says so) and installs the tarball,
 * with msw and @types/node, into a fresh project. `withMsw: false` leaves msw out (a contract-only user),
 * `withTypes: false` @types/node (a project that has only what the user asked for, to measure).
 */
export async function packAndInstall(
  options: { readonly folder?: string; readonly withMsw?: boolean; readonly withTypes?: boolean } = {},
): Promise<Installed> {
  const folder = options.folder ?? ROOT;
  const dir = await mkdtemp(join(tmpdir(), 'cca-kit-consumer-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    const packStarted = performance.now();
    if (!existsSync(join(ROOT, 'dist/src/cli/main.js')))
      throw new Error('dist/ is missing: run npm run build');
    const { checkExports } = await import('../../scripts/check-exports.js');
    const problems = await checkExports(folder);
    if (problems.length > 0)
      throw new Error(`the package's entry points are broken:\n${problems.join('\n')}`);
    const packed = await npm(
      folder,
      ['pack', '--ignore-scripts', '--json', '--pack-destination', dir],
      180_000,
    );
    if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
    const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [
      { filename: string },
    ];
    const packMs = performance.now() - packStarted;

    const version = await lockedVersions();
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as Manifest & {
      readonly name: string;
    };
    const project = join(dir, 'project');
    await mkdir(project);
    const consumer = {
      name: 'cca-kit-consumer',
      private: true,
      type: 'module',
      dependencies: {
        [manifest.name]: `file:../${filename}`,
        ...(options.withMsw === false ? {} : { msw: await mswVersion() }),
        ...(options.withTypes === false ? {} : { '@types/node': version('@types/node') }),
      },
      overrides: Object.fromEntries(
        Object.keys(manifest.dependencies ?? {}).map((name) => [name, version(name)]),
      ),
    };
    await writeFile(join(project, 'package.json'), `${JSON.stringify(consumer, null, 2)}\n`);
    const installStarted = performance.now();
    const installed = await npm(project, ['install', '--no-audit', '--prefer-offline'], 240_000);
    if (installed.code !== 0) throw new Error(`npm install of the tarball failed:\n${installed.stderr}`);
    return {
      project,
      tarball: join(dir, filename),
      packMs,
      installMs: performance.now() - installStarted,
      remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}
