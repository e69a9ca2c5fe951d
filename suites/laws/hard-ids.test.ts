/**
 * The identifier shapes the identity laws send (section 2: identifiers preserved exactly) are what
 * they claim to be: every hard shape present, near misses never equal to the original, the composed
 * and decomposed forms different bytes of the same text, nothing over the moderation limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import {
  COMPOSED,
  DECOMPOSED,
  EXTERNAL_ID_MAX,
  hardExternalIds,
  hardestIds,
  hardIdSuffix,
  hardness,
  isNonAscii,
  nearMisses,
} from './hard-ids.ts';

/** Just enough of a law context for id generation. */
function context(): LawContext {
  let n = 0;
  return { unique: (label = 'x') => `cca-conform-t1-${label}-${++n}` } as Partial<LawContext> as LawContext;
}

describe('hard identifier shapes (ID-STRING-PRESERVED, ID-VARIANT-NOT-RESOLVED)', () => {
  it('hardExternalIds holds every shape the issue names, distinct, within 1..256 characters', () => {
    const ids = hardExternalIds(context());
    expect(Object.keys(ids)).toEqual([
      'digits above 2^53',
      'leading zeros',
      'surrounding whitespace',
      'inner whitespace',
      'non-ASCII letters',
      'composed form',
      'decomposed form',
      'maximum length',
    ]);
    const values = Object.values(ids);
    expect(new Set(values).size).toBe(values.length);
    for (const id of values) expect(id.length >= 1 && id.length <= EXTERNAL_ID_MAX, id).toBe(true);
    expect(BigInt(ids['digits above 2^53'] ?? '0') > 2n ** 53n).toBe(true);
    expect(ids['leading zeros']).toMatch(/^000\d+$/);
    expect(ids['surrounding whitespace']).toMatch(/^\s.*\s$/);
    expect(ids['inner whitespace']).toMatch(/^\S.*\s.*\S$/);
    expect(isNonAscii(ids['non-ASCII letters'] ?? '')).toBe(true);
    expect(ids['maximum length']).toHaveLength(EXTERNAL_ID_MAX);
    const [composed, decomposed] = [ids['composed form'] ?? '', ids['decomposed form'] ?? ''];
    expect(composed).not.toBe(decomposed);
    expect(composed.normalize('NFC')).toBe(decomposed.normalize('NFC'));
  });

  it('the composed and decomposed letters are one text in two byte forms', () => {
    expect(COMPOSED).not.toBe(DECOMPOSED);
    expect(COMPOSED.normalize('NFD')).toBe(DECOMPOSED);
    expect(DECOMPOSED.normalize('NFC')).toBe(COMPOSED);
  });

  it('near misses of any id differ from it, and include whitespace and leading-zero variants', () => {
    fc.assert(
      fc.property(fc.oneof(hardIdSuffix, fc.string({ minLength: 1, maxLength: 30 })), (id) => {
        const variants = nearMisses(id);
        expect(variants).not.toContain(id);
        expect(new Set(variants).size).toBe(variants.length);
        expect(variants).toEqual(expect.arrayContaining([` ${id}`, `${id} `, `0${id}`]));
      }),
      { seed: 15, numRuns: 200 },
    );
    expect(nearMisses(`x-${DECOMPOSED}`)).toContain(`x-${COMPOSED}`);
  });

  it('hardestIds puts the ids with hard shapes first, keeping the sample order among equals', () => {
    const sample = ['act_1', 'act_2', '1187533000000001195', '00400001198', 'agt_zoë_07', 'act_3'];
    expect(hardestIds(sample, 3)).toEqual(['agt_zoë_07', '1187533000000001195', '00400001198']);
    expect(hardness('act_1')).toBe(0);
    // A character a path must encode (or a form decoder reads as a space) makes an id hard too.
    expect(hardness('a b+c%d?e#f&g=h')).toBe(2);
    expect(hardestIds(['act_1', 'act+2'], 1)).toEqual(['act+2']);
    expect(hardestIds(['b', 'a'], 5)).toEqual(['b', 'a']);
  });
});
