import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positiveInteger, Ring } from './ring.ts';

describe('Ring (the violation log and journal buffer)', () => {
  it('holds the last `capacity` pushes oldest first and counts the ones pushed out', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer(), { maxLength: 40 }),
        (capacity, pushed) => {
          const ring = new Ring<number>(capacity);
          for (const value of pushed) ring.push(value);
          expect([...ring]).toEqual(pushed.slice(Math.max(0, pushed.length - capacity)));
          expect(ring.size).toBe(Math.min(capacity, pushed.length));
          expect(ring.dropped).toBe(Math.max(0, pushed.length - capacity));
          expect(ring.clear()).toBe(Math.min(capacity, pushed.length));
          expect([...ring]).toEqual([]);
          ring.push(7);
          expect([...ring]).toEqual([7]);
        },
      ),
    );
  });

  it('refuses a capacity that is not a positive integer, naming the option', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 53])
      expect(() => positiveInteger('capacity', bad)).toThrow(/capacity must be a positive integer/);
    expect(positiveInteger('capacity', 3)).toBe(3);
  });
});
