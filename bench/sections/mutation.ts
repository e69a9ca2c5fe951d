/**
 * Mutation adequacy of the conformance laws: a seeded sample of the engine's spec-bearing mutants
 * (bench/mutation/), each run against the laws that reach it, scored per slice. Survivors are matched
 * against bench/mutation/survivors.json, where each is classified.
 */

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type MutationResult, runSample, score } from '../mutation/run.ts';
import { enumerate, pick } from '../mutation/sample.ts';

export interface MutationOptions {
  /** Mutants in the sample, split evenly over the slices. */
  readonly mutants: number;
  readonly seed: number;
  /** Cases per property in the laws. */
  readonly runs: number;
  /** Only these slices (all when empty). */
  readonly slices: readonly string[];
  /** Scores what the journal holds of the sample, running nothing. */
  readonly journalOnly: boolean;
  /** Keeps the kills of earlier laws and runs the survivors only (see RunOptions.keepKills). */
  readonly keepKills?: boolean;
  readonly log: (line: string) => void;
}

export async function mutationSection(options: MutationOptions): Promise<MutationResult> {
  // The sample is drawn from every slice and then narrowed, so a run of some slices tests the very
  // mutants a run of all of them would, and its results score the whole sample too.
  const all = await enumerate();
  const drawn = pick(all, options.mutants, options.seed);
  const kept = (slice: string) => options.slices.length === 0 || options.slices.includes(slice);
  const sample = {
    ...drawn,
    mutants: drawn.mutants.filter((m) => kept(m.slice)),
    population: Object.fromEntries(Object.entries(drawn.population).filter(([slice]) => kept(slice))),
  };
  options.log(
    `   ${sample.mutants.length} of ${all.length} mutants sampled (seed ${options.seed}); laws at ${options.runs} cases a property`,
  );
  const results = await runSample({
    sample,
    runs: options.runs,
    journalOnly: options.journalOnly,
    keepKills: options.keepKills === true,
    log: options.log,
  });
  const scored = score(sample, results, options.mutants, options.runs);
  for (const s of scored.slices)
    options.log(`   ${s.slice.padEnd(18)} ${s.killed}/${s.tested - s.equivalent} killed`);
  return scored;
}

// A score of no counted mutant is NaN, which the section's JSON keeps as null.
const pct = (value: number | null) =>
  value === null || Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(0)} %`;

export function renderMutation(result: MutationResult, stamp: string): string {
  const total = result.slices.reduce(
    (a, s) => ({
      killed: a.killed + s.killed,
      counted: a.counted + s.tested - s.equivalent,
      tested: a.tested + s.tested,
    }),
    { killed: 0, counted: 0, tested: 0 },
  );
  const byClass = (c: string) => result.survivors.filter((s) => s.class === c).length;
  // What no conformance law may kill (another conforming deployment's choice, or nothing a client
  // sees) stays in the score; this second figure says how far the laws are from what they could kill.
  const unkillable = (slice: string | null) =>
    result.survivors.filter(
      (s) =>
        (slice === null || s.slice === slice) &&
        (s.class === 'permitted-variation' || s.class === 'not-observable'),
    ).length;
  const reach = (killed: number, counted: number, slice: string | null) => {
    const within = counted - unkillable(slice);
    return pct(within <= 0 ? Number.NaN : killed / within);
  };
  return [
    '## Mutation adequacy of the conformance laws',
    '',
    stamp,
    '',
    `Stryker mutates the engine's spec-bearing code (bench/mutation/slices.json); only the conformance laws, run in process through \`suites/*.test.ts\` at ${result.runs} cases a property, may kill a mutant. Seeded sample of ${result.requested} requested (seed ${result.seed}), split evenly over the slices; a sampled node brings all its mutants. Score: killed (or timed out) ÷ tested mutants not classified equivalent (the target's measure). Of the killable: the same killed ÷ tested mutants classified neither equivalent, permitted-variation nor not-observable, that is the survivors a law could kill (missing-law, unclassified) against the killed. Static mutants (run only while a suite seeds its mock) are not measured; the type checker's refusals do not count. Survivors and their classes: bench/mutation/survivors.json.`,
    '',
    '| slice | mutants in slice | tested | killed | survived | no coverage | equivalent | static (not run) | type errors | score | of the killable |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...result.slices.map(
      (s) =>
        `| ${s.slice} | ${s.population} | ${s.tested} | ${s.killed} | ${s.survived} | ${s.noCoverage} | ${s.equivalent} | ${s.staticIgnored} | ${s.compileErrors} | ${pct(s.score)} | ${reach(s.killed, s.tested - s.equivalent, s.slice)} |`,
    ),
    `| all | ${result.slices.reduce((a, s) => a + s.population, 0)} | ${total.tested} | ${total.killed} | | | | | | ${pct(total.counted === 0 ? Number.NaN : total.killed / total.counted)} | ${reach(total.killed, total.counted, null)} |`,
    '',
    `Survivors: ${result.survivors.length}; missing-law ${byClass('missing-law')}, equivalent ${byClass('equivalent')}, permitted-variation ${byClass('permitted-variation')}, not-observable ${byClass('not-observable')}, unclassified ${result.unclassified}.`,
    '',
  ].join('\n');
}

const BEGIN = '<!-- mutation:begin -->';
const END = '<!-- mutation:end -->';

/**
 * Puts the mutation table into RESULTS.md between its markers, leaving the other sections as they
 * are (their measured results need not be on this machine to keep them).
 */
export function writeMutation(resultsFile: string, rendered: string): void {
  const text = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '';
  const section = `${BEGIN}\n${rendered.trim()}\n${END}`;
  const start = text.indexOf(BEGIN);
  const stop = text.indexOf(END);
  const next =
    start >= 0 && stop > start
      ? `${text.slice(0, start)}${section}${text.slice(stop + END.length)}`
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(resultsFile, next);
}
