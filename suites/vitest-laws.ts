/**
 * Runs one group of laws as vitest tests: one test per law, named by its id and rule ids. The laws
 * go through `runConformance` exactly as the CLI runs them (one implementation, two ways to run it).
 * Target: `CCA_BASE_URL` and the `CCA_*_KEY` variables, or our mock when unset. `CCA_SEED` and
 * `CCA_RUNS` pin the seed and the cases per property; `CCA_LAWS_OWN_MOCK=1` starts a mock per law.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../src/conformance/runner.ts';
import { renderConsoleReport } from '../src/reporters/console.ts';
import { lawsOf } from './laws/index.ts';
import { type RunningTarget, resolveTarget, startMockTarget, startTwoAdPolicyMockTarget } from './target.ts';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? fallback : Number.parseInt(raw, 10);
}

/**
 * `mocks`: laws that need data the seeded mock lacks, by law id, each with the mock that has it (used
 * only when the target is our own mock).
 */
export function describeLaws(
  group: string,
  mocks: Readonly<Record<string, () => Promise<RunningTarget>>> = {},
): void {
  const laws = lawsOf(group);
  describe(`conformance: ${group}`, () => {
    let running: RunningTarget;
    const seed = envInt('CCA_SEED', 42);
    const runs = envInt('CCA_RUNS', 10);
    // The mutation harness gives every law a mock of its own: an organization's data is built at its
    // first use and answers are remembered, so on a shared mock only the first law to read them
    // runs that code, and per-test coverage would never try the others on a mutant there.
    const ownMockPerLaw = process.env['CCA_LAWS_OWN_MOCK'] === '1';
    const runId = `vt${seed.toString(36)}${Date.now().toString(36).slice(-5)}`;
    // A target that cannot be set up fails every law's test: a hook's error alone would leave them
    // skipped, which a runner counting failed tests (the mutation harness) reads as passing.
    let setupError: unknown;
    beforeAll(async () => {
      running = await resolveTarget().catch((error: unknown) => {
        setupError = error;
        return undefined as unknown as RunningTarget;
      });
    });
    afterAll(async () => {
      await running?.close();
    });
    for (const [index, law] of laws.entries()) {
      it(`${law.id} (${law.ruleIds.join(', ')})`, async (t) => {
        if (setupError !== undefined) throw setupError;
        // On our own mock, a law that needs a second ad_policy organization gets a mock that has one.
        const own =
          running.kind !== 'mock'
            ? undefined
            : mocks[law.id] !== undefined
              ? await mocks[law.id]?.()
              : law.needs.keys.includes('otherOrgWrite')
                ? await startTwoAdPolicyMockTarget()
                : ownMockPerLaw
                  ? await startMockTarget({ seed })
                  : undefined;
        const report = await runConformance(
          {
            target: own?.target ?? running.target,
            seed,
            runs,
            only: [law.id],
            runId: `${runId}-${index}`,
          },
          { laws: [law] },
        ).finally(() => own?.close());
        const result = report.laws.find((l) => l.lawId === law.id);
        if (result?.outcome.kind === 'not-run') {
          t.skip(result.outcome.reason);
          return;
        }
        const secrets = Object.values(running.target.keys).filter((k): k is string => typeof k === 'string');
        expect(result?.outcome.kind, renderConsoleReport({ ...report, rules: [] }, secrets)).toBe('passed');
      });
    }
  });
}
