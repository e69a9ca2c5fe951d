import { afterAll, describe, expect, it } from 'vitest';
import { MUTANTS } from '../suites/mutations/faults.ts';
import { runMutant } from '../suites/mutations/harness.ts';

// The mutants are split over two files so vitest runs them on both cores.
const mine = MUTANTS.filter((_m, i) => i % 2 === 0);
const found: boolean[] = [];

describe('mutation harness: the suite finds every injected fault and passes every control (part 1 of 2)', () => {
  for (const mutant of mine) {
    const title =
      mutant.control === true
        ? `control ${mutant.id} passes: ${mutant.description}`
        : `${mutant.id} is detected as ${mutant.expect[0]}: ${mutant.description}`;
    it(title, async () => {
      const result = await runMutant(mutant, { seed: 5, runs: 5 });
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
    const rate = found.filter(Boolean).length / Math.max(1, found.length);
    console.log(
      `mutation detection rate (part 1): ${found.filter(Boolean).length}/${found.length} = ${(rate * 100).toFixed(0)}%`,
    );
  });
});
