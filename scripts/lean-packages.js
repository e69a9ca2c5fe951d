/**
 * The lean package, cut out of the built dist/: `@cca-kit/core` is the contract, the validation layer,
 * the engine and the MSW handlers (cca-kit's `.`, `./contract`, `./msw` and its JSON data entries) with
 * only the dependencies those import (ajv and ajv-formats; msw is the user's own, a peer). No MCP SDK, no
 * QuickJS, no Swagger UI (and so no install-time telemetry), no HTTP client, no fast-check: those are the
 * CLI's, the agent interface's and the conformance suite's, in `cca-kit`.
 *
 * Nothing is listed by hand: the files are the module graph of the entries (JavaScript, the browser
 * variants the `browser` field maps to, declarations and their source maps), and the dependencies are
 * the packages that graph imports, with cca-kit's own ranges. An import of a package cca-kit does not
 * declare stops the build. Written to dist-packages/core/ (atomically, as dist/), packed and published
 * from there (`npm pack ./dist-packages/core`).
 *
 * Plain JavaScript: the build runs it with nothing but node.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { checkExports } from './check-exports.js';
import { moduleGraph } from './module-graph.js';

/** The lean packages: name, the cca-kit entry points they carry (JSON data entries come along), what they are. */
export const LEAN_PACKAGES = [
  {
    folder: 'core',
    name: '@cca-kit/core',
    entries: ['.', './contract', './msw', './msw/features', './vitest'],
    description:
      'The Customer-Conversation Analytics Service contract, its validators and the stateful mock as MSW handlers, without the CLI, MCP or conformance suite',
  },
];

/**
 * @param {string} root the repository (trailing `/`)
 * @param {string} distDir the built dist/ to cut from (trailing `/`)
 */
export async function writeLeanPackages(root, distDir) {
  const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
  for (const lean of LEAN_PACKAGES) {
    const stage = `${root}.dist-build-${lean.folder}-${process.pid}/`;
    rmSync(stage, { recursive: true, force: true });
    try {
      const { files, leanManifest } = cut(manifest, lean, distDir);
      for (const file of files) {
        const target = join(stage, 'dist', relative(distDir, file));
        mkdirSync(dirname(target), { recursive: true });
        cpSync(file, target);
      }
      writeFileSync(`${stage}package.json`, `${JSON.stringify(leanManifest, null, 2)}\n`);
      writeFileSync(`${stage}README.md`, readme(manifest, lean, leanManifest));
      const problems = await checkExports(stage);
      if (problems.length > 0) throw new Error(`${lean.name} is broken:\n  ${problems.join('\n  ')}`);
      const final = `${root}dist-packages/${lean.folder}`;
      mkdirSync(dirname(final), { recursive: true });
      const old = `${root}.dist-build-${lean.folder}-old-${process.pid}`;
      if (existsSync(final)) renameSync(final, old);
      renameSync(stage, final);
      rmSync(old, { recursive: true, force: true });
      process.stdout.write(`build: ${relative(root, final)}: ${lean.name}, ${files.length} files\n`);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  }
}

/** The files of dist/ the lean package ships, and its package.json. */
function cut(manifest, lean, distDir) {
  const locate = (target) => join(distDir, target.replace(/^\.\/dist\//, ''));
  const exportsMap = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const data = typeof target === 'string' && target.startsWith('./dist/') && target.endsWith('.json');
    if (lean.entries.includes(subpath) || data) exportsMap[subpath] = target;
  }
  exportsMap['./package.json'] = './package.json';
  const entryFiles = Object.values(exportsMap)
    .flatMap((target) => (typeof target === 'string' ? [target] : Object.values(target)))
    .filter((target) => target.startsWith('./dist/'))
    .map(locate);

  // The browser variants of the files reached, walked in turn, until nothing new is reached.
  const browser = {};
  let graph = moduleGraph(entryFiles);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [from, to] of Object.entries(manifest.browser ?? {})) {
      if (browser[from] === undefined && graph.files.has(locate(from))) {
        browser[from] = to;
        grew = true;
      }
    }
    if (grew) graph = moduleGraph([...entryFiles, ...Object.values(browser).map(locate)]);
  }
  const files = [...graph.files];
  for (const file of graph.files) if (existsSync(`${file}.map`)) files.push(`${file}.map`);

  const dependencies = {};
  const peerDependencies = {};
  for (const [name, importer] of graph.packages) {
    const range = manifest.dependencies?.[name];
    const peer = manifest.peerDependencies?.[name];
    if (range !== undefined) dependencies[name] = range;
    else if (peer !== undefined) peerDependencies[name] = peer;
    else throw new Error(`${relative(distDir, importer)} imports ${name}, which cca-kit does not declare`);
  }
  const sorted = (record) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
  const leanManifest = {
    name: lean.name,
    version: manifest.version,
    description: lean.description,
    type: 'module',
    license: manifest.license,
    repository: manifest.repository,
    homepage: manifest.homepage,
    bugs: manifest.bugs,
    engines: manifest.engines,
    exports: exportsMap,
    browser,
    // No module is imported for its side effects: a bundler may drop any whose exports go unused.
    sideEffects: manifest.sideEffects,
    files: ['dist', 'README.md'],
    dependencies: sorted(dependencies),
    peerDependencies: sorted(peerDependencies),
    peerDependenciesMeta: Object.fromEntries(
      Object.keys(peerDependencies).map((name) => [name, { optional: true }]),
    ),
  };
  return { files, leanManifest };
}

function readme(manifest, lean, leanManifest) {
  const docs = (page) => `${manifest.homepage.replace(/#.*$/, '')}/blob/main/docs/${page}`;
  const entries = Object.keys(leanManifest.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => `- \`${lean.name}${subpath === '.' ? '' : subpath.slice(1)}\``)
    .join('\n');
  return `# ${lean.name}

${lean.description}.

The same modules as \`cca-kit\` (built from the same sources, same version), for projects that only
need the MSW handlers or the contract and its validators:

\`\`\`sh
npm install --save-dev ${lean.name} msw     # msw 2 or 3, your own (a peer dependency)
\`\`\`

\`\`\`ts
import { setupServer } from 'msw/node';
import { createHandlers } from '${lean.name}/msw';
const server = setupServer(...createHandlers({ baseUrl: 'https://api.example.test' }).handlers);
\`\`\`

Entry points (each as in \`cca-kit\`):

${entries}

Dependencies: ${Object.keys(leanManifest.dependencies)
    .map((name) => `\`${name}\``)
    .join(', ')}. The CLI (\`cca-kit mock\`, \`conform\`, \`mcp\`), the HTTP mock server, the agent
interface and the conformance suite are in [\`cca-kit\`](${manifest.homepage}).

Docs: [front-end developers and MSW](${docs('frontend.md')}), [the mock](${docs('mock.md')}),
[the rules catalog](${docs('rules.md')}).
`;
}
