/**
 * The runtime dependencies of the package are exactly what its compiled entry points import: the
 * module graph of dist/ is walked from every `exports` entry and from the CLI (its subcommands are
 * lazy `import()`s, followed too), and the packages it reaches, in JavaScript or in the .d.ts files
 * the entries expose, are compared with package.json's dependencies and peerDependencies. Run after
 * `npm run build` (`npm test` builds first).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/processes.ts';

interface Manifest {
  readonly bin: Readonly<Record<string, string>>;
  readonly exports: Readonly<Record<string, string | { readonly types: string; readonly default: string }>>;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/**
 * `import … from 'x'` and `export … from 'x'` (statements, possibly over several lines), `import 'x'`,
 * `import('x')` (lazy modules, and type references in .d.ts), `.resolve('x/file')` (a file located
 * in a package, as the docs page does with swagger-ui-dist; a bare `.resolve('x')` is how source
 * checkouts find tsx, which the compiled package never reaches), `new URL('./x.js', import.meta.url)` (a
 * module started as a worker thread).
 */
const SPECIFIERS = [
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\.resolve\(\s*['"]([^'"./][^'"]*\/[^'"]+)['"]\s*\)/g,
  /new URL\(\s*['"](\.[^'"]+\.js)['"]\s*,\s*import\.meta\.url\s*\)/g,
];

function specifiersOf(code: string): string[] {
  // Comments (TSDoc examples import 'cca-kit/…' and other packages) are not imports.
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return SPECIFIERS.flatMap((pattern) => [...withoutComments.matchAll(pattern)].map((m) => m[1] ?? ''));
}

const packageName = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const BUILTINS = new Set(builtinModules);
const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || BUILTINS.has(packageName(specifier));

/** The packages a graph of files reaches, following relative imports from the given files. */
function packagesReached(entries: readonly string[], extension: '.js' | '.d.ts'): Map<string, string> {
  const reached = new Map<string, string>();
  const seen = new Set<string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build`);
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        if (target.endsWith('.json')) continue;
        pending.push(extension === '.js' ? target : target.replace(/\.(js|ts)$/, '.d.ts'));
      } else if (!isBuiltin(specifier)) {
        reached.set(packageName(specifier), file.slice(ROOT.length));
      }
    }
  }
  return reached;
}

/**
 * Dependencies declared for work that has not reached an entry point yet, allowed to go unused until
 * it does (none today: `cca-kit drift` and the agent sandbox have landed). Once an entry point imports
 * one, it must leave this list (a test below says so).
 */
const IN_FLIGHT: Readonly<Record<string, string>> = {};

/**
 * Packages the compiled code reaches only in a source checkout, never in the package: a worker thread
 * (the agent sandbox's, the state file's compaction replica) starts from the `.js` beside the module
 * that asks, and only where that is missing (vitest on the sources) finds tsx to run the `.ts`; the dashboard serves its page's compiled `.js`, and only where that is missing transpiles
 * the `.ts` with TypeScript. Each maps the one dist/ file that reaches it to the compiled file whose
 * presence keeps it unreached (the last test checks it is built).
 */
const SOURCE_CHECKOUT_ONLY: Readonly<Record<string, { readonly file: string; readonly compiled: string }>> = {
  tsx: { file: 'dist/mocks/engine/worker-entry.js', compiled: 'dist/mocks/agent/sandbox/worker.js' },
  typescript: {
    file: 'dist/mocks/http/dashboard/assets.js',
    compiled: 'dist/mocks/http/dashboard/page/app.js',
  },
};

const entryFiles = (condition: 'types' | 'default'): string[] =>
  Object.values(manifest.exports).flatMap((target) =>
    typeof target === 'string' ? [] : [join(ROOT, target[condition])],
  );

describe('runtime dependencies = what the compiled entry points import', () => {
  const runtime = packagesReached(
    [
      ...entryFiles('default'),
      join(ROOT, 'dist/src/cli/main.js'),
      join(ROOT, 'dist/src/cli/commands.js'),
      // The CLI's bundle (scripts/build.js `bundleCli`): the same modules, packages kept external
      // (but two dependency-free ajv runtime helpers, bundled).
      join(ROOT, 'dist/cli/main.js'),
    ],
    '.js',
  );
  const types = packagesReached(entryFiles('types'), '.d.ts');
  const declared = new Set([
    ...Object.keys(manifest.dependencies),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);

  it('every package the compiled code or its public types import is a dependency or a peer', () => {
    const undeclared = [...runtime, ...types]
      .filter(
        ([name, file]) =>
          !declared.has(name) && SOURCE_CHECKOUT_ONLY[name]?.file !== file.replace(/\\/g, '/'),
      )
      .map(([n, f]) => `${n} (${f})`);
    expect(undeclared).toEqual([]);
  });

  it('every dependency is imported by a compiled entry point, the CLI or their types', () => {
    const unused = Object.keys(manifest.dependencies).filter(
      (name) => !runtime.has(name) && !types.has(name) && !Object.hasOwn(IN_FLIGHT, name),
    );
    expect(unused).toEqual([]);
  });

  it('no dependency stays listed as in flight once an entry point imports it', () => {
    const landed = Object.keys(IN_FLIGHT).filter((name) => runtime.has(name) || types.has(name));
    expect(landed).toEqual([]);
  });

  it('what keeps a source-checkout-only package unreached is compiled (the sandbox worker, the dashboard page)', () => {
    for (const [name, { file, compiled }] of Object.entries(SOURCE_CHECKOUT_ONLY)) {
      if (runtime.get(name) === file) expect(existsSync(join(ROOT, compiled)), compiled).toBe(true);
    }
  });

  it('tsx, esbuild and the test and build tools are devDependencies only', () => {
    for (const tool of [
      'tsx',
      'esbuild',
      'typescript',
      'vitest',
      'specmatic',
      '@modelcontextprotocol/inspector-cli',
      '@modelcontextprotocol/inspector',
      '@modelcontextprotocol/conformance',
    ]) {
      expect(manifest.dependencies, tool).not.toHaveProperty(tool);
      expect(manifest.devDependencies, tool).toHaveProperty(tool);
    }
  });

  it("the CLI's bundle imports no ajv runtime helper: the precompiled validators' CommonJS is bundled in", () => {
    // Left external, these two files were the only CommonJS `cca-kit mock` loaded before its first
    // answer, and node's CommonJS loader cost a tenth of its start-up.
    const bundle = join(ROOT, 'dist/cli');
    const imported = readdirSync(bundle)
      .filter((name) => name.endsWith('.js'))
      .flatMap((name) => specifiersOf(readFileSync(join(bundle, name), 'utf8')));
    expect(imported).toContain('ajv/dist/2020.js');
    expect(imported.filter((s) => /^ajv(?:-formats)?\/dist\/(?:formats|runtime\/)/.test(s))).toEqual([]);
  });

  it('the CLI runs compiled JavaScript: bin/ loads the bundle built into dist/, with no TypeScript loader', () => {
    for (const bin of Object.values(manifest.bin)) {
      const code = readFileSync(join(ROOT, bin), 'utf8');
      expect(code).toContain('../dist/cli/main.js');
      expect(existsSync(join(ROOT, 'dist/cli/main.js'))).toBe(true);
      expect(specifiersOf(code).filter((s) => !s.startsWith('node:') && !s.startsWith('.'))).toEqual([]);
    }
  });
});
