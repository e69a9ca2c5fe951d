/**
 * Timestamps of a data file: ISO 8601 with a zone designator, or an offset from the anchor (the mock
 * clock when the file is loaded) such as `-2d`, `-1d12h`, `+30m`, `-90s`, `-1w` or `now`, so a
 * scenario stays inside the default seven-day window whatever day it is loaded.
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
};

const RELATIVE = /^([+-])((?:\d+(?:ms|w|d|h|m|s))+)$/;
const PART = /(\d+)(ms|w|d|h|m|s)/g;
// A zone designator is required: a timestamp without one would depend on where the file is loaded.
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Epoch ms of a data-file timestamp, or null when it is neither form. */
export function resolveTimestamp(value: string, anchor: number): number | null {
  if (value === 'now') return anchor;
  const relative = RELATIVE.exec(value);
  if (relative !== null) {
    let total = 0;
    for (const part of (relative[2] ?? '').matchAll(PART)) {
      total += Number.parseInt(part[1] ?? '0', 10) * (UNIT_MS[part[2] ?? ''] ?? 0);
    }
    if (!Number.isSafeInteger(total)) return null;
    return relative[1] === '-' ? anchor - total : anchor + total;
  }
  if (!ABSOLUTE.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** The same, for a value the validator has accepted already. */
export function timestampOrThrow(value: string, anchor: number): number {
  const ms = resolveTimestamp(value, anchor);
  if (ms === null) throw new RangeError(`not a data-file timestamp: ${JSON.stringify(value)}`);
  return ms;
}
