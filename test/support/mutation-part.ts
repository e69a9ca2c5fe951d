/**
 * One half of the mutation harness as a vitest suite. The mutants are split over two files so that
 * vitest runs them on both cores; both files call this with their part.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MUTANTS } from '../../suites/mutations/faults.ts';
import { runMutant } from '../../suites/mutations/harness.ts';

export function mutationPart(part: 0 | 1): void {
  const mine = MUTANTS.filter((_m, i) => i % 2 === part);
  const found: boolean[] = [];
  const label = `part ${part + 1} of 2`;

  describe(`mutation harness: the suite finds every injected fault and passes every control (${label})`, () => {
    for (const mutant of mine) {
      const title =
        mutant.control === true
          ? `control ${mutant.id} passes: ${mutant.description}`
          : `${mutant.id} is detected as ${mutant.expect[0]}: ${mutant.description}`;
      it(title, async () => {
        // A fault runs only the laws naming its expected rules: a whole-suite run fails wherever these
        // do, so it proves no more and costs five times as long. Controls still run every REST law.
        const result = await runMutant(mutant, { seed: 5, runs: 5, targeted: true });
        if (mutant.control !== true) found.push(result.ok);
        const failures = result.report.laws.flatMap((l) =>
          l.outcome.kind === 'failed' ? [`${l.lawId}: ${l.outcome.ruleId}: ${l.outcome.message}`] : [],
        );
        expect({ ok: result.ok, failedRules: result.failedRules }, failures.join('\n')).toEqual({
          ok: true,
          failedRules:
            mutant.control === true
              ? []
              : expect.arrayContaining([expect.stringMatching(new RegExp(mutant.expect.join('|')))]),
        });
      });
    }
    afterAll(() => {
      const detected = found.filter(Boolean).length;
      const rate = (detected / Math.max(1, found.length)) * 100;
      console.log(`mutation detection rate (${label}): ${detected}/${found.length} = ${rate.toFixed(0)}%`);
    });
  });
}
