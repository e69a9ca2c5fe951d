import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { doubleRoundTripPreimages, printedAfterDoubleParse } from './precision.ts';

describe('doubleRoundTripPreimages (ID-STRING-PRESERVED: the signature of an id parsed as a number)', () => {
  it('finds an id above 2^53 from what a double prints for it', () => {
    expect(printedAfterDoubleParse('9007199254740993123')).toBe('9007199254740993000');
    expect([...doubleRoundTripPreimages('9007199254740993000')]).toContain('9007199254740993123');
  });

  it('finds an id with leading zeros from its number', () => {
    expect([...doubleRoundTripPreimages('417')]).toContain('000417');
    expect([...doubleRoundTripPreimages('815')]).toContain('000000815');
  });

  it('gives nothing for text that no double prints', () => {
    expect([...doubleRoundTripPreimages('9007199254740993')]).toEqual([]); // a double prints ...992
    expect([...doubleRoundTripPreimages('agt_7Hq2LmX9')]).toEqual([]);
    expect([...doubleRoundTripPreimages('0417')]).toEqual([]);
    expect([...doubleRoundTripPreimages('')]).toEqual([]);
  });

  it('never lists the sent id itself', () => {
    expect([...doubleRoundTripPreimages('417')]).not.toContain('417');
  });

  it('property: every decimal id of up to 20 digits is found from its double print', () => {
    const id = fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 20n - 1n }), fc.nat({ max: 3 }))
      .map(([value, zeros]) => '0'.repeat(zeros) + value.toString());
    fc.assert(
      fc.property(id, (known) => {
        const sent = printedAfterDoubleParse(known);
        fc.pre(sent !== known);
        expect([...doubleRoundTripPreimages(sent)]).toContain(known);
      }),
      { numRuns: 50 },
    );
  });
});
