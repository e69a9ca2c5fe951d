/**
 * The layers of the project, lowest first. A file may import its own layer and the layers below it,
 * never one above: the contract knows nothing of the mock, the engine nothing of its adapters, the
 * laws nothing of the runner that runs them. docs/ARCHITECTURE.md shows the same table.
 */
export const LAYERS: readonly { readonly name: string; readonly folders: readonly string[] }[] = [
  { name: 'contract', folders: ['contract/', 'src/contract/'] },
  { name: 'fixtures', folders: ['fixtures/'] },
  { name: 'engine', folders: ['mocks/engine/'] },
  {
    name: 'adapters',
    folders: ['mocks/http/', 'mocks/msw/', 'mocks/agent/', 'mocks/index.ts', 'src/client/'],
  },
  // What a law is written with: the law's and the check's types, outcomes, the MCP session of the agent laws.
  {
    name: 'law kit',
    folders: [
      'src/conformance/law.ts',
      'src/conformance/check.ts',
      'src/conformance/outcome.ts',
      'src/conformance/options.ts',
      'src/conformance/report.ts',
      'src/conformance/baseline.ts',
      'src/conformance/repro.ts',
      'src/conformance/transport.ts',
      'src/conformance/mcp/',
    ],
  },
  { name: 'suites', folders: ['suites/', 'src/arbitraries/'] },
  { name: 'conformance runner', folders: ['src/conformance/', 'src/reporters/'] },
  // The laws run by the runner: as vitest suites, as a benchmark, against the mutants.
  {
    name: 'suite runs',
    folders: ['suites/vitest-laws.ts', 'suites/agent/vitest.ts', 'suites/bench.ts', 'suites/mutations/'],
  },
  {
    name: 'CLI and tools',
    folders: ['src/cli/', 'src/diff/', 'src/drift/', 'src/record/', 'src/import/', 'src/index.ts'],
  },
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
