/**
 * Runs Stryker (stryker.config.mjs) on a seeded sample and scores it per slice. Incremental: the
 * incremental file under .cache/stryker/ answers every mutant whose code and laws are unchanged
 * since it last ran, so a run that grows the sample or follows a new law resumes instead of
 * starting over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MutantResult, PartialStrykerOptions } from '@stryker-mutator/api/core';
import { Stryker } from '@stryker-mutator/core';
import { ROOT } from '../../test/support/processes.ts';
import { type EnumeratedMutant, locKey, mutantKey, type Sample, strykerInput, textAt } from './sample.ts';

export type SurvivorClass = 'missing-law' | 'equivalent' | 'permitted-variation' | 'not-observable';

export interface Classification {
  readonly key: string;
  readonly slice: string;
  readonly where: string;
  readonly mutator: string;
  readonly replacement: string;
  readonly class: SurvivorClass;
  readonly reason: string;
}

export interface Survivor {
  readonly key: string;
  readonly slice: string;
  readonly where: string;
  readonly mutator: string;
  readonly original: string;
  readonly replacement: string;
  readonly status: 'Survived' | 'NoCoverage';
  readonly class?: SurvivorClass;
}

export interface SliceScore {
  readonly slice: string;
  /** Mutants of the slice (every file it names). */
  readonly population: number;
  /** Mutants of the sample that Stryker tested (not ignored, not refused by the type checker). */
  readonly tested: number;
  readonly killed: number;
  readonly survived: number;
  readonly noCoverage: number;
  /** Mutants only ever run while a suite starts its mock (seeding): not measured (`ignoreStatic`). */
  readonly staticIgnored: number;
  readonly compileErrors: number;
  readonly equivalent: number;
  /** Killed share of the tested mutants that are not classified equivalent. */
  readonly score: number;
}

export interface MutationResult {
  readonly seed: number;
  readonly requested: number;
  readonly runs: number;
  readonly slices: readonly SliceScore[];
  readonly survivors: readonly Survivor[];
  readonly unclassified: number;
  readonly missingLaw: number;
}

export const CACHE_DIR = join(ROOT, '.cache/stryker');
export const SURVIVORS_FILE = join(ROOT, 'bench/mutation/survivors.json');

export function readClassifications(): Classification[] {
  try {
    return (JSON.parse(readFileSync(SURVIVORS_FILE, 'utf8')) as { survivors: Classification[] }).survivors;
  } catch {
    return [];
  }
}

export interface RunOptions {
  readonly sample: Sample;
  /** Cases per property in the laws (CCA_RUNS): fewer is faster and kills less. */
  readonly runs: number;
  /** Replaces the config's incremental file (the smoke test keeps its own). */
  readonly incrementalFile?: string;
  /** Limits the suites that run (the smoke test runs one). */
  readonly testFiles?: readonly string[];
  /** Without the type checker (its first compile of the project takes a minute on a busy machine). */
  readonly typeCheck?: boolean;
  readonly log?: (line: string) => void;
}

