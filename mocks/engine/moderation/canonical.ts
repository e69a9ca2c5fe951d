/**
 * Canonical JSON and a content fingerprint for moderation submissions.
 *
 * "Same content" (spec section 3, fact 5) is decided on canonical JSON: object keys sorted by UTF-16
 * code units at every depth, no whitespace between tokens, strings and numbers written as
 * `JSON.stringify` writes them. That is RFC 8785 (JCS) for the values `JSON.parse` produces, so key
 * order and insignificant whitespace in the request never change the result, while any change of a
 * value (including whitespace inside a string) does.
 *
 * The fingerprint is FNV-1a 64 over the UTF-8 bytes of the canonical JSON, in pure TypeScript: the
 * engine also runs in the browser (MSW), so no `node:crypto`.
 */

/** A JSON value as `JSON.parse` returns it. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/**
 * Writes `value` as canonical JSON.
 *
 * @example
 * canonicalJson(JSON.parse('{ "b": 1, "a": [true, null] }')) // '{"a":[true,null],"b":1}'
 * @throws TypeError when the value is not JSON (undefined, a function, a non-finite number...).
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not a JSON number`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort(compareCodeUnits);
      const members = keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
      return `{${members.join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not a JSON value`);
  }
}

/** Plain `<`/`>` on strings compares UTF-16 code units, which is the order JCS asks for. */
function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/**
 * FNV-1a 64 of the UTF-8 bytes of `text`, as 16 lowercase hex digits. Arithmetic on four 16-bit limbs
 * keeps every intermediate below 2^31 (no BigInt needed, fast on large copy fields).
 *
 * @example
 * fnv1a64('') // 'cbf29ce484222325'
 * fnv1a64('a') // 'af63dc4c8601ec8c'
 */
export function fnv1a64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  // Offset basis 0xcbf29ce484222325, least significant limb first.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (const byte of bytes) {
    h0 ^= byte;
    // Multiply by the prime 2^40 + 0x1b3: hash * 0x1b3 plus hash shifted left by 40 bits.
    const t0 = h0 * 0x1b3;
    let t1 = h1 * 0x1b3;
    let t2 = h2 * 0x1b3 + (h0 << 8);
    const t3 = h3 * 0x1b3 + (h1 << 8);
    t1 += t0 >>> 16;
    h0 = t0 & 0xffff;
    t2 += t1 >>> 16;
    h1 = t1 & 0xffff;
    h3 = (t3 + (t2 >>> 16)) & 0xffff;
    h2 = t2 & 0xffff;
  }
  return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, '0')).join('');
}

/**
 * The content fingerprint of a submission: `fnv1a64:` and the hash of its canonical JSON. Equal
 * fingerprints are treated as equal content only together with equal canonical JSON (the state
 * compares both), so a hash collision can never turn a conflict into a duplicate.
 *
 * @example
 * contentFingerprint({ b: 1, a: 2 }) === contentFingerprint({ a: 2, b: 1 }) // true
 */
export function contentFingerprint(value: unknown): string {
  return fingerprintOfCanonical(canonicalJson(value));
}

/** `contentFingerprint` of a value whose canonical JSON is already written (it is not written again). */
export function fingerprintOfCanonical(canonical: string): string {
  return `fnv1a64:${fnv1a64(canonical)}`;
}
