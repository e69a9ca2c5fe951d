/** One share of the agent mutants as vitest tests (`part` of `parts`, controls in every share's turn). */
import { describe, expect, it } from 'vitest';
import { renderConsoleReport } from '../../src/reporters/console.ts';
import { AGENT_MUTANTS, runAgentMutant } from './agent-harness.ts';

/** `timeoutMs` bounds each mutant's test; callers stretch it for a slow machine. */
export function describeAgentMutants(part: number, parts: number, timeoutMs = 120_000): void {
  const mine = AGENT_MUTANTS.filter((_m, i) => i % parts === part);
  describe(`agent mutants (share ${part + 1} of ${parts})`, () => {
    for (const mutant of mine) {
      const what =
        mutant.control === true ? 'passes (control)' : `is detected naming ${mutant.expect.join(' or ')}`;
      it(`${mutant.id} ${what}`, { timeout: timeoutMs }, async () => {
        const result = await runAgentMutant(mutant, { targeted: true });
        const shown = `${mutant.description}\nfailed: ${result.failedRules.join(', ') || 'none'}; not run: ${result.notRun.join(', ') || 'none'}\n${renderConsoleReport({ ...result.report, rules: [] }, [])}`;
        expect(result.ok, shown).toBe(true);
        if (mutant.revision === undefined) return;
        // A fault in one revision only is not charged to a deployment judged over the other.
        const other = await runAgentMutant(mutant, {
          targeted: true,
          mcpRevision: mutant.revision === '2026-07-28' ? '2025-11-25' : '2026-07-28',
        });
        expect(
          other.failedRules.filter((r) => mutant.expect.includes(r)),
          'the other revision',
        ).toEqual([]);
      });
    }
  });
}
