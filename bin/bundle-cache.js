/**
 * The CLI's prebuilt bundle: `src/cli/main.ts` and everything it imports (dependencies included), built
 * by esbuild into `node_modules/.cache/cca-kit/` and reused while none of its inputs has changed, with
 * the contract's validators compiled ahead of time beside it.
 *
 * Why: through tsx, every start loads tsx's loader (~100 ms) and transpiles the TypeScript module
 * graph (~250 ms); the bundle loads in ~40 ms. There is no build step to remember: CI and users run
 * `npm ci` then `npm start`, and npm runs no install script of ours, so the CLI builds the bundle on
 * the first start and again on the first start after a change (~0.7 s). This file is plain JavaScript
 * because it runs before any TypeScript loader. When anything goes wrong (esbuild missing, a read-only
 * directory, a build error) `loadBundledMain` resolves to undefined and `bin/cca-kit.js` runs the
 * sources through tsx, as before: the bundle only ever makes the CLI faster, never unavailable.
 *
 * The cache directory holds:
 *   manifest.json  the current build, and every input it was built from with its size and mtimeMs
 *   <build id>/    main.js, its chunks and validators/ (one module per validator), written to
 *                  `<build id>.tmp/` then renamed, never changed after
 * A start reads the manifest and stats each input (a few ms); concurrent starts that find no fresh
 * build each build their own directory and the last manifest written wins, so no start ever sees a
 * half-written bundle.
 *
 * Environment:
 *   CCA_KIT_NO_BUNDLE=1      neither use nor build the bundle: run the sources through tsx
 *   CCA_KIT_CACHE_DIR=<dir>  keep the cache in <dir> instead of node_modules/.cache/cca-kit
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The package root (the directory holding package.json), with a trailing separator. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

const ENTRY = 'src/cli/main.ts';
const MANIFEST = 'manifest.json';
/**
 * Inputs esbuild may not report but that change what it builds: this file holds the build options,
 * and the validator generator is listed even when it failed (see `precompiledValidators`).
 */
const EXTRA_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'bin/bundle-cache.js',
  'src/contract/precompile.ts',
];
/** Builds other than the current one are deleted once this old (a start loads all its chunks at once). */
const PRUNE_AFTER_MS = 10 * 60_000;

/** Where the cache lives: `$CCA_KIT_CACHE_DIR`, else `<root>/node_modules/.cache/cca-kit`. */
export function cacheDirectory(env = process.env) {
  const custom = env['CCA_KIT_CACHE_DIR'];
  return custom ? resolve(custom) : join(ROOT, 'node_modules', '.cache', 'cca-kit');
}

/**
 * The bundled CLI's `main`, building the bundle first when it is missing or stale; undefined when
 * the bundle is disabled or cannot be built or loaded (the caller then runs the sources through tsx).
 */
export async function loadBundledMain(env = process.env) {
  const disabled = env['CCA_KIT_NO_BUNDLE'];
  if (disabled !== undefined && disabled !== '' && disabled !== '0') return undefined;
  const cacheDir = cacheDirectory(env);
  let entry;
  try {
    entry = freshEntry(cacheDir) ?? (await build(cacheDir));
  } catch {
    return undefined;
  }
  if (entry === undefined) return undefined;
  try {
    const module = await import(pathToFileURL(entry).href);
    if (typeof module.main === 'function') return module.main;
  } catch {
    // A corrupt build (a chunk deleted by hand): forget it, so the next start builds a new one.
  }
  rmSync(join(cacheDir, MANIFEST), { force: true });
  return undefined;
}

/** The entry file of the current build if every input still has its recorded size and mtime. */
export function freshEntry(cacheDir, root = ROOT) {
  try {
    const manifest = JSON.parse(readFileSync(join(cacheDir, MANIFEST), 'utf8'));
    // The bundle holds absolute paths (see `sourceUrls`), so a moved checkout needs a new one.
    if (manifest.root !== root || changedInput(manifest.inputs, root) !== undefined) return undefined;
    const entry = join(cacheDir, manifest.build, manifest.entry);
    return statSync(entry, { throwIfNoEntry: false }) === undefined ? undefined : entry;
  } catch {
    // No manifest, or not one of ours: build a new one.
    return undefined;
  }
}

/**
 * The first input whose size or mtime differs from the record `[path, size, mtimeMs]` (size -1 for
 * a file that did not exist), or undefined when none does.
 */
