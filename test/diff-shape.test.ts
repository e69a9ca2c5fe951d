/** Properties of the structural comparison behind `cca-kit diff` (src/diff/shape.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareShapes, shapeOf } from '../src/diff/shape.ts';

const never = () => false;
const key = fc.stringMatching(/^[a-y][A-Za-z0-9]{0,8}$/);
const records = fc.array(fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }), {
  minLength: 1,
  maxLength: 6,
});

describe('diff shapes', () => {
  it('a body compared with itself shows no difference', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 5 }),
        (v) => compareShapes(shapeOf(v), shapeOf(v), never).length === 0,
      ),
    );
  });

  it('values never matter: the same structure with other strings and numbers shows no difference', () => {
    fc.assert(
      fc.property(records, fc.string(), fc.integer(), (items, text, n) => {
        const other = items.map((o) =>
          Object.fromEntries(
            Object.entries(o).map(([k, v]) => [
              k,
              typeof v === 'string' ? text : typeof v === 'number' ? n : v,
            ]),
          ),
        );
        return compareShapes(shapeOf(items), shapeOf(other), never).length === 0;
      }),
    );
  });

  it('a key added to every live item is exactly one live-only difference; removed, one mock-only', () => {
    fc.assert(
      fc.property(records, (items) => {
        const live = items.map((o) => ({ ...o, zExtra: 1 }));
        expect(compareShapes(shapeOf(items), shapeOf(live), never)).toEqual([
          {
            kind: 'live-only',
            aspect: 'presence',
            path: '$[].zExtra',
            detail: 'only live has $[].zExtra (number)',
          },
        ]);
        expect(compareShapes(shapeOf(live), shapeOf(items), never).map((d) => [d.kind, d.path])).toEqual([
          ['mock-only', '$[].zExtra'],
        ]);
      }),
    );
  });

  it('a key always null on one side and never on the other is a nullability mismatch; the ignore list hides it', () => {
    const mock = shapeOf({ data: [{ title: 'a' }, { title: 'b' }] });
    const live = shapeOf({ data: [{ title: null }] });
    expect(compareShapes(mock, live, never).map((d) => [d.kind, d.aspect, d.path])).toEqual([
      ['mismatch', 'nullability', '$.data[].title'],
    ]);
    expect(compareShapes(mock, live, (p) => p.startsWith('$.data[].title'))).toEqual([]);
  });

  it('ids stay strings: an id above 2^53 with leading zeros is a string, not a number', () => {
    const shape = shapeOf(JSON.parse('{"id":"0009007199254740993","n":9007199254740993}'));
    expect([...(shape.get('$.id') ?? [])]).toEqual(['string']);
    expect([...(shape.get('$.n') ?? [])]).toEqual(['number']);
  });

  it('a deeply nested or huge body is walked within bounds (no stack overflow, no hang)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i += 1) deep = [deep];
    expect(shapeOf(deep).size).toBeLessThanOrEqual(65);
    expect(shapeOf(Array.from({ length: 300_000 }, () => ({ a: 1 }))).size).toBe(3);
  });
});
