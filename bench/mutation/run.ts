/**
 * Runs Stryker (stryker.config.mjs) on a seeded sample and scores it per slice. Incremental: the
 * incremental file under .cache/stryker/ answers every mutant whose code and laws are unchanged
 * since it last ran, so a run that grows the sample or follows a new law resumes instead of
 * starting over.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MutantResult, PartialStrykerOptions } from '@stryker-mutator/api/core';
import { Stryker } from '@stryker-mutator/core';
import { ROOT } from '../../test/support/processes.ts';
import {
  type EnumeratedMutant,
  keyText,
  type Location,
  locKey,
  mutantKey,
  type Sample,
  strykerInput,
  textAt,
} from './sample.ts';

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
  /** Answers from the journal only, running nothing (the score of a run that was cut short). */
  readonly journalOnly?: boolean;
  /**
   * A mutant killed (or refused by the type checker) under earlier laws, its file unchanged, stays
   * so: only the survivors run again. Laws that were only added to or strengthened kill at least what
   * they killed; a run after a law was weakened or removed must not use it.
   */
  readonly keepKills?: boolean;
  /** Replaces the journal of results (the smoke test keeps its own). */
  readonly journalFile?: string;
  readonly log?: (line: string) => void;
}

/** A mutant's result as the journal keeps it (the report's location: lines and columns from 1). */
export interface JournalEntry {
  readonly stamp: string;
  readonly fileName: string;
  readonly location: MutantResult['location'];
  readonly mutatorName: string;
  readonly replacement: string;
  readonly status: MutantResult['status'];
  readonly statusReason?: string;
}

/** What a result depends on besides the mutant: the laws and generators, the contract, the runs. */
export function lawsStamp(runs: number, testFiles: readonly string[] = []): string {
  const hash = createHash('sha256').update(`runs=${runs}\0${testFiles.join(',')}\0`);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|json)$/.test(entry.name))
        hash.update(`${path}\0`).update(readFileSync(join(ROOT, path)));
    }
  };
  for (const dir of ['suites', 'src', 'contract']) walk(dir);
  return hash.digest('hex').slice(0, 16);
}

/**
 * Stryker's incremental file for one laws stamp. Stryker's incremental diff sees the mutated files and
 * the test files, not the laws they import (suites/laws, src/conformance): a file per stamp keeps a
 * changed law from answering with results of the laws before it.
 */
export const incrementalFileName = (stamp: string): string => `incremental-${stamp}.json`;

/** The incremental files of other stamps among `names`: they can never answer again (the journal keeps their results). */
export function staleIncrementalFiles(names: readonly string[], stamp: string): string[] {
  const current = incrementalFileName(stamp);
  return names.filter((name) => /^incremental-[0-9a-f]+\.json$/.test(name) && name !== current);
}

const spotOf = (file: string, loc: Location, mutator: string, replacement: string) =>
  `${file} ${locKey(loc)} ${mutator} ${replacement}`;
/** Stryker reports lines and columns from 1; babel counts columns from 0. */
const fromStryker = (l: MutantResult['location']): Location => ({
  start: { line: l.start.line, column: l.start.column - 1 },
  end: { line: l.end.line, column: l.end.column - 1 },
});
const relativeName = (name: string) => (name.startsWith(ROOT) ? name.slice(ROOT.length) : name);

function readJournal(file: string): JournalEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as JournalEntry];
      } catch {
        // A line cut short by a run that was stopped mid-write.
        return [];
      }
    });
}

/**
 * Results for the sample: the journal's for mutants already run with the same laws and code, Stryker's
 * for the rest (and only for the sample: what the ignorer skipped is left out).
 */
