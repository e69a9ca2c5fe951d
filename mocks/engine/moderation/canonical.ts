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
  // JSON.stringify writes strings, numbers and literals as canonical JSON does, so a copy with every
  // object's keys inserted in code-unit order is written natively; only keys that JavaScript orders
  // by number whatever their insertion (array indices: "2" before "10") need the writer below.
  const sorted = sortedCopy(value);
  return sorted === NUMERIC_KEYS ? writeCanonical(value) : JSON.stringify(sorted);
}

const NUMERIC_KEYS: unique symbol = Symbol('numeric keys');

/**
 * `value` with its objects' keys in code-unit order, or `NUMERIC_KEYS` when an object has an index key.
 * A part already in order is returned as it is, not copied.
 */
function sortedCopy(value: unknown): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not a JSON number`);
      return value;
    case 'object': {
      if (Array.isArray(value)) {
        let out: unknown[] | undefined;
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          const sorted = sortedCopy(item);
          if (sorted === NUMERIC_KEYS) return NUMERIC_KEYS;
          if (sorted !== item && out === undefined) out = value.slice(0, i);
          out?.push(sorted);
        }
        return out ?? value;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      let changed = !inCodeUnitOrder(keys);
      if (changed) keys.sort(compareCodeUnits);
      const items: unknown[] = new Array(keys.length);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const first = key.charCodeAt(0);
        if (first >= 48 && first <= 57) return NUMERIC_KEYS;
        const item = record[key];
        const sorted = sortedCopy(item);
        if (sorted === NUMERIC_KEYS) return NUMERIC_KEYS;
        if (sorted !== item) changed = true;
        items[i] = sorted;
      }
      if (!changed) return record;
      // A plain object, filled in order (a prototype-less one is a dictionary, slower to build and to
      // write); a "__proto__" key is defined, not assigned, so it stays an own property as JSON.parse
      // makes it.
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        if (key === '__proto__')
          Object.defineProperty(out, key, {
            value: items[i],
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[key] = items[i];
      }
      return out;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not a JSON value`);
  }
}

/** Canonical JSON written token by token: for values with keys JavaScript would reorder. */
function writeCanonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + writeCanonical(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort(compareCodeUnits);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    out += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${writeCanonical(record[key])}`;
  }
  return `${out}}`;
}

/** Whether the keys are sorted already (a client that writes canonical JSON sends them so). */
function inCodeUnitOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if ((keys[i - 1] as string) > (keys[i] as string)) return false;
  return true;
}

/** Plain `<`/`>` on strings compares UTF-16 code units, which is the order JCS asks for. */
function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}

/**
 * FNV-1a 64 of the UTF-8 bytes of `text`, as 16 lowercase hex digits, in two 32-bit halves kept as
 * int32 (no BigInt, no double in the loop: a double's division and its hex text were half the cost).
 *
 * @example
 * fnv1a64('') // 'cbf29ce484222325'
 * fnv1a64('a') // 'af63dc4c8601ec8c'
 */
export function fnv1a64(text: string): string {
  // The offset basis 0xcbf29ce484222325 as two 32-bit halves.
  let hi = 0xcbf29ce4 | 0;
  let lo = 0x84222325 | 0;
  // The UTF-8 bytes are made here, as TextEncoder makes them (a lone surrogate is U+FFFD), without
  // the buffer it allocates: that buffer was half the cost of hashing a submission.
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      // One byte: the step below, written out (most of a submission is ASCII).
      lo ^= code;
      hi = (Math.imul(hi, 0x1b3) + carryTimesPrime(lo) + (lo << 8)) | 0;
      lo = Math.imul(lo, 0x1b3);
      continue;
    }
    let bytes: number;
    let count: number;
    if (code < 0x800) {
      bytes = ((0xc0 | (code >> 6)) << 8) | (0x80 | (code & 0x3f));
      count = 2;
    } else {
      if (code >= 0xd800 && code <= 0xdfff) {
        const low = code <= 0xdbff ? text.charCodeAt(i + 1) : Number.NaN;
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i++;
        } else code = 0xfffd;
      }
      if (code < 0x10000) {
        bytes = ((0xe0 | (code >> 12)) << 16) | ((0x80 | ((code >> 6) & 0x3f)) << 8) | (0x80 | (code & 0x3f));
        count = 3;
      } else {
        bytes =
          ((0xf0 | (code >> 18)) << 24) |
          ((0x80 | ((code >> 12) & 0x3f)) << 16) |
          ((0x80 | ((code >> 6) & 0x3f)) << 8) |
          (0x80 | (code & 0x3f));
        count = 4;
      }
    }
    for (let k = count - 1; k >= 0; k--) {
      lo ^= (bytes >>> (8 * k)) & 0xff;
      // Times the prime 2^40 + 0x1b3: the low half is lo * 0x1b3 mod 2^32, its part above 32 bits
      // carries into hi, and the 2^40 term moves lo 8 bits up into hi.
      hi = (Math.imul(hi, 0x1b3) + carryTimesPrime(lo) + (lo << 8)) | 0;
      lo = Math.imul(lo, 0x1b3);
    }
  }
  return hexOf(hi) + hexOf(lo);
}

/** The bits above 32 of the unsigned `lo` times 0x1b3, from its 16-bit halves (each product is exact). */
function carryTimesPrime(lo: number): number {
  return ((lo >>> 16) * 0x1b3 + (((lo & 0xffff) * 0x1b3) >>> 16)) >>> 16;
}

/** Two hex digits per byte value. */
const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, byte) =>
  byte.toString(16).padStart(2, '0'),
);

/** A 32-bit half as 8 hex digits, sign ignored. */
function hexOf(half: number): string {
  return (
    (HEX_BYTES[half >>> 24] as string) +
    (HEX_BYTES[(half >>> 16) & 0xff] as string) +
    (HEX_BYTES[(half >>> 8) & 0xff] as string) +
    (HEX_BYTES[half & 0xff] as string)
  );
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
