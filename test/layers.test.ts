/**
 * One dependency rule for the whole project, held on its own module graph (type imports included):
 * a file imports only its own folder and the layers below it (test/support/layers.ts, the table in
 * docs/ARCHITECTURE.md), and no import circle exists in contract/, fixtures/, mocks/, src/, suites/ or scripts/.
 * The breaches that remain are listed by name in test/support/layer-allowlist.ts; a new one fails,
 * and so does a listed one that was fixed, so the list can only shrink.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_CYCLES, KNOWN_UPWARD_EDGES } from './support/layer-allowlist.ts';
import { entryOf, LAYERS, layerOf } from './support/layers.ts';
import { cycles, importsOf, moduleGraph, sourceFiles } from './support/module-graph.ts';

const FOLDERS = ['contract', 'fixtures', 'mocks', 'src', 'suites', 'scripts'];

function upwardEdges(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph)
    for (const to of targets) if (layerOf(to) > layerOf(from)) found.push(`${from} -> ${to}`);
  return found.sort();
}

/** Imports into another folder of the same layer: neither the entry that holds the file nor its own directory. */
function sidewaysEdges(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph)
    for (const to of targets)
      if (layerOf(to) === layerOf(from) && entryOf(to) !== entryOf(from) && dirname(to) !== dirname(from))
        found.push(`${from} -> ${to}`);
  return found.sort();
}

describe('the layer rule', () => {
  const files = sourceFiles(FOLDERS);
  const graph = moduleGraph(files);

  it('docs/ARCHITECTURE.md shows the same layers in the same order', () => {
    const doc = readFileSync(new URL('../docs/ARCHITECTURE.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((m) => `${m[1]} ${m[2]?.trim()}`);
    expect(rows).toEqual(LAYERS.map((layer, index) => `${index} ${layer.name}`));
  });

  it('every source file belongs to a layer', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.filter((file) => LAYERS[layerOf(file)] === undefined)).toEqual([]);
  });

  it('no import points up a layer, but the known ones listed by name', () => {
    const found = upwardEdges(graph);
    expect(
      found.filter((edge) => !KNOWN_UPWARD_EDGES.includes(edge)),
      'new upward imports',
    ).toEqual([]);
    expect(
      KNOWN_UPWARD_EDGES.filter((edge) => !found.includes(edge)),
      'fixed: remove them from test/support/layer-allowlist.ts',
    ).toEqual([]);
  });

  it('no import reaches into another folder of its own layer', () => {
    expect(sidewaysEdges(graph)).toEqual([]);
  });

  it('no import circle, but the known ones', () => {
    const known = new Set(KNOWN_CYCLES.flat());
    const onCycles = new Set(cycles(graph).flat());
    expect([...onCycles].filter((file) => !known.has(file)).sort(), 'files on a new cycle').toEqual([]);
    expect(
      [...known].filter((file) => !onCycles.has(file)).sort(),
      'off every cycle now: remove them from test/support/layer-allowlist.ts',
    ).toEqual([]);
  });

  it('the runner takes its laws as an argument: only the conformance entry imports the suite', () => {
    const runnerToSuites = [...graph]
      .filter(([from]) => from.startsWith('src/conformance/') && from !== 'src/conformance/index.ts')
      .flatMap(([from, targets]) =>
        targets.filter((to) => to.startsWith('suites/')).map((to) => `${from} -> ${to}`),
      );
    expect(runnerToSuites).toEqual([]);
    expect(graph.get('src/conformance/index.ts')).toContain('suites/laws/index.ts');
  });

  it('the parts are described by their own signatures: parts.ts imports types only, and no `typeof`', () => {
    // A `typeof` an implementation would tie the seam to the part's code, above it in the engine.
    const source = readFileSync(new URL('../mocks/engine/parts.ts', import.meta.url), 'utf8');
    expect(source.match(/^import (?!type ).*$/gm) ?? []).toEqual([]);
    expect(source.match(/\btypeof [A-Za-z_$]/g) ?? []).toEqual([]);
  });

  it('sees what the rule forbids: an upward type import and a circle', () => {
    // The scanner counts `import type`, re-exports and dynamic imports.
    const from = 'mocks/engine/clock.ts';
    const imports = importsOf(
      from,
      [
        "import type { Law } from '../../src/conformance/kit/law.ts';",
        "export * from './body.ts';",
        "const x = await import('../http/server.ts');",
      ].join('\n'),
    );
    expect(imports).toEqual(['src/conformance/kit/law.ts', 'mocks/engine/body.ts', 'mocks/http/server.ts']);
    const bad = new Map(graph);
    bad.set(from, [...(graph.get(from) ?? []), 'src/conformance/kit/law.ts']);
    expect(upwardEdges(bad)).toContain(`${from} -> src/conformance/kit/law.ts`);
    // Inside the engine too: the state may not name the options or the parts built on it.
    bad.set('mocks/engine/state.ts', [
      ...(graph.get('mocks/engine/state.ts') ?? []),
      'mocks/engine/parts.ts',
    ]);
    expect(upwardEdges(bad)).toContain('mocks/engine/state.ts -> mocks/engine/parts.ts');
    // Sideways, into another folder of the same layer: the journal may not name chaos.
    bad.set('mocks/engine/journal/journal.ts', [
      ...(graph.get('mocks/engine/journal/journal.ts') ?? []),
      'mocks/engine/chaos/chaos.ts',
    ]);
    expect(sidewaysEdges(bad)).toContain('mocks/engine/journal/journal.ts -> mocks/engine/chaos/chaos.ts');
    expect(sidewaysEdges(graph)).not.toContain('mocks/engine/core.ts -> mocks/engine/docs.ts');
    expect(
      cycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['a.ts']],
          ['c.ts', []],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
  });
});
