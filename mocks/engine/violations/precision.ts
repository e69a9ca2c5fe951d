/**
 * Precision loss: the signature of a client that parsed an identifier as a JSON number (an IEEE-754
 * double) and printed it back. `9007199254740993123` comes back as `9007199254740993000`; `000417`
 * comes back as `417`. Given the id a client sent, `doubleRoundTripPreimages` lists every decimal id
 * that such a client could have been given; a resolver then says which of them the engine knows.
 *
 * No index is kept: the preimages of a double are the integers within half a unit in the last place of
 * it (at most a few hundred for 19-digit ids), each with optional leading zeros, and a lookup of one
 * id is a map or row-decoder hit. So the check costs nothing at seeding or on insert, and is paid only
 * on a 404 whose id is a double's print.
 */

/** What a client that parsed `digits` as a JSON number prints back (deliberately lossy). */
export function printedAfterDoubleParse(digits: string): string {
  // The one place that converts an identifier to a number: it simulates the client bug we detect.
  return String(Number(digits));
}

/** A double's decimal print of an integer below 1e21: no sign, no leading zero, no exponent. */
const DOUBLE_PRINT = /^(?:0|[1-9]\d{0,20})$/;
const TWO_POW_53 = 2n ** 53n;

export interface PreimageOptions {
  /** Longest candidate, leading zeros included. Default 24. */
  readonly maxLength?: number;
  /** At most this many candidates (nearest integers first). Default 262144: complete up to 20 digits. */
  readonly maxCandidates?: number;
}

/**
 * Every decimal id, other than `sent` itself, that prints as `sent` after a parse into a double: the
 * integers that round to the same double (nearest first), each also with leading zeros. Lazy, so a
 * caller can stop at the first known one. Nothing when `sent` is not what a double prints (then no
 * client bug of this kind produced it).
 *
 * @example
 * [...doubleRoundTripPreimages('417')].includes('000417'); // true
 * [...doubleRoundTripPreimages('9007199254740993000')].includes('9007199254740993123'); // true
 */
export function* doubleRoundTripPreimages(sent: string, options: PreimageOptions = {}): Generator<string> {
  const maxLength = options.maxLength ?? 24;
  const maxCandidates = options.maxCandidates ?? 262_144;
  if (!DOUBLE_PRINT.test(sent) || printedAfterDoubleParse(sent) !== sent) return;
  // The exact integer the double holds (its print is shorter: 9007199254740993000 holds ...992,976).
  const value = BigInt(Number(sent));
  // Integers up to 2^53 are exact; above, a double stands for every integer within half its ulp.
  const half = value <= TWO_POW_53 ? 0n : 2n ** BigInt(value.toString(2).length - 53) / 2n;
  let count = 0;
  for (let step = 0n; step <= 2n * half; step++) {
    // value, value + 1, value - 1, value + 2...: the nearest integers first.
    const k = step % 2n === 0n ? value - step / 2n : value + (step + 1n) / 2n;
    const digits = k.toString();
    if (k < 0n || printedAfterDoubleParse(digits) !== sent) continue;
    for (let width = digits.length; width <= maxLength; width++) {
      const candidate = digits.padStart(width, '0');
      if (candidate === sent) continue;
      yield candidate;
      if (++count >= maxCandidates) return;
    }
  }
}
