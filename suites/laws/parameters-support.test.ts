/**
 * The split windows of the parameter laws are what ANALYTICS-WINDOW-HALVES-NOT-MORE needs: two
 * non-empty halves that share no instant (even truncated to seconds), together the whole window,
 * settled (ending before the target's now) and split at a whole minute.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import { type Span, splitWindows, widestSplit } from './parameters-support.ts';

const context = (now: number): LawContext => ({ now: () => now }) as Partial<LawContext> as LawContext;

function expectSettledSplit(now: number, w: { outer: Span; first: Span; second: Span }): void {
  const { outer, first, second } = w;
  expect(first.from).toBe(outer.from);
  expect(second.to).toBe(outer.to);
  expect(first.to + 1).toBe(second.from);
  expect(first.from).toBeLessThan(first.to);
  expect(second.from).toBeLessThan(second.to);
  for (const t of [outer.from, outer.to, second.from]) expect(t % 60_000).toBe(0);
  // Truncated to whole seconds the halves still share no instant.
  expect(Math.floor(first.to / 1000)).toBeLessThan(Math.floor(second.from / 1000));
  expect(outer.to).toBeLessThanOrEqual(now - 3_600_000);
  expect(outer.from).toBeGreaterThanOrEqual(now - 3_600_000 - 60 * 86_400_000 - 60_000);
}

describe('splitWindows (ANALYTICS-WINDOW-HALVES-NOT-MORE, ANALYTICS-WINDOW-NARROWER-NOT-MORE)', () => {
  it('halves are disjoint, non-empty, minute-aligned, settled and cover the whole window', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) })
          .chain((now) => splitWindows(context(now), 60).map((w) => ({ now, w }))),
        ({ now, w }) => expectSettledSplit(now, w),
      ),
    );
  });

  it('the widest split, tried first by the laws, is such a split and holds every window the generator makes', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) })
          .chain((now) => splitWindows(context(now), 60).map((w) => ({ now, w }))),
        ({ now, w }) => {
          const widest = widestSplit(context(now), 60);
          expectSettledSplit(now, widest);
          expect(widest.outer.from).toBeLessThanOrEqual(w.outer.from);
          expect(widest.outer.to).toBeGreaterThanOrEqual(w.outer.to);
        },
      ),
    );
  });
});
