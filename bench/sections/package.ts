/**
 * The npm package as a user gets it (the tarball installed into a fresh project, test/package/install.ts):
 * how long plain node takes to import `cca-kit/msw` and create the handlers, how long the installed
 * `cca-kit mock` takes from spawn to its first 200, how much a browser bundle of `cca-kit/msw` +
 * `msw/browser` weighs, and how much disk cca-kit and its runtime dependencies take once installed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { packAndInstall, ROOT, runIn } from '../../test/package/install.ts';
import { freePort } from '../../test/support/processes.ts';
import { bundlePage } from '../lib/page-bundle.ts';

export interface PackageResult {
  readonly runs: number;
  readonly packSeconds: number;
  readonly installSeconds: number;
  readonly tarballBytes: number;
  /** In-process: `await import('cca-kit/msw')` then `createHandlers()`, ms, one fresh node per run. */
  readonly mswImportMs: Summary;
  /** The CPU time (user + system) of the same, less sensitive than the wall time to a loaded machine. */
  readonly mswImportCpuMs: Summary;
  /** `node node_modules/.bin/cca-kit mock` spawned, to the first 200 of a list request, ms. */
  readonly mockFirst200Ms: Summary;
  /** The same through `npx cca-kit mock`. */
  readonly mockFirst200NpxMs: Summary;
  readonly browser: {
    readonly minifiedBytes: number;
    readonly gzipBytes: number;
    /** `msw/browser` with one handler and nothing of cca-kit: the floor of any such bundle. */
    readonly mswAloneGzipBytes: number;
    /** The same page with `use: allFeatures` (`cca-kit/msw/features`): everything the node mock has. */
    readonly allFeaturesGzipBytes: number;
    readonly largestInputs: readonly (readonly [string, number])[];
  };
  readonly installed: {
    readonly totalBytes: number;
    readonly packages: readonly (readonly [string, number])[];
  };
}

export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

const summary = (values: readonly number[]): Summary => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? 0, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 };
};

/** Prints the wall and the CPU (user + system) milliseconds of the import and the call. */
const MSW_IMPORT = `const started = performance.now();
const cpu = process.cpuUsage();
const { createHandlers } = await import('cca-kit/msw');
createHandlers({ baseUrl: 'https://api.example.test' });
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify([performance.now() - started, (used.user + used.system) / 1000]));
`;

