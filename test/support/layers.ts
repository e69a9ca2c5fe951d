/**
 * The layers of the project, lowest first. A file may import its own folder (the entry below that
 * holds it, or its own directory) and the layers below it: never a layer above, nor another folder of
 * its own layer (two folders that need each other are two layers, one on the other). The contract
 * knows nothing of the mock, the engine nothing of its adapters, the
 * laws nothing of the runner that runs them. The runner, above the laws, still imports none: it takes
 * them as an argument (test/layers.test.ts checks it). docs/ARCHITECTURE.md shows the same table.
 */
const ENGINE = 'mocks/engine/';

export const LAYERS: readonly { readonly name: string; readonly folders: readonly string[] }[] = [
  // The contract's model: the domain records, the choice points, the loader and the validators.
  { name: 'contract model', folders: ['src/contract/'] },
  // The contract's sources and their build, which writes openapi.json from them and the model.
  { name: 'contract build', folders: ['contract/'] },
  { name: 'fixtures', folders: ['fixtures/'] },
  // The engine's layers, bottom up (docs/ARCHITECTURE.md, under the table, says why each sits where it does).
  {
    name: 'engine base',
    folders: [
      'exchange.ts',
      'body.ts',
      'respond.ts',
      'errors.ts',
      'clock.ts',
      'types.ts',
      'ring.ts',
      'secret-headers.ts',
      'secret-mask.ts',
      'sha256.ts',
      'worker-entry.ts',
    ].map((file) => `${ENGINE}${file}`),
  },
  // The domain, one folder per slice: each holds its own state and rules, and knows no engine around it.
  {
    name: 'engine slices',
    folders: ['auth/', 'records/', 'moderation/', 'saved-searches/', 'faults/'].map(
      (folder) => `${ENGINE}${folder}`,
    ),
  },
  // Slices built on the slices above: the choices shape data answers, ingestion turns records into
  // actions (and moderation's canonical form), replies act on actions with tokens.
  {
    name: 'slices on slices',
    folders: ['choices/', 'ingestion/', 'replies/'].map((folder) => `${ENGINE}${folder}`),
  },
  // What a data file is: its types, schema, checks and builder (applying and exporting one: the I/O layer).
  { name: 'data-file format', folders: [`${ENGINE}data-file/`] },
  { name: 'engine state', folders: [`${ENGINE}state.ts`] },
  // Every write as a plain-data command and the one function that applies it.
  { name: 'commands', folders: [`${ENGINE}commands/`] },
  // Where the command log lives, and a data file applied to or exported from a state.
  {
    name: 'store and data-file I/O',
    folders: [
      `${ENGINE}store/`,
      ...['apply.ts', 'load-baseline.ts', 'export.ts', 'admin-ops.ts', 'replies.ts', 'index.ts'].map(
        (file) => `${ENGINE}data-file/${file}`,
      ),
    ],
  },
  // What an admin route and the admin API are, and the observers' attachments: the seams are built on them.
  {
    name: 'admin shapes',
    folders: ['admin/api.ts', 'admin/route.ts', 'admin/attachments.ts'].map((file) => `${ENGINE}${file}`),
  },
  // The shapes the pipeline is built on, each by its own signature: the optional parts, the options,
  // the interceptors.
  {
    name: 'engine seams',
    folders: ['parts.ts', 'options.ts', 'interceptors.ts'].map((file) => `${ENGINE}${file}`),
  },
  // What the mock noticed a client do against the spec: the journal and chaos report into it.
  { name: 'violations', folders: [`${ENGINE}violations/`] },
  // One handler per operationId, and the observers that plug into the seams.
  {
    name: 'handlers and observers',
    folders: ['handlers/', 'journal/', 'chaos/'].map((folder) => `${ENGINE}${folder}`),
  },
  {
    name: 'core pipeline',
    folders: ['core.ts', 'validation-policy.ts', 'docs.ts', 'fetch-bridge.ts'].map(
      (file) => `${ENGINE}${file}`,
    ),
  },
  { name: 'admin routes', folders: [`${ENGINE}admin/`] },
  // The only files that name the optional parts' implementations, each part on its own.
  {
    name: 'engine parts',
    folders: ['admin/part.ts', 'choices/part.ts', 'commands/agent-part.ts', 'data-file/part.ts'].map(
      (file) => `${ENGINE}${file}`,
    ),
  },
  // The engine with every part: what users call.
  {
    name: 'engine entry',
    folders: ['full-parts.ts', 'engine.ts', 'index.ts'].map((file) => `${ENGINE}${file}`),
  },
  // An engine on a persistent store, and the engine a state file's compaction replica runs in its worker.
  {
    name: 'engine on a store',
    folders: [`${ENGINE}store/open.ts`, `${ENGINE}store/compaction-replica-worker.ts`],
  },
  // HTTP clients of the contract and HAR entries (the dashboard's export and `cca-kit record` share them).
  { name: 'client and HAR', folders: ['src/client/', 'src/har/'] },
  // The adapters that do not listen on a port themselves: the agent tools, MSW's handlers.
  { name: 'agent and MSW adapters', folders: ['mocks/agent/', 'mocks/msw/'] },
  // One port for REST, /mcp and the dashboard.
  { name: 'HTTP adapter', folders: ['mocks/http/'] },
  { name: 'mock entry', folders: ['mocks/index.ts'] },
  // What a law is written with: the law's and the check's types, outcomes, the MCP session, arbitraries.
  { name: 'law kit', folders: ['src/arbitraries/', 'src/conformance/kit/'] },
  { name: 'suites', folders: ['suites/'] },
  { name: 'reporters', folders: ['src/reporters/'] },
  // Runs the laws it is given: it imports none (the package entry, src/conformance/index.ts, gives it the suite's).
  { name: 'conformance runner', folders: ['src/conformance/'] },
  // The tools the CLI's commands run: drift, recording, import, the mutants of the suite.
  { name: 'CLI tools', folders: ['src/drift/', 'src/record/', 'src/import/', 'suites/mutations/'] },
  // Two contracts or two recordings compared, walked as drift walks them.
  { name: 'diff', folders: ['src/diff/'] },
  // What runs the laws through the runner: the CLI, the package entry, the vitest suites, the bench.
  {
    name: 'CLI',
    folders: [
      'src/cli/',
      'src/index.ts',
      'suites/vitest-laws.ts',
      'suites/agent/vitest.ts',
      'suites/bench.ts',
    ],
  },
  // The build and the generated pages (docs/rules.md from the laws, the spec-gap tables from the mock's choices).
  { name: 'scripts', folders: ['scripts/'] },
];

/** The entry of LAYERS (a folder or a file) that holds a repository-relative file. */
export function entryOf(file: string): string {
  let best = '';
  for (const layer of LAYERS)
    for (const entry of layer.folders) {
      const holds = entry.endsWith('/') ? file.startsWith(entry) : file === entry;
      if (holds && entry.length > best.length) best = entry;
    }
  return best;
}

/** The index in LAYERS of the layer a repository-relative file belongs to. */
export function layerOf(file: string): number {
  // The longest entry that holds the file wins: `suites/bench.ts` before `suites/`.
  let best = -1;
  let length = 0;
  LAYERS.forEach((layer, index) => {
    for (const entry of layer.folders) {
      const holds = entry.endsWith('/') ? file.startsWith(entry) : file === entry;
      if (holds && entry.length > length) {
        best = index;
        length = entry.length;
      }
    }
  });
  if (best < 0) throw new Error(`${file} belongs to no layer of test/support/layers.ts`);
  return best;
}
