/**
 * Consistent pseudonyms: within one recording the same input always gives the same output (so
 * relations between records survive) and the output keeps the input's shape: a digit stays a digit
 * (a 19-digit id above 2^53 stays 19 digits), leading zeros stay, letters stay letters of the same
 * case, punctuation and spaces stay. Derived with HMAC-SHA-256 under a secret of the recording, so a
 * pseudonym cannot be turned back without it.
 */
import { createHmac, randomBytes } from 'node:crypto';

export type PseudonymKind = 'value' | 'email' | 'text' | 'key';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const LETTER = /\p{L}/u;

export class Pseudonyms {
  readonly #secret: Buffer;
  /** Original to pseudonym. */
  readonly byOriginal = new Map<string, string>();
  readonly #taken = new Set<string>();

  constructor(secret: Buffer = randomBytes(32)) {
    this.#secret = secret;
  }

  #bytes(input: string, length: number): Uint8Array {
    const out = new Uint8Array(length);
    let filled = 0;
    for (let block = 0; filled < length; block++) {
      const digest = createHmac('sha256', this.#secret).update(`${block}\u0000${input}`).digest();
      out.set(digest.subarray(0, Math.min(digest.length, length - filled)), filled);
      filled += digest.length;
    }
    return out;
  }

  #shape(value: string, salt: string): string {
    const chars = [...value];
    const bytes = this.#bytes(`${salt}\u0000${value}`, chars.length);
    let leading = true;
    return chars
      .map((c, i) => {
        const b = bytes[i] ?? 0;
        if (c >= '0' && c <= '9') {
          if (leading && c === '0') return '0';
          const first = leading;
          leading = false;
          return first ? String(1 + (b % 9)) : String(b % 10);
        }
        leading = false;
        if (c >= 'A' && c <= 'Z') return UPPER[b % 26] ?? 'X';
        if (LETTER.test(c)) return LOWER[b % 26] ?? 'x';
        return c;
      })
      .join('');
  }

  #make(value: string, kind: PseudonymKind, attempt: number): string {
    const salt = `${kind}:${attempt}`;
    if (kind === 'key')
      return `cca_scrubbed_${Buffer.from(this.#bytes(`${salt}:${value}`, 12)).toString('hex')}`;
    if (kind === 'text') return `[text ${Buffer.from(this.#bytes(`${salt}:${value}`, 4)).toString('hex')}]`;
    if (kind === 'email') {
      const at = value.lastIndexOf('@');
      const local = at < 0 ? value : value.slice(0, at);
      return `${this.#shape(local, salt)}@example.invalid`;
    }
    return this.#shape(value, salt);
  }

  /** The pseudonym of `value` (the same one every time in this recording). */
  of(value: string, kind: PseudonymKind = 'value'): string {
    const known = this.byOriginal.get(value);
    if (known !== undefined) return known;
    for (let attempt = 0; ; attempt++) {
      const candidate = this.#make(value, kind, attempt);
      // A pseudonym equal to an original or to another pseudonym would merge two people into one.
      if (candidate !== value && !this.#taken.has(candidate) && !this.byOriginal.has(candidate)) {
        this.byOriginal.set(value, candidate);
        this.#taken.add(candidate);
        return candidate;
      }
      if (attempt > 50) {
        const fallback = `${candidate}~${this.byOriginal.size}`;
        this.byOriginal.set(value, fallback);
        this.#taken.add(fallback);
        return fallback;
      }
    }
  }
}