/** Stryker's results for the sample (and only for it: what the ignorer skipped is left out). */
export async function runSample(options: RunOptions): Promise<MutantResult[]> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const input = strykerInput(options.sample);
  const picksFile = join(CACHE_DIR, `sample-${process.pid}.json`);
  writeFileSync(picksFile, JSON.stringify(input.picks));
  const env = { CCA_MUTATION_SAMPLE: process.env['CCA_MUTATION_SAMPLE'], CCA_RUNS: process.env['CCA_RUNS'] };
  process.env['CCA_MUTATION_SAMPLE'] = picksFile;
  process.env['CCA_RUNS'] = String(options.runs);
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const stryker = new Stryker({
      configFile: join(ROOT, 'stryker.config.mjs'),
      mutate: input.mutate,
      ...(options.incrementalFile === undefined ? {} : { incrementalFile: options.incrementalFile }),
      ...(options.testFiles === undefined ? {} : { testFiles: [...options.testFiles] }),
      ...(options.typeCheck === false ? { checkers: [] } : {}),
      // A const enum in Stryker's types: its value, spelled out.
      logLevel: 'warn' as NonNullable<PartialStrykerOptions['logLevel']>,
      reporters: options.log === undefined ? [] : ['progress'],
    });
    const results = await stryker.runMutationTest();
    return results.filter(
      (r) => !(r.status === 'Ignored' && r.statusReason?.includes('seeded mutation sample')),
    );
  } finally {
    rmSync(picksFile, { force: true });
    process.chdir(cwd);
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The per-slice score of a run, with its survivors matched against the classification file. */
export function score(
  sample: Sample,
  results: readonly MutantResult[],
  requested: number,
  runs: number,
): MutationResult {
  const bySpot = new Map<string, EnumeratedMutant>();
  for (const m of sample.mutants)
    bySpot.set(`${m.file} ${locKey(m.loc)} ${m.mutatorName} ${m.replacement}`, m);
  const classes = new Map(readClassifications().map((c) => [c.key, c]));
  const lines = new Map<string, string[]>();
  const source = (file: string) => {
    let l = lines.get(file);
    if (l === undefined) {
      l = readFileSync(join(ROOT, file), 'utf8').split('\n');
      lines.set(file, l);
    }
    return l;
  };
  const slices = new Map<string, { [k in Exclude<keyof SliceScore, 'slice' | 'score'>]: number }>();
  for (const [slice, population] of Object.entries(sample.population))
    slices.set(slice, {
      population,
      tested: 0,
      killed: 0,
      survived: 0,
      noCoverage: 0,
      staticIgnored: 0,
      compileErrors: 0,
      equivalent: 0,
    });
  const survivors: Survivor[] = [];
  for (const r of results) {
    const file = r.fileName.startsWith(ROOT) ? r.fileName.slice(ROOT.length) : r.fileName;
    // Stryker counts lines from 0 inside; the sample (babel) from 1.
    const loc = {
      start: { line: r.location.start.line + 1, column: r.location.start.column },
      end: { line: r.location.end.line + 1, column: r.location.end.column },
    };
    const picked = bySpot.get(`${file} ${locKey(loc)} ${r.mutatorName} ${r.replacement}`);
    const slice = picked?.slice ?? sliceOf(sample, file);
    const row = slices.get(slice);
    if (row === undefined) continue;
    if (r.status === 'Ignored') {
      row.staticIgnored++;
      continue;
    }
    if (r.status === 'CompileError') {
      row.compileErrors++;
      continue;
    }
    row.tested++;
    if (r.status === 'Killed' || r.status === 'Timeout' || r.status === 'RuntimeError') row.killed++;
    else {
      const original = textAt(source(file), loc);
      const key = mutantKey(file, original, r.mutatorName, r.replacement ?? '');
      const c = classes.get(key);
      if (c?.class === 'equivalent') row.equivalent++;
      if (r.status === 'NoCoverage') row.noCoverage++;
      else row.survived++;
      survivors.push({
        key,
        slice,
        where: `${file}:${loc.start.line}:${loc.start.column}`,
        mutator: r.mutatorName,
        original: original.length > 160 ? `${original.slice(0, 157)}...` : original,
        replacement: (r.replacement ?? '').slice(0, 160),
        status: r.status === 'NoCoverage' ? 'NoCoverage' : 'Survived',
        ...(c === undefined ? {} : { class: c.class }),
      });
    }
  }
  return {
    seed: sample.seed,
    requested,
    runs,
    slices: [...slices].map(([slice, s]) => ({
      slice,
      ...s,
      score: s.tested - s.equivalent === 0 ? Number.NaN : s.killed / (s.tested - s.equivalent),
    })),
    survivors,
    unclassified: survivors.filter((s) => s.class === undefined).length,
    missingLaw: survivors.filter((s) => s.class === 'missing-law').length,
  };
}

function sliceOf(sample: Sample, file: string): string {
  return sample.mutants.find((m) => m.file === file)?.slice ?? 'unknown';
}
