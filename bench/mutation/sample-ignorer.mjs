/**
 * Stryker ignorer that narrows a run to a seeded sample of mutants. The `mutate` ranges already keep
 * every node outside the sample's locations out; this ignores what lies inside a sampled location
 * without being sampled itself (a sampled block's statements, a sampled call's arguments), so a run
 * tests the sample and not every mutant nested in it. Plain JavaScript: Stryker loads plugins with
 * Node's own loader.
 *
 * The sample comes from the JSON file named by CCA_MUTATION_SAMPLE: `{ root, picks: { file: [loc] } }`
 * with babel locations (1-based lines, 0-based columns). Unset, the ignorer ignores nothing.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const key = (loc) => `${loc.start.line}:${loc.start.column}-${loc.end.line}:${loc.end.column}`;
const before = (a, b) => a.line < b.line || (a.line === b.line && a.column <= b.column);
const within = (inner, outer) => before(outer.start, inner.start) && before(inner.end, outer.end);

// Read at the first node, not at import: Stryker's child processes import every plugin and need none
// of this. Read again when the file changes name: one process may run several samples.
let loaded;
function load() {
  const samplePath = process.env.CCA_MUTATION_SAMPLE;
  if (loaded?.samplePath !== samplePath) {
    const sample = samplePath ? JSON.parse(readFileSync(samplePath, 'utf8')) : undefined;
    const byFile = new Map(
      Object.entries(sample?.picks ?? {}).map(([file, locs]) => [
        file,
        { locs, keys: new Set(locs.map(key)) },
      ]),
    );
    loaded = { samplePath, sample, byFile };
  }
  return loaded;
}

function shouldIgnore(path) {
  const { sample, byFile } = load();
  if (sample === undefined) return undefined;
  const loc = path.node.loc;
  const filename = path.hub?.file?.opts?.filename;
  if (!loc || typeof filename !== 'string') return undefined;
  const picked = byFile.get(relative(sample.root, filename));
  if (picked === undefined) return 'not in the seeded mutation sample';
  if (picked.keys.has(key(loc))) return undefined;
  // A node that holds a sampled location must stay: ignoring it would ignore what it holds.
  if (picked.locs.some((p) => within(p, loc))) return undefined;
  return 'not in the seeded mutation sample';
}

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'cca-sample', { shouldIgnore })];
