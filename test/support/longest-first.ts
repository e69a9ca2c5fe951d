/**
 * Test files in the order that finishes soonest on two workers: the longest first (a longest-first
 * schedule leaves no long file to start last, when the other worker has nothing left to do). A fresh
 * clone has no vitest cache, so vitest would order by file size, and the longest files (the whole
 * conformance suite run again and again) happened to start last. The durations are measured, not
 * derived: `node scripts/test-durations.js` refreshes them from a whole run's JSON report. A file not
 * listed (a new one) runs first, as vitest runs unknown files first.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const DURATIONS_FILE = join(import.meta.dirname, 'test-durations.json');

/** Seconds per test file, by path from the project root. */
export function readDurations(file = DURATIONS_FILE): Readonly<Record<string, number>> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
}

/** `paths` longest first; a path without a duration before all others, in its given order. */
export function longestFirst(
  paths: readonly string[],
  durations: Readonly<Record<string, number>>,
): string[] {
  const known = (p: string): number => durations[p] ?? Number.POSITIVE_INFINITY;
  return paths
    .map((path, index) => ({ path, index }))
    .sort((a, b) => known(b.path) - known(a.path) || a.index - b.index)
    .map(({ path }) => path);
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const byPath = new Map(files.map((f) => [relative(root, f.moduleId), f]));
    const order = longestFirst([...byPath.keys()], readDurations());
    return order.flatMap((p) => byPath.get(p) ?? []);
  }
}
