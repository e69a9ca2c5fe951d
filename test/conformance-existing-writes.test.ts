import { describe, expect, it } from 'vitest';
import { runConformance } from '../src/conformance/runner.ts';
import { renderConsoleReport } from '../src/reporters/console.ts';
import { allLaws } from '../suites/laws/index.ts';
import { withHook } from '../suites/mutations/hook.ts';
import { startMockTarget } from '../suites/target.ts';

/**
 * Writes to records the run did not create (custom fields of seeded actions) are said at the end of
 * the run, restored or not, and `customFieldWrites: false` (`--no-custom-field-writes`) makes none.
 */
describe('writes to existing records', () => {
  it('are listed at the end of the report with what was restored and what no client can restore', async () => {
    const running = await startMockTarget({ seed: 4 });
    try {
      const report = await runConformance(
        {
          target: running.target,
          seed: 4,
          runs: 3,
          only: ['custom-fields'],
        },
        { laws: allLaws },
      );
      expect(report.ok).toBe(true);
      expect(report.existingWrites.length).toBeGreaterThan(0);
      expect(report.existingWrites.every((w) => w.restored)).toBe(true);
      expect(report.existingWrites[0]?.record).toMatch(/^custom fields of action /);
      const text = renderConsoleReport(report);
      expect(text).toMatch(
        /^Wrote to \d+ existing records? \(--no-custom-field-writes leaves them alone\):$/m,
      );
      expect(text).toMatch(
        /^ {2}restored {2}custom fields of action .*what no client can put back: when and by whom/m,
      );
    } finally {
      await running.close();
    }
  });

  it('are not made with customFieldWrites false: the laws that need them are not run, saying why', async () => {
    const patches: string[] = [];
    const running = await startMockTarget({
      seed: 4,
      wrap: (engine) =>
        withHook(engine, (next) => async (request, context) => {
          if (request.method === 'PATCH') patches.push(new URL(request.url).pathname);
          return next(request, context);
        }),
    });
    try {
      const report = await runConformance(
        {
          target: running.target,
          seed: 4,
          runs: 3,
          only: ['custom-fields', 'stateful'],
          customFieldWrites: false,
        },
        { laws: allLaws },
      );
      expect(report.existingWrites).toEqual([]);
      const patch = report.laws.find((l) => l.lawId === 'custom-fields.patch-persists');
      expect(patch?.outcome).toMatchObject({
        kind: 'not-run',
        reason: expect.stringMatching(/--no-custom-field-writes/),
      });
      expect(patches).toEqual([]);
    } finally {
      await running.close();
    }
  });
});
