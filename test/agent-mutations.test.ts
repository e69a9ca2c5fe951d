/**
 * The agent suite finds real faults: each faulty agent deployment (our mock behind a fault proxy) is
 * detected naming the right rule, and the controls (extra unknown fields, slower answers) pass the
 * whole agent suite with nothing left unrun.
 */
import { describe, expect, it } from 'vitest';
import { renderConsoleReport } from '../src/reporters/console.ts';
import { AGENT_MUTANTS, runAgentMutant } from '../suites/mutations/agent-harness.ts';

describe('agent mutation harness', () => {
  it('has at least 15 faults and 2 controls', () => {
    expect(AGENT_MUTANTS.filter((m) => m.control !== true).length).toBeGreaterThanOrEqual(15);
    expect(AGENT_MUTANTS.filter((m) => m.control === true).length).toBeGreaterThanOrEqual(2);
  });
  for (const mutant of AGENT_MUTANTS) {
    const what =
      mutant.control === true ? 'passes (control)' : `is detected naming ${mutant.expect.join(' or ')}`;
    it(`${mutant.id} ${what}`, { timeout: 120_000 }, async () => {
      const result = await runAgentMutant(mutant, { targeted: true });
      const shown = `${mutant.description}\nfailed: ${result.failedRules.join(', ') || 'none'}; not run: ${result.notRun.join(', ') || 'none'}\n${renderConsoleReport({ ...result.report, rules: [] }, [])}`;
      expect(result.ok, shown).toBe(true);
    });
  }
});
