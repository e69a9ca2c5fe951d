/**
 * The package build: `tsc -p tsconfig.build.json` compiles src/, mocks/, fixtures/ and suites/ to
 * dist/ (ESM, .d.ts, source maps; JSON imported by the code is copied beside it), then this script
 * replaces dist/src/contract/precompiled.js with the contract's validators compiled ahead of time, and
 * writes the browser variants the package.json `browser` field points at (see `PRECOMPILED_BROWSER`).
 *
 * Why ahead of time: ajv compiles a validator by generating JavaScript and evaluating it with
 * `new Function`, which a page whose Content-Security-Policy forbids `unsafe-eval` refuses, and which
 * costs ~20 ms of every start. The generated module is plain code (ajv's standalone output for every
 * validator key, one module, each shared function emitted once), so the compiled entry points never
 * evaluate generated code, in node or in a browser.
 *
 * Plain JavaScript on purpose: it runs with nothing but node and the freshly compiled dist/.
 *
 * It writes dist/ atomically (see `STAGE_PREFIX`), refuses a dist/ whose `exports` do not all resolve to
 * non-empty modules (scripts/check-exports.js), then generates the lean packages (scripts/lean-packages.js).
 *
 * Usage: node scripts/build.js   (npm run build; `npm test` and `npm run bench` run it first; no install
 * script does: a packed cca-kit runs nothing on install, and a checkout builds when asked)
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkExports } from './check-exports.js';
import { writeLeanPackages } from './lean-packages.js';
import { staleFiles } from './stale-files.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/**
 * The build writes into a staging folder beside dist/ (the same depth, so the source maps' relative
 * paths hold) and renames it to dist/ once everything is written and checked (`swapIn`): a CLI started,
 * a test run or an `npm pack` meanwhile reads the previous dist/ or the new one, never half of one. Two
 * builds at once each stage their own folder; the last to finish wins.
 */
const STAGE_PREFIX = '.dist-build-';
const FINAL = `${ROOT}dist/`;
const DIST = `${ROOT}${STAGE_PREFIX}${process.pid}/`;
const PRECOMPILED = `${DIST}src/contract/precompiled.js`;
/**
 * What a browser bundle gets instead (package.json `browser` field): no generated code at all. ajv's
 * standalone code for the request path alone was ~18 KB of a page's gzip; the browser build compiles the
 * contract's schemas into closures at first use instead (src/contract/schema-closures/: ajv's errors,
 * no `new Function`), from the document the engine carries anyway.
 */
const PRECOMPILED_BROWSER = `${DIST}src/contract/precompiled.browser.js`;
/**
 * The browser build's contract loader (package.json `browser` field): the same module as load.js, reading
 * the contract without its prose (src/contract/lean-document.ts), which is most of the document's bytes.
 */
const LOAD = `${DIST}src/contract/load.js`;
const LOAD_BROWSER = `${DIST}src/contract/load.browser.js`;
const LEAN_CONTRACT = 'openapi.browser.json';
/**
 * msw's `http` for node (see mocks/msw/http.ts): the compiled module imports msw's root, which bundlers
 * tree-shake and the `browser` field keeps (as http.browser.js); node gets the version's lean path.
 */
const MSW_HTTP = `${DIST}mocks/msw/http.js`;
const MSW_HTTP_BROWSER = `${DIST}mocks/msw/http.browser.js`;
/** The precompiled validators' runtime imports (see `writePrecompiledValidators`) that the CLI bundles. */
const AJV_RUNTIME_HELPERS = /^(?:ajv-formats\/dist\/formats|ajv\/dist\/runtime\/ucs2length)\.js$/;

/** The CLI's bundle (see `bundleCli`), what bin/cca-kit.js runs. */
const CLI_BUNDLE = `${DIST}cli`;
/** The source folders compiled to dist/, as in tsconfig.build.json. */
const SOURCE_FOLDERS = ['src', 'mocks', 'fixtures', 'suites'];
/** Files the code reads at run time but does not import (tsc copies only imported JSON). */
const isAsset = (path) => !/\.(ts|tsx|mts|cts)$/.test(path) && !/(^|\/)biome\.json$/.test(path);

removeAbandonedStages();
try {
  compile();
  copyAssets();
  await writeLeanContract();
  const validators = await validatorSchemasOfContract();
  writePrecompiledValidators(
    PRECOMPILED,
    generateValidatorModule(validators),
    "export { loadAjv } from './ajv-load.js';",
  );
  writeAtomically(PRECOMPILED_BROWSER, closureLoader());
  writeMswHttp();
  await bundleCli();
  pruneStale();
  const problems = await checkExports(ROOT, DIST);
  if (problems.length > 0) {
    process.stderr.write(
      `build: the staged dist/ is broken, dist/ left as it was:\n  ${problems.join('\n  ')}\n`,
    );
    process.exit(1);
  }
  await writeLeanPackages(ROOT, DIST);
  swapIn();
} finally {
  rmSync(DIST, { recursive: true, force: true });
}

