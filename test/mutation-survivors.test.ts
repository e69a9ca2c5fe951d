import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Survivor {
  readonly key: string;
  readonly slice: string;
  readonly where: string;
  readonly class?: string;
  readonly reason?: string;
}

const ROOT = join(import.meta.dirname, '..');
const { survivors } = JSON.parse(readFileSync(join(ROOT, 'bench/mutation/survivors.json'), 'utf8')) as {
  survivors: readonly Survivor[];
};
const slices = Object.keys(
  (
    JSON.parse(readFileSync(join(ROOT, 'bench/mutation/slices.json'), 'utf8')) as {
      slices: Record<string, unknown>;
    }
  ).slices,
);
const CLASSES = ['missing-law', 'equivalent', 'permitted-variation', 'not-observable'];

describe('bench/mutation/survivors.json: every surviving mutant classified', () => {
  it('keys are unique', () => {
    const keys = survivors.map((s) => s.key);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it('each entry has a class of the four, a reason and a slice of slices.json', () => {
    const bad = survivors.filter(
      (s) =>
        !CLASSES.includes(s.class ?? '') ||
        (s.reason ?? '').trim().length < 20 ||
        !slices.includes(s.slice) ||
        !/^mocks\/.+:\d+:\d+$/.test(s.where),
    );
    expect(bad.map((s) => s.key)).toEqual([]);
  });
});