export function changedInput(inputs, root = ROOT) {
  for (const [path, size, mtimeMs] of inputs) {
    const stat = statSync(resolve(root, path), { throwIfNoEntry: false });
    if (stat === undefined ? size !== -1 : stat.size !== size || stat.mtimeMs !== mtimeMs) return path;
  }
  return undefined;
}

/** Records the current size and mtime of each input. */
export function recordInputs(paths, root = ROOT) {
  return paths.map((path) => {
    const stat = statSync(resolve(root, path), { throwIfNoEntry: false });
    return stat === undefined ? [path, -1, 0] : [path, stat.size, stat.mtimeMs];
  });
}

/** esbuild from the project, else the copy tsx depends on (present without dev dependencies too). */
function loadEsbuild() {
  const fromRoot = createRequire(join(ROOT, 'package.json'));
  try {
    return fromRoot('esbuild');
  } catch {
    return createRequire(fromRoot.resolve('tsx/package.json'))('esbuild');
  }
}

/** esbuild options of the bundle, and of the validator generator run while building it. */
function commonOptions() {
  return {
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Dependencies are bundled too: one parse instead of resolving and reading ~200 CommonJS files
    // is ~25 ms faster. Those CommonJS modules call `require` for node builtins, which an ES module
    // does not have; this one resolves from the package root, as the unbundled sources would.
    banner: {
      js: `import { createRequire as __ccaKitCreateRequire } from 'node:module';\nconst require = __ccaKitCreateRequire(${JSON.stringify(pathToFileURL(join(ROOT, 'package.json')).href)});`,
    },
    metafile: true,
    logLevel: 'silent',
  };
}

