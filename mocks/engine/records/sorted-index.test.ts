import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedIndex } from './sorted-index.ts';

describe('SortedIndex', () => {
  it('keeps rows sorted and prefix counts exact under any sequence of inserts and removes', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        key: fc.integer({ min: 0, max: 50 }),
        responded: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const index = new SortedIndex(2);
        const model: { row: number; key: number; responded: boolean }[] = [];
        let next = 0;
        const tie = (a: number, b: number): number => b - a;
        for (const o of ops) {
          if (o.kind === 'insert') {
            const row = next++;
            model.push({ row, key: o.key, responded: o.responded });
            index.insert(row, o.key, o.responded, tie);
          } else if (model.length > 0) {
            const [gone] = model.splice(o.pick % model.length, 1);
            if (gone) expect(index.remove(gone.row, gone.key)).toBe(true);
          }
        }
        model.sort((a, b) => a.key - b.key || b.row - a.row);
        expect(index.size).toBe(model.length);
        expect(Array.from(index.rows.subarray(0, index.size))).toEqual(model.map((m) => m.row));
        let responded = 0;
        model.forEach((m, k) => {
          expect(index.respondedBetween(0, k)).toBe(responded);
          if (m.responded) responded++;
        });
        for (const key of [0, 10, 25, 50, 51]) {
          expect(index.lowerBound(key)).toBe(model.filter((m) => m.key < key).length);
          expect(index.upperBound(key)).toBe(model.filter((m) => m.key <= key).length);
        }
      }),
    );
  });
});
