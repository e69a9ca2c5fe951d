/**
 * The mutants of the engine's spec-bearing slices (bench/mutation/slices.json), enumerated with
 * Stryker's own instrumenter so the locations are exactly the ones a Stryker run mutates, and a
 * seeded sample of them. Stryker has no sample of its own: the sample is a set of mutated nodes
 * (every mutant of a picked node comes with it), handed to Stryker as `mutate` ranges plus the
 * ignorer in sample-ignorer.mjs for what a picked node holds.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { ROOT } from '../../test/support/processes.ts';

export interface Location {
  readonly start: { readonly line: number; readonly column: number };
  readonly end: { readonly line: number; readonly column: number };
}

export interface EnumeratedMutant {
  readonly slice: string;
  readonly file: string;
  /** Babel's: 1-based lines, 0-based columns. */
  readonly loc: Location;
  readonly mutatorName: string;
  readonly replacement: string;
  readonly key: string;
}

export interface Sample {
  readonly seed: number;
  readonly mutants: readonly EnumeratedMutant[];
  /** Mutants of every slice, sampled or not. */
  readonly population: Readonly<Record<string, number>>;
}

const slicesFile = join(ROOT, 'bench/mutation/slices.json');

/** Slice name to its patterns: `dir/name.ts`, `dir/*.ts`, and `!`-prefixed exclusions of either. */
export function slicePatterns(): Record<string, string[]> {
  return (JSON.parse(readFileSync(slicesFile, 'utf8')) as { slices: Record<string, string[]> }).slices;
}

function matcher(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
}

/** The files of each slice, relative to the repository root, sorted. */
export function sliceFiles(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [slice, patterns] of Object.entries(slicePatterns())) {
    const include = patterns.filter((p) => !p.startsWith('!'));
    const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => matcher(p.slice(1)));
    const files = new Set<string>();
    for (const pattern of include) {
      const dir = dirname(pattern);
      const re = matcher(pattern);
      for (const name of readdirSync(join(ROOT, dir))) {
        const file = `${dir}/${name}`;
        if (re.test(file) && !exclude.some((e) => e.test(file))) files.add(file);
      }
    }
    out[slice] = [...files].sort();
  }
  return out;
}

const quiet = {
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => false,
  isErrorEnabled: () => false,
  isFatalEnabled: () => false,
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
};

/** What survives edits elsewhere in the file: the file, the mutated code, the mutator and its replacement. */
export function mutantKey(file: string, original: string, mutatorName: string, replacement: string): string {
  return createHash('sha256')
    .update(`${file}\0${original}\0${mutatorName}\0${replacement}`)
    .digest('hex')
    .slice(0, 12);
}

/**
 * What a mutant's key is made of: its start line and the code it replaces (the same code on two
 * lines, such as one literal used twice, makes two mutants).
 */
export function keyText(lines: readonly string[], loc: Location): string {
  return `${(lines[loc.start.line - 1] ?? '').trim()}\0${textAt(lines, loc)}`;
}

/** The source text a location covers. */
export function textAt(lines: readonly string[], loc: Location): string {
  if (loc.start.line === loc.end.line)
    return (lines[loc.start.line - 1] ?? '').slice(loc.start.column, loc.end.column);
  return [
    (lines[loc.start.line - 1] ?? '').slice(loc.start.column),
    ...lines.slice(loc.start.line, loc.end.line - 1),
    (lines[loc.end.line - 1] ?? '').slice(0, loc.end.column),
  ].join('\n');
}

/** Every mutant of every slice (or of the files `only` accepts), in a stable order. */
export async function enumerate(only: (file: string) => boolean = () => true): Promise<EnumeratedMutant[]> {
  const instrumenter = new Instrumenter(quiet);
  const out: EnumeratedMutant[] = [];
  for (const [slice, files] of Object.entries(sliceFiles())) {
    for (const file of files.filter(only)) {
      const content = readFileSync(join(ROOT, file), 'utf8');
      const lines = content.split('\n');
      const result = await instrumenter.instrument([{ name: join(ROOT, file), content, mutate: true }], {
        plugins: null,
        excludedMutations: [],
        ignorers: [],
      });
      for (const m of result.mutants) {
        // Stryker's API counts lines from 0; babel (and the `mutate` ranges) from 1.
        const loc = {
          start: { line: m.location.start.line + 1, column: m.location.start.column },
          end: { line: m.location.end.line + 1, column: m.location.end.column },
        };
        out.push({
          slice,
          file,
          loc,
          mutatorName: m.mutatorName,
          replacement: m.replacement,
          key: mutantKey(file, keyText(lines, loc), m.mutatorName, m.replacement),
        });
      }
    }
  }
  return out;
}

/** mulberry32: small, seeded, and the same on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const locKey = (l: Location): string =>
  `${l.start.line}:${l.start.column}-${l.end.line}:${l.end.column}`;

/**
 * About `size` mutants, split evenly over the slices: in each slice its mutated nodes in a seeded
 * order, taken whole until the slice's share is reached. The order depends on the seed and the code
 * only, so a larger size with the same seed holds the smaller one (and Stryker's incremental file
 * answers what was already run).
 */
export function pick(all: readonly EnumeratedMutant[], size: number, seed: number): Sample {
  const bySlice = groupBy(all, (m) => m.slice);
  const share = Math.ceil(size / Math.max(1, bySlice.size));
  const picked: EnumeratedMutant[] = [];
  const population: Record<string, number> = {};
  for (const [slice, mutants] of bySlice) {
    population[slice] = mutants.length;
    const nodes = [...groupBy(mutants, (m) => `${m.file} ${locKey(m.loc)}`).entries()].sort(([a], [b]) =>
      a < b ? -1 : 1,
    );
    const next = random(seed ^ hash(slice));
    for (let i = nodes.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [nodes[i], nodes[j]] = [nodes[j]!, nodes[i]!];
    }
    let taken = 0;
    for (const [, group] of nodes) {
      if (taken >= share) break;
      picked.push(...group);
      taken += group.length;
    }
  }
  return { seed, mutants: picked, population };
}

function groupBy<T>(items: readonly T[], by: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = by(item);
    const list = out.get(k);
    if (list === undefined) out.set(k, [item]);
    else list.push(item);
  }
  return out;
}

function hash(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** The sample as Stryker takes it: `mutate` ranges, and the picks file sample-ignorer.mjs reads. */
export function strykerInput(sample: Sample): {
  mutate: string[];
  picks: { root: string; picks: Record<string, Location[]> };
} {
  const picks: Record<string, Location[]> = {};
  const seen = new Set<string>();
  const mutate: string[] = [];
  for (const m of sample.mutants) {
    const id = `${m.file}:${locKey(m.loc)}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const list = picks[m.file] ?? [];
    list.push(m.loc);
    picks[m.file] = list;
    mutate.push(`${m.file}:${m.loc.start.line}:${m.loc.start.column}-${m.loc.end.line}:${m.loc.end.column}`);
  }
  return { mutate, picks: { root: ROOT, picks } };
}