/** Builds the bundle into a new directory, publishes it in the manifest and returns its entry. */
async function build(cacheDir) {
  mkdirSync(cacheDir, { recursive: true });
  const esbuild = loadEsbuild();
  const id = `${Date.now().toString(36)}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const temporary = join(cacheDir, `${id}.tmp`);
  const validators = precompiledValidators(esbuild, join(cacheDir, `${id}.gen.tmp`), temporary);
  const started = Date.now();
  let result;
  try {
    result = await esbuild.build({
      ...commonOptions(),
      entryPoints: { main: ENTRY },
      outdir: temporary,
      // Code splitting keeps `import()` lazy: `cca-kit mock` never loads the conformance suite.
      splitting: true,
      plugins: [validators.plugin, sourceUrls],
    });
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true });
    throw error;
  } finally {
    await esbuild.stop?.();
  }
  const final = join(cacheDir, id);
  renameSync(temporary, final);
  const inputs = recordInputs(inputsOf(result.metafile, validators.generatorMetafile()));
  // A file saved while esbuild was reading it may be in the bundle in either version: use this build
  // for this start, but do not publish it.
  if (inputs.every(([, , mtimeMs]) => mtimeMs < started)) {
    const manifest = { root: ROOT, build: id, entry: 'main.js', inputs };
    const temporaryManifest = join(cacheDir, `${MANIFEST}.${id}.tmp`);
    writeFileSync(temporaryManifest, `${JSON.stringify(manifest)}\n`);
    renameSync(temporaryManifest, join(cacheDir, MANIFEST));
  }
  prune(cacheDir, id);
  return join(final, 'main.js');
}

/**
 * What the freshness check stats: each project file of the bundle, the package.json of each bundled
 * dependency instead of its ~200 files (a reinstall or an upgrade rewrites it, even without a
 * lockfile), and `EXTRA_INPUTS`.
 */
function inputsOf(...metafiles) {
  const paths = new Set(EXTRA_INPUTS);
  const fromRoot = (absolute) => relative(ROOT, absolute).split(sep).join('/');
  for (const input of metafiles.flatMap((metafile) => Object.keys(metafile?.inputs ?? {}))) {
    const absolute = resolve(ROOT, input);
    const path = fromRoot(absolute);
    const inProject = !path.startsWith('../') && !isAbsolute(path) && !path.startsWith('node_modules/');
    const packageJson = inProject ? undefined : packageJsonOf(absolute);
    paths.add(packageJson === undefined ? path : fromRoot(packageJson));
  }
  return [...paths];
}

/** `/x/node_modules/@scope/name/lib/a.js` → `/x/node_modules/@scope/name/package.json`. */
function packageJsonOf(file) {
  const marker = `${sep}node_modules${sep}`;
  const at = file.lastIndexOf(marker);
  if (at === -1) return undefined;
  const [first = '', second = ''] = file.slice(at + marker.length).split(sep);
  const name = first.startsWith('@') ? join(first, second) : first;
  return join(file.slice(0, at + marker.length), name, 'package.json');
}

/** Deletes builds and temporary files, other than the current and the just-built one, once old. */
function prune(cacheDir, keep) {
  let current;
  try {
    current = JSON.parse(readFileSync(join(cacheDir, MANIFEST), 'utf8')).build;
  } catch {
    current = undefined;
  }
  for (const name of readdirSync(cacheDir)) {
    if (name === MANIFEST || name === keep || name === current) continue;
    const path = join(cacheDir, name);
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat !== undefined && Date.now() - stat.mtimeMs > PRUNE_AFTER_MS) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

/**
 * Keeps `import.meta.url` meaning the source file, as under tsx: a module that resolves something
 * relative to itself (`mocks/http/docs-assets.ts` finds swagger-ui-dist with
 * `createRequire(import.meta.url)`) works from any cache directory. A textual replacement, which is
 * enough for the few files that mention it.
 */
const sourceUrls = {
  name: 'cca-kit-source-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const url = JSON.stringify(pathToFileURL(args.path).href);
      return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

/**
 * Validators compiled ahead of time (src/contract/precompile.ts) for contract/openapi.json: ~20 ms of
 * ajv less at start-up and at the first request to each operation. The generator is TypeScript, so it
 * is bundled into `workDir` and run here; it writes one module per validator into
 * `<outdir>/validators/`, and src/contract/precompiled.ts becomes a module that loads each one at
 * first use. Should any of that fail, precompiled.ts stays as written: validators compile at first use.
 */
function precompiledValidators(esbuild, workDir, outdir) {
  const target = join(ROOT, 'src', 'contract', 'precompiled.ts');
  let generatorMetafile;
  const generate = async () => {
    try {
      const result = await esbuild.build({
        ...commonOptions(),
        entryPoints: { precompile: 'src/contract/precompile.ts' },
        outdir: workDir,
        plugins: [sourceUrls],
      });
      const generator = await import(pathToFileURL(join(workDir, 'precompile.js')).href);
      const files = {};
      mkdirSync(join(outdir, 'validators'), { recursive: true });
      for (const [key, code] of generator.precompiledValidatorModules()) {
        files[key] = `${Object.keys(files).length}.cjs`;
        writeFileSync(join(outdir, 'validators', files[key]), code);
      }
      generatorMetafile = result.metafile;
      return files;
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  };
  const plugin = {
    name: 'cca-kit-precompiled-validators',
    setup(builder) {
      builder.onLoad({ filter: /precompiled\.ts$/ }, async (args) => {
        if (args.path !== target) return undefined;
        try {
          return { contents: precompiledModule(await generate()), loader: 'js' };
        } catch {
          return undefined;
        }
      });
    },
  };
  return { plugin, generatorMetafile: () => generatorMetafile };
}

/**
 * What replaces src/contract/precompiled.ts in the bundle: a lookup that reads a validator's module
 * from `validators/` beside the bundle's chunks and evaluates it, giving it ajv's runtime helpers
 * (bundled: the modules' own `require` would resolve from the cache directory). Any failure is a
 * miss, and that validator compiles as usual.
 */
function precompiledModule(files) {
  return `import { readFileSync } from 'node:fs';
const files = ${JSON.stringify(files)};
const directory = new URL('./validators/', import.meta.url);
const runtime = (id) => {
  switch (id) {
    case 'ajv/dist/runtime/equal': return require('ajv/dist/runtime/equal');
    case 'ajv/dist/runtime/ucs2length': return require('ajv/dist/runtime/ucs2length');
    case 'ajv/dist/runtime/uri': return require('ajv/dist/runtime/uri');
    case 'ajv/dist/runtime/validation_error': return require('ajv/dist/runtime/validation_error');
    case 'ajv-formats/dist/formats': return require('ajv-formats/dist/formats');
    default: throw new Error(\`precompiled validator requires \${id}\`);
  }
};
export const precompiledValidators = (key) => {
  if (!Object.hasOwn(files, key)) return undefined;
  try {
    const module = { exports: {} };
    const code = readFileSync(new URL(files[key], directory), 'utf8');
    new Function('module', 'exports', 'require', code)(module, module.exports, runtime);
    return typeof module.exports === 'function' ? module.exports : undefined;
  } catch {
    return undefined;
  }
};
`;
}
