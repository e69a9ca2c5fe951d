/**
 * The consumer project of `cca-kit/vitest` (test/package/vitest-preset/: a setup file calling
 * `setupMock({ resetEachTest: true })` and four tests, one sending `page=2`), run with vitest in a project
 * where the package is installed, and what that run must show. Used by test/vitest-preset.test.ts (the
 * built dist/ laid out as installed) and test/package-consumer.test.ts (the packed tarball).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

export const PRESET_FIXTURE = new URL('./vitest-preset/', import.meta.url);

/** vitest's arguments for the fixture copied to `folder`, writing its JSON report to `report`. */
export function presetRunArgs(vitest: string, folder: string, report: string): string[] {
  return [
    vitest,
    'run',
    '--root',
    folder,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
}

interface AssertionResult {
  readonly title: string;
  readonly status: string;
  readonly failureMessages: readonly string[];
}

/**
 * The run failed exactly the test that sent `page=2`, by name, with LIST-NO-PAGE-INPUT and its fix,
 * its stack at the spec's lines (the fetch in `listPage`, line 8, called by the test, line 17); the
 * others passed, the last on a reset mock; no error of the run pinned on nobody.
 */
export function expectPresetRun(code: number | null, output: string, report: string): void {
  expect(code, output).toBe(1);
  const results = (
    JSON.parse(readFileSync(report, 'utf8')) as { testResults: { assertionResults: AssertionResult[] }[] }
  ).testResults.flatMap((file) => file.assertionResults);
  expect(results.map((r) => [r.title, r.status])).toEqual([
    ['reads the first page', 'passed'],
    ['lists the second page of actions', 'failed'],
    ['revokes the seeded key', 'passed'],
    ['finds the seeded key working again (the mock was reset)', 'passed'],
  ]);
  const failure = results[1]?.failureMessages.join('\n') ?? '';
  expect(failure).toContain('ViolationError');
  expect(failure).toContain('LIST-NO-PAGE-INPUT');
  expect(failure).toContain('deduplicate on actionId');
  expect(output).toContain('FAIL  list.spec.ts > lists the second page of actions');
  expect(output).not.toMatch(/Unhandled|Errors\s+\d+ error/);
  expect(output).toMatch(/❯ listPage list\.spec\.ts:8:\d+/);
  expect(output).toMatch(/❯ list\.spec\.ts:17:\d+/);
}

export const reportIn = (folder: string): string => join(folder, 'report.json');