/** Spawns the mock (bin script or npx) and polls a list request until it answers 200. */
async function spawnToFirst200(project: string, viaNpx: boolean, key: string): Promise<number> {
  const port = await freePort();
  const args = ['mock', '--port', String(port), '--seed', '42'];
  const started = performance.now();
  const child: ChildProcess = viaNpx
    ? spawn('npx', ['--no-install', 'cca-kit', ...args], { cwd: project, stdio: 'ignore', detached: true })
    : spawn(process.execPath, [join(project, 'node_modules/.bin/cca-kit'), ...args], {
        cwd: project,
        stdio: 'ignore',
        detached: true,
      });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const deadline = started + 30_000;
    for (;;) {
      if (performance.now() > deadline) throw new Error('cca-kit mock did not answer within 30 s');
      try {
        const answer = await fetch(`http://127.0.0.1:${port}/v0/action/list?pageSize=1`, {
          headers: { 'x-api-key': key },
        });
        if (answer.status === 200) return performance.now() - started;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

/** Bytes of every file under a directory. */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** cca-kit and the closure of its dependencies (not its optional peer msw), as npm laid them out. */
function installedClosure(project: string): [string, number][] {
  const modules = join(project, 'node_modules');
  const sizes = new Map<string, number>();
  const pending = ['cca-kit'];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (sizes.has(name)) continue;
    const dir = join(modules, name);
    let manifest: { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    try {
      manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    } catch {
      continue; // An optional dependency for another platform.
    }
    sizes.set(name, sizeOf(dir));
    pending.push(
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
    );
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

async function browserBundle(project: string): Promise<PackageResult['browser']> {
  const page = join(project, 'bench-page.js');
  writeFileSync(
    page,
    "import { createHandlers } from 'cca-kit/msw';\nimport { setupWorker } from 'msw/browser';\n" +
      "await setupWorker(...createHandlers({ baseUrl: '/api' }).handlers).start();\n",
  );
  const everything = join(project, 'bench-page-all-features.js');
  writeFileSync(
    everything,
    "import { createHandlers } from 'cca-kit/msw';\nimport { allFeatures } from 'cca-kit/msw/features';\n" +
      "import { setupWorker } from 'msw/browser';\n" +
      "await setupWorker(...createHandlers({ baseUrl: '/api', use: allFeatures }).handlers).start();\n",
  );
  const alone = join(project, 'bench-msw-alone.js');
  writeFileSync(
    alone,
    "import { http } from 'msw';\nimport { setupWorker } from 'msw/browser';\n" +
      "await setupWorker(http.all('/api/*', () => new Response('{}'))).start();\n",
  );
  const bundle = (entry: string) => bundlePage(entry, project);
  const [full, mswOnly, withAll] = await Promise.all([bundle(page), bundle(alone), bundle(everything)]);
  const code = full.outputFiles[0]?.contents ?? new Uint8Array();
  const byPackage = new Map<string, number>();
  for (const output of Object.values(full.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = input.includes('node_modules/cca-kit/')
        ? `cca-kit/${input.split('node_modules/cca-kit/')[1]?.split('/').slice(0, 3).join('/')}`
        : (/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input);
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  return {
    minifiedBytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    mswAloneGzipBytes: gzipSync(mswOnly.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length,
    allFeaturesGzipBytes: gzipSync(withAll.outputFiles[0]?.contents ?? new Uint8Array(), { level: 9 }).length,
    largestInputs: [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 10),
  };
}

export async function packageSection(options: {
  readonly runs: number;
  readonly log: (line: string) => void;
}): Promise<PackageResult> {
  const { runs, log } = options;
  log('   packing and installing the tarball into a fresh project');
  const installed = await packAndInstall();
  try {
    const { project } = installed;
    writeFileSync(join(project, 'msw-import.mjs'), MSW_IMPORT);
    const keys = JSON.parse(readFileSync(join(ROOT, 'fixtures/keys.json'), 'utf8')) as {
      key: string;
      profile: string;
      status: string;
    }[];
    const key = keys.find((k) => k.profile === 'reporting' && k.status === 'active')?.key ?? '';

    const importMs: number[] = [];
    const importCpuMs: number[] = [];
    const binMs: number[] = [];
    const npxMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const result = await runIn(project, process.execPath, ['msw-import.mjs']);
      if (result.code !== 0) throw new Error(`importing cca-kit/msw failed:\n${result.stderr}`);
      const [wall, cpu] = JSON.parse(result.stdout) as [number, number];
      importMs.push(wall);
      importCpuMs.push(cpu);
      binMs.push(await spawnToFirst200(project, false, key));
      npxMs.push(await spawnToFirst200(project, true, key));
    }
    log(`   import+createHandlers median ${summary(importMs).median.toFixed(0)} ms`);
    log(
      `   mock spawn → first 200 median ${summary(binMs).median.toFixed(0)} ms (npx ${summary(npxMs).median.toFixed(0)} ms)`,
    );
    const browser = await browserBundle(project);
    log(`   browser bundle ${(browser.gzipBytes / 1024).toFixed(0)} KB gzip`);
    const packages = installedClosure(project);
    return {
      runs,
      packSeconds: installed.packMs / 1000,
      installSeconds: installed.installMs / 1000,
      tarballBytes: statSync(installed.tarball).size,
      mswImportMs: summary(importMs),
      mswImportCpuMs: summary(importCpuMs),
      mockFirst200Ms: summary(binMs),
      mockFirst200NpxMs: summary(npxMs),
      browser,
      installed: { totalBytes: packages.reduce((sum, [, size]) => sum + size, 0), packages },
    };
  } finally {
    await installed.remove();
  }
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (s: Summary): string =>
  `**${s.median.toFixed(0)} ms** (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)})`;

/** The section of RESULTS.md. */
export function renderPackage(result: PackageResult, stamp: string): string {
  const verdict = (value: number, target: number) => (value <= target ? 'met' : 'MISSED');
  return [
    '## The npm package',
    '',
    stamp,
    '',
    `The tarball (\`npm pack\`, ${kb(result.tarballBytes)}; pack with the build ${result.packSeconds.toFixed(1)} s) installed into a fresh project (${result.installSeconds.toFixed(1)} s), measured there, ${result.runs} fresh processes each:`,
    '',
    '| what | measured | target | |',
    '|---|---|---|---|',
    `| \`await import('cca-kit/msw')\` + \`createHandlers()\`, plain node | ${ms(result.mswImportMs)} wall, ${ms(result.mswImportCpuMs)} CPU | ≤ 150 ms | ${verdict(result.mswImportMs.median, 150)} |`,
    `| \`cca-kit mock\` spawn → first 200, the installed bin script (\`node node_modules/.bin/cca-kit mock\`) | ${ms(result.mockFirst200Ms)} | ≤ 150 ms | ${verdict(result.mockFirst200Ms.median, 150)} |`,
    `| the same through \`npx cca-kit mock\` | ${ms(result.mockFirst200NpxMs)} | | |`,
    `| browser bundle of \`cca-kit/msw\` + \`msw/browser\`, esbuild minified, gzip -9 | **${kb(result.browser.gzipBytes)}** (${kb(result.browser.minifiedBytes)} minified); \`msw/browser\` alone: ${kb(result.browser.mswAloneGzipBytes)} | ≤ 150 KB | ${verdict(result.browser.gzipBytes, 150 * 1024)} |`,
    `| cca-kit's share of it (the page minus \`msw/browser\` alone) | **${kb(result.browser.gzipBytes - result.browser.mswAloneGzipBytes)}** | about 56 KB | |`,
    `| the same page with \`use: allFeatures\` (\`cca-kit/msw/features\`) | ${kb(result.browser.allFeaturesGzipBytes)}, share ${kb(result.browser.allFeaturesGzipBytes - result.browser.mswAloneGzipBytes)} | report | |`,
    `| installed size of cca-kit and its runtime dependencies | **${mb(result.installed.totalBytes)}** | report | |`,
    '',
    `Largest parts of the browser bundle (minified bytes): ${result.browser.largestInputs.map(([name, size]) => `${name} ${kb(size)}`).join(', ')}.`,
    '',
    `Installed, largest first: ${result.installed.packages
      .slice(0, 12)
      .map(([name, size]) => `${name} ${mb(size)}`)
      .join(', ')}; ${result.installed.packages.length} packages in all.`,
  ].join('\n');
}
