/**
 * What each kind of user installs, on disk: the packed tarballs installed into fresh projects as a user
 * gets them (test/package/install.ts), and the installed closure of the package they asked for
 * (test/package/closure.ts), msw (the user's own) and @types/node left out:
 *
 * - MSW only: `@cca-kit/core` + msw, for `@cca-kit/core/msw` (target: at most 8 MB);
 * - contract only: `@cca-kit/core` alone, for the contract and its validators;
 * - full CLI: `cca-kit` (mock server, conformance suite, agent interface, CLI).
 */
import { installedClosure } from '../../test/package/closure.ts';
import { LEAN_CORE, mswVersion, packAndInstall } from '../../test/package/install.ts';

export interface InstallSize {
  readonly use: string;
  readonly install: string;
  readonly totalBytes: number;
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
  const installed = await packAndInstall(options);
  try {
    const closure = installedClosure(installed.project, root, ['msw']);
    return {
      use,
      install,
      totalBytes: closure.reduce((sum, p) => sum + p.bytes, 0),
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
    ['full CLI', 'npm i -D cca-kit', 'cca-kit', {}],
  ] as const) {
    options.log(`   installing for ${use}`);
    const size = await measure(use, install, root, installOptions);
    options.log(`   ${use}: ${mb(size.totalBytes)} in ${size.packages.length} packages`);
    sizes.push(size);
  }
  return { node: process.versions.node, msw: await mswVersion(), sizes };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The section of RESULTS.md. */
export function renderPackageSizes(result: PackageSizesResult, stamp: string): string {
  const row = (size: InstallSize) => {
    const target =
      size.use === 'MSW only'
        ? `≤ 8 MB | ${size.totalBytes <= MSW_ONLY_BUDGET ? 'met' : 'MISSED'}`
        : 'report | ';
    const scripts = size.installScripts.length === 0 ? 'none' : size.installScripts.join(', ');
    return `| ${size.use} | \`${size.install}\` | **${mb(size.totalBytes)}** | ${size.packages.length} | ${scripts} | ${target} |`;
  };
  return [
    '## Installed size per use',
    '',
    stamp,
    '',
    `The packed tarballs installed into fresh projects (Node ${result.node}, msw ${result.msw}); what the package asked for and everything it brings, msw (the user's own) and @types/node left out:`,
    '',
    '| use | install | installed | packages | install scripts | target | |',
    '|---|---|---|---|---|---|---|',
    ...result.sizes.map(row),
    '',
    ...result.sizes.flatMap((size) => [
      `${size.use}, largest first: ${size.packages
        .slice(0, 8)
        .map(([name, bytes]) => `${name} ${mb(bytes)}`)
        .join(', ')}.`,
      '',
    ]),
    'The lean package carries the same modules as `cca-kit` for its three entry points (built from the same sources by scripts/lean-packages.js), with their source maps and the sources inside them; the full install is the CLI with Swagger UI (whose `@scarf/scarf` declares an install-time telemetry script; npm 11 runs none unless allowed), the MCP SDKs with zod, QuickJS, undici and fast-check.',
  ].join('\n');
}
