import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { longestFirst, readDurations } from './longest-first.ts';

describe('the longest-first order of test files', () => {
  it('puts unmeasured files first, then the longest, ties in their given order', () => {
    const order = longestFirst(['a', 'b', 'new', 'c', 'd'], { a: 1, b: 30, c: 30, d: 5 });
    expect(order).toEqual(['new', 'b', 'c', 'd', 'a']);
  });

  it('is measured for test files that exist (refresh with node scripts/test-durations.js)', () => {
    const root = join(import.meta.dirname, '..', '..');
    const listed = Object.keys(readDurations());
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });
});
