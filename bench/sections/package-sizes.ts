/**
 * What each kind of user installs, on disk: the packed tarballs installed into fresh projects as a user
 * gets them (test/package/install.ts), and the installed closure of the package they asked for
 * (test/package/closure.ts), msw (the user's own) and @types/node left out:
 *
 * - MSW only: `@cca-kit/core` + msw, for `@cca-kit/core/msw` (target: at most 8 MB);
 * - contract only: `@cca-kit/core` alone, for the contract and its validators;
 * - full CLI: `cca-kit` (mock server, conformance suite, agent interface, CLI).
 *
 * Two figures each: `du -sb node_modules` of the fresh project, the command a user runs to check (msw
 * included where the user installs it; decimal MB, as du's bytes divided by 10^6), and the closure of
 * the package alone. The docs' figures (README.md, docs/install.md, between `<!-- sizes:NAME -->`
 * markers) are rewritten from the first by `writeSizeFigures`, so they are never typed by hand.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedClosure } from '../../test/package/closure.ts';
import { LEAN_CORE, mswVersion, packAndInstall } from '../../test/package/install.ts';

export interface InstallSize {
  readonly use: string;
  readonly install: string;
  readonly totalBytes: number;
  /** `du -sb node_modules` of the fresh project after the install. */
  readonly duBytes: number;
  readonly packages: readonly (readonly [string, number])[];
  /** Packages of the closure that declare an install script (preinstall, install, postinstall). */
  readonly installScripts: readonly string[];
}

export interface PackageSizesResult {
  readonly node: string;
  readonly msw: string;
  readonly sizes: readonly InstallSize[];
}

/** The MSW-only budget, msw excluded. */
const MSW_ONLY_BUDGET = 8 * 1024 * 1024;

async function measure(
  use: string,
  install: string,
  root: string,
  options: Parameters<typeof packAndInstall>[0],
): Promise<InstallSize> {
  // Nothing but what the user asked for in the project, so that du counts what they would count.
  const installed = await packAndInstall({ ...options, withTypes: false });
  try {
    const closure = installedClosure(installed.project, root, ['msw']);
    return {
      use,
      install,
      totalBytes: closure.reduce((sum, p) => sum + p.bytes, 0),
      duBytes: duOf(join(installed.project, 'node_modules')),
      packages: closure.map((p) => [p.name, p.bytes] as const),
      installScripts: closure.filter((p) => p.installScript).map((p) => p.name),
    };
  } finally {
    await installed.remove();
  }
}

export async function packageSizes(options: {
  readonly log: (line: string) => void;
}): Promise<PackageSizesResult> {
  const sizes: InstallSize[] = [];
  for (const [use, install, root, installOptions] of [
    ['MSW only', 'npm i -D @cca-kit/core msw', '@cca-kit/core', { folder: LEAN_CORE }],
    ['contract only', 'npm i @cca-kit/core', '@cca-kit/core', { folder: LEAN_CORE, withMsw: false }],
    ['full CLI', 'npm i -D cca-kit', 'cca-kit', { withMsw: false }],
  ] as const) {
    options.log(`   installing for ${use}`);
    const size = await measure(use, install, root, installOptions);
    options.log(`   ${use}: ${mb(size.totalBytes)} in ${size.packages.length} packages`);
    sizes.push(size);
  }
  return { node: process.versions.node, msw: await mswVersion(), sizes };
}

/** Bytes under `dir` as `du -sb` counts them (apparent sizes, directories included). */
function duOf(dir: string): number {
  const run = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  const bytes = Number(/^(\d+)\s/.exec(run.stdout)?.[1]);
  if (run.status !== 0 || !Number.isFinite(bytes)) throw new Error(`du -sb ${dir} failed: ${run.stderr}`);
  return bytes;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
/** du's bytes in decimal megabytes, as a user divides them. */
const duMb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/** The figures the docs quote, by marker name: `<!-- sizes:NAME -->…<!-- /sizes -->`. */
export function sizeFigures(result: PackageSizesResult): Record<string, string> {
  const du = (use: string): string => {
    const size = result.sizes.find((s) => s.use === use);
    if (size === undefined) throw new Error(`package-sizes measured no ${use}`);
    return duMb(size.duBytes);
  };
  return {
    core: du('contract only'),
    'core-msw': du('MSW only'),
    cli: du('full CLI'),
  };
}

/** The docs that quote the sizes. */
export const SIZE_DOCS = ['README.md', 'docs/install.md'];

/** Rewrites the marked figures of `SIZE_DOCS` under `root`; returns the files changed. */
export function writeSizeFigures(root: string, result: PackageSizesResult): string[] {
  const figures = sizeFigures(result);
  const changed: string[] = [];
  for (const doc of SIZE_DOCS) {
    const file = join(root, doc);
    const before = readFileSync(file, 'utf8');
    const after = before.replace(/<!-- sizes:([a-z-]+) -->[^<]*<!-- \/sizes -->/g, (whole, name: string) =>
      figures[name] === undefined ? whole : `<!-- sizes:${name} -->${figures[name]}<!-- /sizes -->`,
    );
    if (after !== before) {
      writeFileSync(file, after);
      changed.push(doc);
    }
  }
  return changed;
}

/** The section of RESULTS.md. */
export function renderPackageSizes(result: PackageSizesResult, stamp: string): string {
  const row = (size: InstallSize) => {
    const target =
      size.use === 'MSW only'
        ? `≤ 8 MB | ${size.totalBytes <= MSW_ONLY_BUDGET ? 'met' : 'MISSED'}`
        : 'report | ';
    const scripts = size.installScripts.length === 0 ? 'none' : size.installScripts.join(', ');
    return `| ${size.use} | \`${size.install}\` | **${duMb(size.duBytes)}** | ${mb(size.totalBytes)} | ${size.packages.length} | ${scripts} | ${target} |`;
  };
  return [
    '## Installed size per use',
    '',
    stamp,
    '',
    `The packed tarballs installed into fresh projects that hold nothing else (Node ${result.node}, msw ${result.msw}). \`du -sb node_modules\` is what a user measures after that install (msw included where they install it; MB = 10^6 bytes); the closure is the package and everything it brings, msw left out (MB = 2^20 bytes, as before). README.md and docs/install.md quote the du figures, rewritten by this section:`,
    '',
    '| use | install | `du -sb node_modules` | closure | packages | install scripts | target | |',
    '|---|---|---|---|---|---|---|---|',
    ...result.sizes.map(row),
    '',
    ...result.sizes.flatMap((size) => [
      `${size.use}, largest first: ${size.packages
        .slice(0, 8)
        .map(([name, bytes]) => `${name} ${mb(bytes)}`)
        .join(', ')}.`,
      '',
    ]),
    'The lean package carries the same modules as `cca-kit` for its entry points (built from the same sources by scripts/lean-packages.js), with their source maps and the sources inside them; the full install is the CLI with Swagger UI (whose `@scarf/scarf` declares an install-time telemetry script; npm 11 runs none unless allowed), the MCP SDKs with zod, QuickJS, undici and fast-check.',
  ].join('\n');
}
