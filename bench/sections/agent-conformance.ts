/**
 * Run time of the whole agent conformance suite (every law of group `agent`) against our
 * mock on loopback, the way `cca-kit conform` runs it, for a few seeds. Target: under 30 s per run.
 *
 *   npm run bench -- --only agent-conformance
 */
import { runConformance } from '../../src/conformance/runner.ts';
import { agentLaws } from '../../suites/agent/index.ts';
import { startMockTarget } from '../../suites/target.ts';

export interface AgentConformanceRun {
  readonly seed: number;
  readonly seconds: number;
  readonly laws: number;
  readonly passed: number;
  readonly failed: number;
  readonly notRun: number;
  readonly requests: number;
  readonly checks: number;
  /** The three slowest laws and their seconds. */
  readonly slowest: readonly (readonly [string, number])[];
}

export interface AgentConformanceResult {
  readonly targetSeconds: number;
  readonly runsPerProperty: number;
  readonly runs: readonly AgentConformanceRun[];
}

export async function agentConformance(options: {
  readonly seeds: readonly number[];
  readonly runs: number;
  readonly log: (line: string) => void;
}): Promise<AgentConformanceResult> {
  const runs: AgentConformanceRun[] = [];
  for (const seed of options.seeds) {
    const running = await startMockTarget({ seed });
    try {
      const t0 = performance.now();
      const report = await runConformance(
        { target: running.target, seed, runs: options.runs },
        { laws: agentLaws },
      );
      const seconds = (performance.now() - t0) / 1000;
      const count = (kind: string) => report.laws.filter((l) => l.outcome.kind === kind).length;
      const slowest = [...report.laws]
        .sort((a, b) => b.durationMs - a.durationMs)
        .slice(0, 3)
        .map((l) => [l.lawId, Math.round(l.durationMs / 100) / 10] as const);
      runs.push({
        seed,
        seconds,
        laws: report.laws.length,
        passed: count('passed'),
        failed: count('failed'),
        notRun: count('not-run'),
        requests: report.requests,
        checks: report.checks,
        slowest,
      });
      options.log(`agent conformance seed ${seed}: ${seconds.toFixed(1)} s, ${report.requests} requests`);
    } finally {
      await running.close();
    }
  }
  return { targetSeconds: 30, runsPerProperty: options.runs, runs };
}

export function renderAgentConformance(result: AgentConformanceResult, stamp: string): string {
  const rows = result.runs.map(
    (r) =>
      `| ${r.seed} | ${r.seconds.toFixed(1)} | ${r.seconds < result.targetSeconds ? 'yes' : 'NO'} | ${r.passed}/${r.laws} | ${r.failed} | ${r.notRun} | ${r.requests} | ${r.checks} | ${r.slowest.map(([id, s]) => `${id} ${s} s`).join(', ')} |`,
  );
  return [
    '## Agent conformance suite',
    '',
    `The whole agent suite (group \`agent\`, ${result.runs[0]?.laws ?? 0} laws) against the mock on loopback, ${result.runsPerProperty} cases per property. Target: under ${result.targetSeconds} s.`,
    '',
    '| seed | seconds | under target | passed | failed | not run | requests | checks | slowest laws |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    stamp,
  ].join('\n');
}
