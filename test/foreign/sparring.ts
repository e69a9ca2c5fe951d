import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../src/conformance/kit/report.ts';
import type { DeviationCase } from './cases.ts';
import { conform, type Deployment, failedRules, type Running, start } from './deployment.ts';

/**
 * The suite against one blind deployment: clean, the whole REST suite passes; with each planted
 * deviation on alone, the laws of the rule it breaks report that rule.
 */
export function sparWith(deployment: Deployment, cases: readonly DeviationCase[]): void {
  describe(`the blind deployment ${deployment.name}`, () => {
    let running: Running | undefined;
    let clean: ConformanceReport;

    beforeAll(async () => {
      running = await start(deployment, '');
      clean = await conform(running);
    }, 240_000);
    afterAll(async () => running?.stop());

    it('clean: no rule fails the run (a should rule may warn on a lenient choice), no false alarm', () => {
      const failing = clean.rules
        .filter((r) => r.status === 'failed' && r.level === 'must')
        .map((r) => r.ruleId);
      expect(failing).toEqual([]);
      expect(clean.verdict).toBe('conformant');
    });

    for (const c of cases) {
      it(`${c.id} on: ${c.rule} reported (${c.level})`, async () => {
        const deviant = await start(deployment, c.id);
        try {
          const report = await conform(deviant, [c.rule]);
          expect(failedRules(report)).toContain(c.rule);
          if (c.level === 'must') expect(report.ok).toBe(false);
        } finally {
          await deviant.stop();
        }
      }, 120_000);
    }
  });
}