/** Replaces dist/ with the staged folder: two renames, the old dist/ deleted after. */
function swapIn() {
  const old = `${ROOT}${STAGE_PREFIX}old-${process.pid}`;
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(FINAL, old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    try {
      renameSync(DIST, FINAL);
      break;
    } catch (error) {
      // Another build renamed its own stage in between: move that one aside too, and retry.
      if ((error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') || attempt > 10) throw error;
    }
  }
  rmSync(old, { recursive: true, force: true });
}

/** Staging folders of builds that were killed (their process is gone). */
function removeAbandonedStages() {
  for (const name of readdirSync(ROOT)) {
    if (!name.startsWith(STAGE_PREFIX)) continue;
    const pid = Number(/(\d+)$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && isRunning(pid)) continue;
    rmSync(`${ROOT}${name}`, { recursive: true, force: true });
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * msw 3 exports its \`http\` namespace at \`msw/http\`, msw 2 at \`msw/core/http\`; both roots export it
 * too, but msw 2's root loads GraphQL as well. Node gets the lean path of whichever msw is installed;
 * the browser field hands bundlers the root import tsc compiled (tree-shaken there).
 */
function writeMswHttp() {
  const compiled = readFileSync(MSW_HTTP, 'utf8');
  if (!/export \{ http \} from 'msw';/.test(compiled)) {
    process.stderr.write(`build: ${MSW_HTTP} no longer re-exports msw's http; update writeMswHttp\n`);
    process.exit(1);
  }
  writeAtomically(MSW_HTTP_BROWSER, compiled.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
  writeAtomically(
    MSW_HTTP,
    `// Generated by scripts/build.js: msw's http namespace from the installed msw's lean path (mocks/msw/http.ts).
// The paths are variables so that a transform inlining this module (Vite SSR, vitest) leaves the choice to
// the runtime, which knows which msw is installed, instead of failing on the one that is not.
import { readFileSync } from 'node:fs';
const MSW_3 = 'msw/http';
const MSW_2 = 'msw/core/http';
let loaded;
try {
  loaded = await import(/* @vite-ignore */ MSW_3);
} catch (error) {
  // Node says so with a code; a Vite SSR / vitest run that inlines this module, in words.
  const notExported = error?.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || /is not exported/.test(String(error?.message));
  if (!notExported) throw missingMsw(error);
  loaded = await import(/* @vite-ignore */ MSW_2).catch((cause) => { throw missingMsw(cause); });
}
// The package the user installed (cca-kit, @cca-kit/core, or whatever name it was published or linked
// under): the name in the package.json three folders up (this file is dist/mocks/msw/http.js), when
// that package exports ./msw; a bundle that moved this code elsewhere says cca-kit.
function installedAs() {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    if (typeof manifest.name === 'string' && manifest.exports?.['./msw'] !== undefined) return manifest.name;
  } catch {}
  return 'cca-kit';
}
function missingMsw(cause) {
  if (cause?.code !== 'ERR_MODULE_NOT_FOUND' || !String(cause.message).includes("'msw'")) return cause;
  return new Error(\`\${installedAs()}/msw needs msw 2 or 3, your project's own: npm install --save-dev msw\`, { cause });
}
export const http = loaded.http;
`,
  );
  rmSync(`${MSW_HTTP}.map`, { force: true });
}

/**
 * The CLI as one bundle with split chunks (dist/cli/, bin/cca-kit.js runs dist/cli/main.js): node loads
 * ~150 modules of dist/ one by one for `cca-kit mock`, and that alone was ~40 ms of its spawn to first
 * 200. Built here, at build time, never on the user's machine; packages stay external (the runtime
 * dependencies), so the bundle holds only cca-kit's own code (and two ajv runtime helpers, see below). Lazily loaded parts (the agent side, the
 * other subcommands) stay lazy as chunks, and every module of one CLI process is loaded once, so
 * module-level registries are shared as in dist/. The library entry points are not bundled: see
 * bench/RESULTS.md, "The npm package".
 *
 * Modules that find files next to themselves (`new URL('./worker.js', import.meta.url)`, the skills'
 * playbooks, the agent guide, `createRequire`) get their own location back: each `import.meta.url` of a
 * bundled module becomes that module's URL in dist/, computed from the chunk's.
 */
async function bundleCli() {
  const { build } = createRequire(`${ROOT}package.json`)('esbuild');
  rmSync(CLI_BUNDLE, { recursive: true, force: true });
  const ownLocation = {
    name: 'own-import-meta-url',
    setup(builder) {
      builder.onLoad({ filter: /\.js$/ }, (args) => {
        const contents = readFileSync(args.path, 'utf8');
        if (!contents.includes('import.meta.url')) return undefined;
        const fromChunk = relative(CLI_BUNDLE, args.path).split(sep).join('/');
        const own = `new URL(${JSON.stringify(fromChunk)}, import.meta.url).href`;
        return { contents: contents.replaceAll('import.meta.url', own), loader: 'js' };
      });
    },
  };
  // The one exception to external packages: the two ajv runtime helpers the precompiled validators
  // import (ajv-formats' formats, ajv's ucs2length), 13 KB of dependency-free CommonJS. Left external,
  // they are the only CommonJS `cca-kit mock` loads before its first answer, and node's CommonJS loader
  // and its export lexer then cost ~65 M instructions of every start (~13 % of it); bundled, esbuild
  // wraps them as plain functions. What they export is unchanged (the installed ajv's own files).
  const bundledRuntimeHelpers = {
    name: 'bundled-ajv-runtime-helpers',
    setup(builder) {
      builder.onResolve({ filter: AJV_RUNTIME_HELPERS }, (args) => ({
        path: createRequire(`${ROOT}package.json`).resolve(args.path),
        external: false,
      }));
    },
  };
  await build({
    entryPoints: [`${DIST}src/cli/main.js`],
    outdir: CLI_BUNDLE,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [ownLocation, bundledRuntimeHelpers],
    logLevel: 'warning',
  });
}

/** Deletes what no source produces any more (a module deleted or moved), so that `npm pack` never ships it. */
function pruneStale() {
  const generated = new Set(
    [
      PRECOMPILED_BROWSER,
      LOAD_BROWSER,
      MSW_HTTP_BROWSER,
      `${DIST}contract/${LEAN_CONTRACT}`,
      `${CLI_BUNDLE}/`,
    ].map((path) => path.slice(DIST.length)),
  );
  const files = readdirSync(DIST, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(DIST, join(entry.parentPath, entry.name)).split(sep).join('/'));
  const stale = staleFiles(files, (path) => existsSync(`${ROOT}${path}`), generated);
  for (const path of stale) rmSync(`${DIST}${path}`);
  if (stale.length > 0)
    process.stdout.write(`build: removed ${stale.length} stale file(s) from dist/: ${stale.join(', ')}\n`);
}

/**
 * Writes dist/contract/openapi.browser.json (the contract without prose) and load.browser.js, the loader
 * that imports it; the `browser` field of package.json maps load.js to it.
 */
async function writeLeanContract() {
  const { leanDocument } = await import(pathToFileURL(`${DIST}src/contract/lean-document.js`).href);
  const full = JSON.parse(readFileSync(`${DIST}contract/openapi.json`, 'utf8'));
  writeAtomically(`${DIST}contract/${LEAN_CONTRACT}`, JSON.stringify(leanDocument(full)));
  const loader = readFileSync(LOAD, 'utf8');
  const browserLoader = loader.replace("'../../contract/openapi.json'", `'../../contract/${LEAN_CONTRACT}'`);
  if (browserLoader === loader) {
    process.stderr.write(
      `build: ${LOAD} no longer imports ../../contract/openapi.json; update writeLeanContract\n`,
    );
    process.exit(1);
  }
  writeAtomically(LOAD_BROWSER, browserLoader.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
}

/** Written beside and renamed, so that a CLI starting meanwhile never reads half a file. */
function writeAtomically(path, text) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/**
 * Copies every file of the source folders that is not TypeScript (the agent's skill playbooks: Markdown,
 * JSON, the scripts they run) to the same place under dist/, where the compiled modules look for them.
 */
function copyAssets() {
  for (const folder of SOURCE_FOLDERS) {
    cpSync(`${ROOT}${folder}`, `${DIST}${folder}`, {
      recursive: true,
      filter: (source) => statSync(source).isDirectory() || isAsset(source),
    });
  }
}

/**
 * Runs the TypeScript compiler; exits with its status when it wrote nothing. Type errors with output
 * written (tsc's status 2) are reported but do not stop the build: `npm run typecheck` is where they
 * fail, and a checkout with one bad type should still get a working CLI from `npm ci`.
 */
function compile() {
  const tsc = createRequire(`${ROOT}package.json`).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', `${ROOT}tsconfig.build.json`, '--outDir', DIST], {
    stdio: 'inherit',
  });
  if (result.status === 2) {
    process.stderr.write('build: tsc reported type errors (above); dist/ was written all the same\n');
  } else if (result.status !== 0) {
    process.stderr.write('build: tsc -p tsconfig.build.json failed\n');
    process.exit(result.status ?? 1);
  }
}

/** Every validator of contract/openapi.json, from the dist/ modules just built: key, schema, ajv. */
async function validatorSchemasOfContract() {
  const load = (path) => import(pathToFileURL(`${DIST}${path}`).href);
  const { contractDocument } = await load('src/contract/load.js');
  const { buildOperationTable } = await load('src/contract/operations.js');
  const schemas = await load('src/contract/validator-schemas.js');
  const all = [...schemas.validatorSchemas(contractDocument, buildOperationTable(contractDocument))];
  return { document: contractDocument, all, schemas };
}

/**
 * One ES module of every validator, compiled with the same ajv configuration as at run time,
 * and the export name of each key.
 */
function generateValidatorModule({ document, all, schemas }) {
  const standalone = createRequire(`${ROOT}package.json`)('ajv/dist/standalone/index.js').default;
  const ajv = schemas.createAjv(document, { source: true, esm: true });
  // Each validator is registered under an id so that one standalone module can export them all.
  const exportsByKey = new Map();
  const idsByExport = {};
  for (const [key, schema] of all) {
    const name = `v${exportsByKey.size}`;
    let id = schemas.componentIdOf(schema);
    if (id === undefined) {
      id = `https://cca-kit.invalid/validators/${name}`;
      ajv.addSchema(typeof schema === 'boolean' ? schema : schemas.rewriteRefs(schema), id);
    }
    exportsByKey.set(key, name);
    idsByExport[name] = id;
  }
  const code = standalone(ajv, idsByExport);
  return { code: withoutRepeatedDeclarations(code), exportsByKey };
}

/**
 * ajv's multi-export standalone code emits a validate function again for every export that reaches it
 * (ajv 8.x marks it started, never completed), which an ES module rejects as a duplicate declaration.
 * Every name in one ajv scope stands for one definition, so each top-level declaration is kept once:
 * the statements are split with TypeScript's parser, which tolerates the duplicates.
 */
function withoutRepeatedDeclarations(code) {
  const ts = createRequire(`${ROOT}package.json`)('typescript');
  const source = ts.createSourceFile('validators.js', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);
  const seen = new Set();
  const kept = [];
  for (const statement of source.statements) {
    const names = declaredNames(ts, statement);
    if (names.length > 0 && names.every((name) => seen.has(name))) continue;
    for (const name of names) seen.add(name);
    kept.push(code.slice(statement.getStart(source), statement.end));
  }
  return kept.join('\n');
}

function declaredNames(ts, statement) {
  if (ts.isFunctionDeclaration(statement) && statement.name) return [statement.name.text];
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) =>
      ts.isIdentifier(d.name) ? [d.name.text] : [],
    );
  }
  return [];
}

