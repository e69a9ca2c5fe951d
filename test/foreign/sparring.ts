import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../src/conformance/kit/report.ts';
import { scaled } from '../support/timeouts.ts';
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
    }, scaled(240_000));
    // A case that times out never reaches its `finally`: its deployment is stopped here.
    const deviants = new Set<Running>();
    afterAll(async () => {
      await Promise.all([running, ...deviants].map((r) => r?.stop()));
    });

    it('clean: no rule fails the run (a should rule may warn on a lenient choice), no false alarm', () => {
      const failing = clean.rules
        .filter((r) => r.status === 'failed' && r.level === 'must')
        .map((r) => r.ruleId);
      expect(failing).toEqual([]);
      expect(clean.verdict).toBe('conformant');
    });

    // Each deviation runs its own deployment process, so the cases run side by side: most of their
    // time is spent waiting for moderation cases to finish.
    for (const c of cases) {
      it.concurrent(
        `${c.id} on: ${c.rule} reported (${c.level})`,
        async ({ expect }) => {
          const deviant = await start(deployment, c.id);
          deviants.add(deviant);
          try {
            const report = await conform(deviant, c.only ?? [c.rule]);
            expect(failedRules(report)).toContain(c.rule);
            if (c.level === 'must') expect(report.ok).toBe(false);
          } finally {
            await deviant.stop();
            deviants.delete(deviant);
          }
        },
        scaled(180_000),
      );
    }
  });
}
