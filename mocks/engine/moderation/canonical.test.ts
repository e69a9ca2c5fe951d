import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, contentFingerprint, fnv1a64 } from './canonical.ts';

/** Reference FNV-1a 64 with BigInt, to check the limb arithmetic. */
function referenceFnv(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

/** Canonical JSON as RFC 8785 describes it for JSON.parse values, written the plain way. */
function referenceCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(referenceCanonical).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceCanonical(record[k])}`).join(',')}}`;
}

/** Rebuilds a JSON value with every object's keys in a shuffled order. */
function permuteKeys(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => permuteKeys(item, order));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of order(Object.keys(record))) {
    // defineProperty, so a `__proto__` key stays an own property as JSON.parse makes it.
    Object.defineProperty(out, key, {
      value: permuteKeys(record[key], order),
      enumerable: true,
      writable: true,
    });
  }
  return out;
}

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops whitespace', () => {
    const parsed = JSON.parse('{ "b" : 1,\n "a": { "z": [ true, null, "x y" ], "y": -0.5e3 } }');
    expect(canonicalJson(parsed)).toBe('{"a":{"y":-500,"z":[true,null,"x y"]},"b":1}');
  });

  it('sorts by UTF-16 code units (RFC 8785)', () => {
    expect(canonicalJson({ é: 1, z: 2, '😀': 3, '': 4 })).toBe('{"":4,"z":2,"é":1,"😀":3}');
  });

  it('equals the plain writer on any JSON value, index keys and __proto__ included', () => {
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom('10', '2', '0', '01', '4294967295', '9a', '__proto__', 'constructor', '', 'é'),
    );
    const value = fc.letrec((tie) => ({
      json: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(tie('json'), { maxLength: 4 }),
        fc.dictionary(key, tie('json'), { maxKeys: 5 }),
      ),
    })).json;
    fc.assert(
      fc.property(value, (v) => {
        // Through JSON text, as a request body arrives: keys are own properties in the order sent.
        const parsed: unknown = JSON.parse(JSON.stringify(v));
        expect(canonicalJson(parsed)).toBe(referenceCanonical(parsed));
      }),
      { numRuns: 1000 },
    );
    expect(canonicalJson(JSON.parse('{"b":{"10":1,"2":2},"a":[{"__proto__":{"y":1,"x":2}}]}'))).toBe(
      '{"a":[{"__proto__":{"x":2,"y":1}}],"b":{"10":1,"2":2}}',
    );
  });

  it('refuses values that are not JSON', () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
  });

  it('canonical content: any key permutation and any re-indentation gives the same canonical JSON', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.integer({ min: 0, max: 8 }),
        fc.infiniteStream(fc.double()),
        (value, indent, rnd) => {
          const shuffled = permuteKeys(value, (keys) => {
            const weights = new Map(keys.map((key) => [key, rnd.next().value]));
            return [...keys].sort((a, b) => (weights.get(a) ?? 0) - (weights.get(b) ?? 0));
          });
          const reparsed: unknown = JSON.parse(JSON.stringify(shuffled, null, indent));
          expect(canonicalJson(reparsed)).toBe(canonicalJson(value));
          expect(contentFingerprint(reparsed)).toBe(contentFingerprint(value));
        },
      ),
    );
  });

  it('round-trips: the canonical text parses back to an equal value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('fnv1a64', () => {
  it('matches the published test vectors', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });

  it('matches a BigInt reference on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(fnv1a64(text)).toBe(referenceFnv(text));
      }),
    );
  });

  it('hashes the bytes TextEncoder makes of any UTF-16, lone and swapped surrogates included', () => {
    // Code units of every width, surrogates alone, in pairs and the wrong way round.
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0x7ff }),
      fc.integer({ min: 0x800, max: 0xffff }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 24 }), (units) => {
        const text = String.fromCharCode(...units);
        expect(fnv1a64(text)).toBe(referenceFnv(text));
      }),
      { numRuns: 2000 },
    );
    expect(fnv1a64('\ud800')).toBe(referenceFnv('\ufffd'));
    expect(fnv1a64('\udc00\ud800')).toBe(referenceFnv('\ufffd\ufffd'));
    expect(fnv1a64('\ud83d\ude00')).toBe(referenceFnv('😀'));
  });
});
