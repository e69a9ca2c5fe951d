/**
 * The layers of the project, lowest first. A file may import its own layer and the layers below it,
 * never one above: the contract knows nothing of the mock, the engine nothing of its adapters, the
 * laws nothing of the runner that runs them. The runner, above the laws, still imports none: it takes
 * them as an argument (test/layers.test.ts checks it). docs/ARCHITECTURE.md shows the same table.
 */
export const LAYERS: readonly { readonly name: string; readonly folders: readonly string[] }[] = [
  { name: 'contract', folders: ['contract/', 'src/contract/'] },
  { name: 'fixtures', folders: ['fixtures/'] },
  { name: 'engine', folders: ['mocks/engine/'] },
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
