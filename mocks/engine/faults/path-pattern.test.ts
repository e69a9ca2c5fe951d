import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathPattern } from './input.ts';

/** The meaning the pattern had as a regular expression: `*` any run, the rest literal, whole path. */
const asRegExp = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

describe('a fault path pattern', () => {
  it('matches exactly what the wildcard means (a property against the regular expression on small inputs)', () => {
    const chars = fc.constantFrom('a', 'b', '/', '*', '.');
    fc.assert(
      fc.property(
        fc.string({ unit: chars, maxLength: 8 }),
        fc.string({ unit: chars, maxLength: 10 }),
        (p, t) => {
          const text = t.replaceAll('*', 'x');
          expect(pathPattern(p).test(text)).toBe(asRegExp(p).test(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('answers at once for a pattern of many stars that a regular expression takes minutes on', () => {
    const pattern = `${'*a'.repeat(1000)}b`;
    const text = `/${'a'.repeat(2000)}`;
    // Linear walk: 3000 × 2000 steps at most; it returns (a regex of this shape would not, in practice).
    expect(pathPattern(pattern).test(text)).toBe(false);
    expect(pathPattern(pattern).test(`${text}b`)).toBe(true);
  });
});
