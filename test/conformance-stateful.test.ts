import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/conformance/runner.ts';
import { allLaws } from '../suites/laws/index.ts';
import { MUTANTS } from '../suites/mutations/faults.ts';
import { withHook } from '../suites/mutations/hook.ts';
import { mockKeys, startMockTarget } from '../suites/target.ts';

describe('model-based sequences (fc.commands)', () => {
  it('shrink a failure to the shortest sequence and print it as ordered curls (MOD-EXACT-RESUBMIT-DUPLICATE)', async () => {
    const fault = MUTANTS.find((m) => m.id === 'duplicate-answered-accepted');
    if (fault === undefined) throw new Error('mutant missing');
    const running = await startMockTarget({
      seed: 42,
      wrap: (engine) => withHook(engine, fault.hook(mockKeys())),
    });
    try {
      const report = await runConformance(
        {
          target: running.target,
          seed: 11,
          runs: 15,
          only: ['stateful.model-based'],
        },
        { laws: allLaws },
      );
      const outcome = report.laws.find((l) => l.lawId === 'stateful.model-based')?.outcome;
      expect(outcome?.kind).toBe('failed');
      if (outcome?.kind !== 'failed') return;
      expect(outcome.ruleId).toBe('MOD-EXACT-RESUBMIT-DUPLICATE');
      // Shrunk to two commands: a case is created (single or batch), then resubmitted unchanged.
      expect(String(outcome.counterexample)).toMatch(
        /^(submit\(new, [^)]*\)|batch\(1 new\)),resubmit\(same, #\d+\) /,
      );
      expect(outcome.repro).toMatch(
        /^# 1\/2 \(got 202\)\ncurl -sS -i -X POST [^\n]+\/v0\/moderation\/cases(\/batch)? -H "X-API-Key: \$CCA_WRITE_KEY"/,
      );
      expect(outcome.repro).toContain('# 2/2 (got 202)');
      expect(outcome.path).toMatch(/^\d+(:\d+)*$/);
    } finally {
      await running.close();
    }
  });
});
