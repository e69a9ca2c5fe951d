/**
 * The whole agent suite passes against our own mock over the stateless 2026-07-28 revision, with
 * nothing left unrun (every key role supplied, writes allowed on loopback). Over 2025-11-25 sessions
 * the whole agent group runs in test/conformance-mock.test.ts (ten cases a law), and over both
 * revisions at once in test/agent-conformance-both.test.ts: one run per revision here would repeat them.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/conformance/runner.ts';
import { renderConsoleReport } from '../src/reporters/console.ts';
import { agentLaws } from '../suites/agent/index.ts';
import { startMockTarget } from '../suites/target.ts';
import { scaled } from './support/timeouts.ts';

describe('the whole agent suite against our own mock', () => {
  for (const [seed, mcpRevision] of [[2, '2026-07-28']] as const) {
    it(`passes every agent law with seed ${seed} over MCP ${mcpRevision}, none left unrun`, {
      timeout: scaled(120_000),
    }, async () => {
      const running = await startMockTarget({ seed });
      try {
        const report = await runConformance(
          { target: { ...running.target, mcpRevision }, seed, runs: 5 },
          { laws: agentLaws },
        );
        const secrets = Object.values(running.target.keys).filter((k): k is string => typeof k === 'string');
        expect(report.ok, renderConsoleReport(report, secrets)).toBe(true);
        const notRun = report.laws.filter((l) => l.outcome.kind === 'not-run').map((l) => l.lawId);
        expect(notRun).toEqual([]);
        expect(report.laws.length).toBe(agentLaws.length);
      } finally {
        await running.close();
      }
    });
  }
});