/**
 * Writes the module: ajv's `require(...)` of its runtime helpers becomes an import (the file is an ES
 * module; `.js` so that node resolves the path inside packages without an exports map), and a lookup
 * by validator key replaces the "none" of src/contract/precompiled.ts. `loadAjv` is the module's other
 * export (how a validator that is not precompiled gets ajv). Its .d.ts stays as tsc wrote it.
 */
function writePrecompiledValidators(path, { code, exportsByKey }, loadAjv) {
  const imports = new Map();
  const body = code
    .replace(/^"use strict";/, '')
    .replace(/export const (\w+) = /g, 'const $1 = ')
    .replace(/require\("([^"]+)"\)/g, (_, specifier) => {
      const path = specifier.endsWith('.js') ? specifier : `${specifier}.js`;
      if (!imports.has(path)) imports.set(path, `runtime${imports.size}`);
      return imports.get(path);
    });
  const lookup = [...exportsByKey].map(([key, name]) => `  [${JSON.stringify(key)}, ${name}],`).join('\n');
  const text = [
    '// Generated by scripts/build.js from contract/openapi.json: the validators compiled ahead of time.',
    ...[...imports].map(([path, name]) => `import ${name} from ${JSON.stringify(path)};`),
    body,
    `const validators = new Map([\n${lookup}\n]);`,
    'export const precompiledValidators = (key) => validators.get(key);',
    loadAjv,
    '',
  ].join('\n');
  writeAtomically(path, text);
  // tsc's source map described the module it replaced.
  rmSync(`${path}.map`, { force: true });
  process.stdout.write(
    `build: ${path.slice(ROOT.length)}: ${exportsByKey.size} validators compiled ahead of time (${Math.round(text.length / 1024)} KB)\n`,
  );
}

/**
 * precompiled.js in a browser bundle: no validator compiled ahead of time, and a `loadAjv` that hands
 * out the closure compiler with ajv's interface, so validators.ts and the data file check run unchanged.
 */
function closureLoader() {
  return `// Generated by scripts/build.js: the browser build's validators (see src/contract/schema-closures/).
import { addFormats, ClosureAjv } from './schema-closures/index.js';
export const precompiledValidators = undefined;
export const loadAjv = () => ({ Ajv2020: ClosureAjv, addFormats });
`;
}
