/**
 * The layers of the project, lowest first. A file may import its own layer and the layers below it,
 * never one above: the contract knows nothing of the mock, the engine nothing of its adapters, the
 * laws nothing of the runner that runs them. The runner, above the laws, still imports none: it takes
 * them as an argument (test/layers.test.ts checks it). docs/ARCHITECTURE.md shows the same table.
 */
const ENGINE = 'mocks/engine/';

export const LAYERS: readonly { readonly name: string; readonly folders: readonly string[] }[] = [
  { name: 'contract', folders: ['contract/', 'src/contract/'] },
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
    ].map((file) => `${ENGINE}${file}`),
  },
  // The domain, one folder per slice: each holds its own state and rules, and knows no engine around it.
  {
    name: 'engine slices',
    folders: [
      'auth/',
      'data/',
      'moderation/',
      'ingestion/',
      'replies/',
      'saved-searches/',
      'choices/',
      'faults/',
    ].map((folder) => `${ENGINE}${folder}`),
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
  // The shapes the pipeline is built on, each by its own signature: the optional parts, the options,
  // the interceptors, the admin API and the admin route, the observers' attachments.
  {
    name: 'engine seams',
    folders: [
      'parts.ts',
      'options.ts',
      'interceptors.ts',
      'admin/api.ts',
      'admin/route.ts',
      'admin/attachments.ts',
    ].map((file) => `${ENGINE}${file}`),
  },
  // One handler per operationId, and the observers that plug into the seams.
  {
    name: 'handlers and observers',
    folders: ['handlers/', 'journal/', 'violations/', 'chaos/'].map((folder) => `${ENGINE}${folder}`),
  },
  {
    name: 'core pipeline',
    folders: ['core.ts', 'validation-policy.ts', 'docs.ts', 'fetch-bridge.ts'].map(
      (file) => `${ENGINE}${file}`,
    ),
  },
  { name: 'admin routes', folders: [`${ENGINE}admin/`] },
  // The only files that name the optional parts' implementations.
  {
    name: 'engine parts',
    folders: [
      'full-parts.ts',
      'admin/part.ts',
      'choices/part.ts',
      'commands/agent-part.ts',
      'data-file/part.ts',
    ].map((file) => `${ENGINE}${file}`),
  },
  // What users call: the engine with every part, one on a persistent store, the package entry.
  {
    name: 'engine entry',
    folders: ['engine.ts', 'store/open.ts', 'index.ts'].map((file) => `${ENGINE}${file}`),
  },
  {
    name: 'adapters',
    folders: ['mocks/http/', 'mocks/msw/', 'mocks/agent/', 'mocks/index.ts', 'src/client/', 'src/har/'],
  },
  // The laws, and the kit they are written with (the law's and the check's types, outcomes, the MCP session).
  { name: 'suites', folders: ['suites/', 'src/arbitraries/', 'src/conformance/kit/'] },
  // Runs the laws it is given: it imports none (the package entry, src/conformance/index.ts, gives it the suite's).
  { name: 'conformance runner', folders: ['src/conformance/', 'src/reporters/'] },
  // What runs the laws through the runner: the CLI and its tools, the vitest suites, the bench, the mutants.
  {
    name: 'CLI',
    folders: [
      'src/cli/',
      'src/diff/',
      'src/drift/',
      'src/record/',
      'src/import/',
      'src/index.ts',
      'suites/vitest-laws.ts',
      'suites/agent/vitest.ts',
      'suites/bench.ts',
      'suites/mutations/',
    ],
  },
  // The build and the generated pages (docs/rules.md from the laws, the spec-gap tables from the mock's choices).
  { name: 'scripts', folders: ['scripts/'] },
];

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
