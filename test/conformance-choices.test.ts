/**
 * The mock is one of many conforming deployments: at every point where the spec leaves a choice
 * (`mocks/engine/choices/`), the whole conformance suite, REST and agent (MCP) laws, must pass
 * whatever the mock chose. The agent interface follows the choices that concern what it shows too
 * (`mocks/agent/choices.ts`), so the two interfaces of one mock agree as one deployment's do.
 * Random combinations of choices, seeded; fast-check shrinks a failure towards the defaults, so the
 * counterexample names the one choice that trips the suite.
 *
 * CI runs two fixed combinations (every point at its second value, then at its last), each its own
 * test, and CCA_CHOICES_RUNS random ones (default 1: with the default seed it takes the one listed
 * value neither fixed combination does, noAdPolicyStatus=409; each more is another whole-suite run).
 * Run more locally with CCA_CHOICES_RUNS=20 and another CCA_CHOICES_SEED.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHOICE_NAMES,
  type Choices,
  choiceValues,
  DEFAULT_CHOICES,
  describeChoices,
  normalizeChoices,
  parseChoiceAssignments,
} from '../mocks/engine/choices/index.ts';
import { runConformance } from '../src/conformance/runner.ts';
import { allLaws } from '../suites/laws/index.ts';
import { startMockTarget } from '../suites/target.ts';
import { scaled } from './support/timeouts.ts';

const RUNS = Number(process.env['CCA_CHOICES_RUNS'] ?? 1);
const SEED = Number(process.env['CCA_CHOICES_SEED'] ?? 20);

/** Each point's listed values, the default first: fast-check shrinks a value towards it. */
const choicesArb: fc.Arbitrary<Choices> = fc.record(
  Object.fromEntries(CHOICE_NAMES.map((name) => [name, fc.constantFrom(...choiceValues(name))])),
) as fc.Arbitrary<Choices>;

/** Every point at its n-th listed value (or its last): fixed examples that every CI run tries. */
const nthOfEach = (n: number): Choices =>
  Object.fromEntries(
    CHOICE_NAMES.map((name) => {
      const values = choiceValues(name);
      return [name, values[Math.min(n, values.length - 1)] ?? DEFAULT_CHOICES[name]];
    }),
  ) as Choices;
/** The second and the last value of every point: each alternative of a two-valued point, and more. */
const EXAMPLES: Choices[] = [nthOfEach(Number.POSITIVE_INFINITY), nthOfEach(1)];

/** The one law the seeded mock cannot run, for want of a second ad_policy organization's write key. */
const isNoSecondAdPolicyKey = (lawId: string, reason: string): boolean =>
  lawId === 'moderation.externalid-per-organization' && reason === 'needs CCA_OTHER_ORG_WRITE_KEY (not set)';

/** The rules that failed (or warned) with these choices, and anything the mock itself got wrong. */
async function runSuite(choices: Choices): Promise<string[]> {
  const running = await startMockTarget({ seed: 42, choices });
  try {
    const report = await runConformance({ target: running.target, seed: 7, runs: 3 }, { laws: allLaws });
    // A failure, and a law a choice kept from running (that would hide a false alarm). One law is
    // never run here, whatever the choices: the seeded data set has one organization in ad_policy
    // mode, so there is no CCA_OTHER_ORG_WRITE_KEY (test/must-live-laws.test.ts runs it on a mock
    // with a second one).
    const problems = report.laws.flatMap((l) =>
      l.outcome.kind === 'failed'
        ? [`${l.outcome.ruleId} (law ${l.lawId}): ${l.outcome.message}`]
        : l.outcome.kind === 'not-run' && !isNoSecondAdPolicyKey(l.lawId, l.outcome.reason)
          ? [`not run: law ${l.lawId}: ${l.outcome.reason}`]
          : [],
    );
    if (!report.laws.some((l) => l.group === 'agent' && l.outcome.kind === 'passed'))
      problems.push('no agent law passed: the agent group did not run');
    for (const f of running.engine?.selfCheckFailures ?? [])
      problems.push(`self-check: ${f.method} ${f.url} ${f.status}: ${f.issues[0]?.message ?? ''}`);
    for (const e of running.engine?.unexpectedErrors ?? [])
      problems.push(`unexpected error: ${e.method} ${e.url}: ${String(e.error)}`);
    return problems;
  } finally {
    await running.close();
  }
}

/** Runs the suite under `choices`; throws naming the choices and the first problems. */
async function passesUnder(choices: Choices): Promise<void> {
  let problems = await runSuite(choices);
  // A loopback connection reset on a loaded machine says nothing about a choice: run the
  // combination once more, and keep whatever fails then (a reset again included).
  if (problems.length > 0 && problems.every((p) => p.includes('no HTTP answer')))
    problems = await runSuite(choices);
  if (problems.length > 0)
    throw new Error(
      `with --choice ${describeChoices(choices).join(' --choice ') || '(defaults)'}:\n${problems.slice(0, 5).join('\n')}`,
    );
}

describe('permitted variations of the mock (x-spec-gap choices)', () => {
  // The fixed combinations each stand alone, so no test holds several whole-suite runs.
  for (const [index, choices] of EXAMPLES.entries())
    it(
      `the whole suite, REST and agent, passes the mock with every point at its ${index === 0 ? 'last' : 'second'} value`,
      () => passesUnder(choices),
      scaled(120_000),
    );

  it(
    'the whole suite, REST and agent, passes the mock under random combinations of choices',
    async () => {
      await fc.assert(fc.asyncProperty(choicesArb, passesUnder), {
        numRuns: RUNS,
        seed: SEED,
        endOnFailure: false,
      });
    },
    // Shrinking a failure re-runs the suite per step: room for that, stretched on a slow machine.
    scaled(20 * 60_000),
  );

  it('choices are normalised once: unknown points and values are refused naming what is accepted', () => {
    expect(normalizeChoices()).toEqual(DEFAULT_CHOICES);
    expect(normalizeChoices({ durationFormat: 'seconds' }).durationFormat).toBe('seconds');
    expect(normalizeChoices({ totalRecordsCap: '250' }).totalRecordsCap).toBe('250');
    expect(() => normalizeChoices({ durationFormat: 'days' })).toThrow(
      /choice durationFormat must be one of iso8601, seconds, clock \(got "days"\)/,
    );
    expect(() => normalizeChoices({ totalRecordsCap: '0' })).toThrow(/or a positive integer/);
    expect(() => normalizeChoices({ colour: 'blue' } as never)).toThrow(/unknown choice "colour"/);
    expect(parseChoiceAssignments(['filterKeys=spec', 'noAdPolicyStatus=422'])).toMatchObject({
      filterKeys: 'spec',
      noAdPolicyStatus: '422',
    });
    expect(() => parseChoiceAssignments(['filterKeys'])).toThrow(/a choice is point=value/);
    // The default of every point is the mock's behaviour before choices: listed first.
    for (const name of CHOICE_NAMES) expect(choiceValues(name)[0]).toBe(DEFAULT_CHOICES[name]);
  });
});
