/**
 * Benchmark of a full default conformance run against our mock on a loopback port, and (with
 * `--mutants`) the mutation harness's detection rate. Not part of `npm test`.
 *
 * @example
 * // npx tsx suites/bench.ts            → wall time, checks/s, requests/s of default runs (3 seeds)
 * // npx tsx suites/bench.ts --mutants  → plus the detection rate over every mutant
 */
import { runConformance } from '../src/conformance/runner.ts';
import { allLaws } from './laws/index.ts';
import { runHarness } from './mutations/harness.ts';
import { startMockTarget } from './target.ts';

const rows: string[] = [];
for (const seed of [1, 2, 3]) {
  const running = await startMockTarget({ seed: 42 });
  const t0 = performance.now();
  const report = await runConformance({ target: running.target, seed }, { laws: allLaws });
  const seconds = (performance.now() - t0) / 1000;
  await running.close();
  rows.push(
    `seed ${seed}: ${report.ok ? 'pass' : 'FAIL'} ${report.laws.length} laws, ${report.checks} checks, ${report.requests} requests in ${seconds.toFixed(2)} s = ${(report.checks / seconds).toFixed(0)} checks/s, ${(report.requests / seconds).toFixed(0)} req/s`,
  );
}
console.log(`Full default run (runs ${20}) against the mock on 127.0.0.1:\n${rows.join('\n')}`);
if (process.argv.includes('--mutants')) {
  const t0 = performance.now();
  const { results, detectionRate } = await runHarness({ seed: 5, runs: 5 });
  for (const r of results)
    console.log(
      `${r.ok ? 'ok  ' : 'MISS'} ${r.id.padEnd(34)} ${r.control ? '(control)' : `expected ${r.expected[0]}`} got ${r.failedRules.join(', ') || '-'}`,
    );
  console.log(
    `detection rate ${(detectionRate * 100).toFixed(0)}% over ${results.filter((r) => !r.control).length} faults; controls passing: ${results.filter((r) => r.control && r.ok).length}/${results.filter((r) => r.control).length}; ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
