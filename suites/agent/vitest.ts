/**
 * Runs agent laws as vitest tests, one test per law named by its id and rule ids, through
 * `runConformance` exactly as the CLI runs them. Target: `CCA_BASE_URL` (and `CCA_MCP_URL`) with the
 * `CCA_*_KEY` variables, or our mock when unset. `CCA_SEED` and `CCA_RUNS` pin the seed and the cases.
 * A law not run on our mock is a failure (nothing may be left unrun there); on a deployment it is a skip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Law } from '../../src/conformance/kit/law.ts';
import { runConformance } from '../../src/conformance/runner.ts';
import { renderConsoleReport } from '../../src/reporters/console.ts';
import { type MockTargetOptions, type RunningTarget, resolveTarget } from '../target.ts';
import { agentMockKeys } from './keys.ts';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? fallback : Number.parseInt(raw, 10);
}

/**
 * `mock` starts our mock with other options (choices among them) when no deployment is given by the
 * environment; a deployment of the environment is checked as it is, whatever it chose.
 */
export function describeAgentLaws(title: string, laws: readonly Law[], mock: MockTargetOptions = {}): void {
  describe(`agent conformance: ${title}`, () => {
    let running: RunningTarget;
    const seed = envInt('CCA_SEED', 42);
    const runs = envInt('CCA_RUNS', 10);
    const runId = `va${seed.toString(36)}${Date.now().toString(36).slice(-5)}`;
    // A target that cannot be set up fails every law's test (a hook's error alone leaves them skipped).
    let setupError: unknown;
    beforeAll(async () => {
      const resolved = await resolveTarget(mock).catch((error: unknown) => {
        setupError = error;
        return undefined;
      });
      if (resolved === undefined) return;
      const engine = resolved.engine;
      running =
        engine === undefined
          ? resolved
          : { ...resolved, target: { ...resolved.target, keys: agentMockKeys(engine) } };
    });
    afterAll(async () => {
      await running?.close();
    });
    for (const [index, law] of laws.entries()) {
      it(`${law.id} (${law.ruleIds.join(', ')})`, async (t) => {
        if (setupError !== undefined) throw setupError;
        const mcpUrl = process.env['CCA_MCP_URL'];
        const report = await runConformance(
          {
            target: { ...running.target, ...(mcpUrl === undefined || mcpUrl === '' ? {} : { mcpUrl }) },
            seed,
            runs,
            only: [law.id],
            runId: `${runId}-${index}`,
          },
          { laws: [law] },
        );
        const result = report.laws.find((l) => l.lawId === law.id);
        const secrets = Object.values(running.target.keys).filter((k): k is string => typeof k === 'string');
        const shown = renderConsoleReport({ ...report, rules: [] }, secrets);
        if (result?.outcome.kind === 'not-run' && running.kind === 'env') {
          t.skip(result.outcome.reason);
          return;
        }
        expect(result?.outcome.kind, shown).toBe('passed');
      });
    }
  });
}