export async function runSample(options: RunOptions): Promise<JournalEntry[]> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const journalFile = options.journalFile ?? join(CACHE_DIR, 'journal.jsonl');
  const stamp = `${lawsStamp(options.runs, options.testFiles)}`;
  // A mutant's own file is part of its spot: an edit there moves or changes the mutant.
  const fileStamp = new Map<string, string>();
  const stampOf = (file: string) => {
    let h = fileStamp.get(file);
    if (h === undefined) {
      h = createHash('sha256')
        .update(readFileSync(join(ROOT, file)))
        .digest('hex')
        .slice(0, 12);
      fileStamp.set(file, h);
    }
    return `${stamp}:${h}`;
  };
  const known = new Map<string, JournalEntry>();
  for (const e of readJournal(journalFile)) {
    const file = relativeName(e.fileName);
    if (!existsSync(join(ROOT, file))) continue;
    // Scoring only, the laws' half of the stamp may be older: the latest result of an unchanged mutant.
    const current = stampOf(file);
    const sameCode = e.stamp.split(':')[1] === current.split(':')[1];
    const fresh =
      e.stamp === current ||
      (options.journalOnly === true && sameCode) ||
      (options.keepKills === true && sameCode && (e.status === 'Killed' || e.status === 'CompileError'));
    if (!fresh) continue;
    known.set(spotOf(file, fromStryker(e.location), e.mutatorName, e.replacement), e);
  }
  const done: JournalEntry[] = [];
  const todo = options.sample.mutants.filter((m) => {
    const hit = known.get(spotOf(m.file, m.loc, m.mutatorName, m.replacement));
    if (hit !== undefined) done.push(hit);
    return hit === undefined;
  });
  options.log?.(
    `   ${done.length} of ${options.sample.mutants.length} answered by the journal; ${todo.length} to run`,
  );
  if (todo.length === 0 || options.journalOnly === true) return done;
  for (const name of staleIncrementalFiles(readdirSync(CACHE_DIR), stamp))
    rmSync(join(CACHE_DIR, name), { force: true });
  const input = strykerInput({ ...options.sample, mutants: todo });
  const picksFile = join(CACHE_DIR, `sample-${process.pid}.json`);
  writeFileSync(picksFile, JSON.stringify(input.picks));
  const env = {
    CCA_MUTATION_SAMPLE: process.env['CCA_MUTATION_SAMPLE'],
    CCA_MUTATION_JOURNAL: process.env['CCA_MUTATION_JOURNAL'],
    CCA_MUTATION_STAMP: process.env['CCA_MUTATION_STAMP'],
    CCA_RUNS: process.env['CCA_RUNS'],
    CCA_LAWS_OWN_MOCK: process.env['CCA_LAWS_OWN_MOCK'],
  };
  process.env['CCA_MUTATION_SAMPLE'] = picksFile;
  process.env['CCA_MUTATION_JOURNAL'] = journalFile;
  process.env['CCA_MUTATION_STAMP'] = stamp;
  process.env['CCA_RUNS'] = String(options.runs);
  // Lazily built data and remembered answers would tie their code's coverage to the first law only.
  process.env['CCA_LAWS_OWN_MOCK'] = '1';
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const stryker = new Stryker({
      configFile: join(ROOT, 'stryker.config.mjs'),
      mutate: input.mutate,
      incrementalFile: options.incrementalFile ?? join(CACHE_DIR, incrementalFileName(stamp)),
      ...(options.testFiles === undefined ? {} : { testFiles: [...options.testFiles] }),
      ...(options.typeCheck === false ? { checkers: [] } : {}),
      // A const enum in Stryker's types: its value, spelled out.
      logLevel: 'warn' as NonNullable<PartialStrykerOptions['logLevel']>,
      reporters: options.log === undefined ? ['cca-journal'] : ['progress', 'cca-journal'],
    });
    const results = await stryker.runMutationTest();
    // Only the sample counts: a node that holds a sampled node brings its own mutants along.
    const sampled = new Set(todo.map((m) => spotOf(m.file, m.loc, m.mutatorName, m.replacement)));
    const fresh: JournalEntry[] = results
      .filter((r) =>
        sampled.has(spotOf(relativeName(r.fileName), fromStryker(r.location), r.mutatorName, r.replacement)),
      )
      .map((r) => ({
        stamp: stampOf(relativeName(r.fileName)),
        fileName: r.fileName,
        location: r.location,
        mutatorName: r.mutatorName,
        replacement: r.replacement,
        status: r.status,
        ...(r.statusReason === undefined ? {} : { statusReason: r.statusReason }),
      }));
    return [...done, ...fresh];
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
  results: readonly JournalEntry[],
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
    const loc = fromStryker(r.location);
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
      const key = mutantKey(file, keyText(source(file), loc), r.mutatorName, r.replacement ?? '');
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
