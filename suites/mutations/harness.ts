/**
 * Runs the conformance suite against each mutant (our mock with one fault) and reports whether the
 * suite found the fault and named one of the expected rules; controls must pass.
 */

import type { ConformanceReport } from '../../src/conformance/kit/report.ts';
import { runConformance } from '../../src/conformance/runner.ts';
import { allLaws } from '../laws/index.ts';
import { mockKeys, startMockTarget } from '../target.ts';
import { MUTANTS, type Mutant } from './faults.ts';
import { withHook } from './hook.ts';

export interface MutantResult {
  readonly id: string;
  readonly control: boolean;
  readonly expected: readonly string[];
  /** Rules the suite reported failing. */
  readonly failedRules: readonly string[];
  /** Fault: detected and one expected rule named. Control: nothing failed. */
  readonly ok: boolean;
  readonly durationMs: number;
}

export interface HarnessOptions {
  readonly seed?: number;
  readonly runs?: number;
  /** Run only the laws naming the expected rules (fast) instead of the whole suite. */
  readonly targeted?: boolean;
  readonly mutants?: readonly Mutant[];
}

export async function runMutant(
  mutant: Mutant,
  options: HarnessOptions = {},
): Promise<MutantResult & { report: ConformanceReport }> {
  const t0 = performance.now();
  const running = await startMockTarget({
    seed: 42,
    wrap: (engine) => withHook(engine, mutant.hook(mockKeys(engine))),
  });
  try {
    const report = await runConformance(
      {
        target: running.target,
        seed: options.seed ?? 7,
        runs: options.runs ?? 10,
        // Detection is the verdict asked for here: the first failing case names the rule as well.
        shrink: false,
        // REST faults are the REST laws' to find; the agent interface has its own harness (agent-harness.ts).
        skip: ['agent'],
        ...(options.targeted === true && mutant.control !== true ? { only: [...mutant.expect] } : {}),
      },
      { laws: allLaws },
    );
    const failedRules = [
      // Every rule each law found failing (a law goes on past its first failure).
      ...new Set(report.laws.flatMap((l) => l.failures.map((f) => f.ruleId))),
    ];
    const ok =
      mutant.control === true ? failedRules.length === 0 : failedRules.some((r) => mutant.expect.includes(r));
    return {
      id: mutant.id,
      control: mutant.control === true,
      expected: mutant.expect,
      failedRules,
      ok,
      durationMs: performance.now() - t0,
      report,
    };
  } finally {
    await running.close();
  }
}

export async function runHarness(
  options: HarnessOptions = {},
): Promise<{ results: MutantResult[]; detectionRate: number }> {
  const results: MutantResult[] = [];
  for (const mutant of options.mutants ?? MUTANTS) {
    const { report: _report, ...result } = await runMutant(mutant, options);
    results.push(result);
  }
  const faults = results.filter((r) => !r.control);
  return { results, detectionRate: faults.filter((r) => r.ok).length / Math.max(1, faults.length) };
}
