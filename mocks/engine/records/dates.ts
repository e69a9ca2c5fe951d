/**
 * `from` / `to` of the read operations (spec 4.1): an ISO 8601 date (midnight UTC) or a timestamp.
 * A timestamp without a zone designator is read as UTC. Because an unencoded `+` in a URL query
 * decodes to a space, an offset written ` 02:00` is read as `+02:00`. `to` is inclusive, and a
 * date-only `to` is midnight UTC of that date, not its end.
 */

export const DAY = 86_400_000;
/** The default window of the list and the analytics: the past seven days. */
export const DEFAULT_WINDOW_MS = 7 * DAY;

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string };

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+\- ]\d{2}(?::?\d{2})?)?$/;

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

/** Parses one date parameter; the error names the parameter. */
export function parseDateParam(name: string, raw: string): Parsed<number> {
  const text = raw.trim();
  const bad = (): Parsed<number> => ({
    ok: false,
    error: `Query parameter '${name}' must be an ISO 8601 date (YYYY-MM-DD) or timestamp, got '${raw}'`,
  });
  const date = DATE_ONLY.exec(text);
  if (date) {
    const [y, m, d] = [date[1], date[2], date[3]].map((v) => Number.parseInt(v ?? '', 10)) as [
      number,
      number,
      number,
    ];
    if (!validDate(y, m, d)) return bad();
    return { ok: true, value: Date.UTC(y, m - 1, d) };
  }
  const ts = TIMESTAMP.exec(text);
  if (!ts) return bad();
  const n = (i: number): number => Number.parseInt(ts[i] ?? '0', 10);
  const [y, mo, d, h, mi, s] = [n(1), n(2), n(3), n(4), n(5), n(6)];
  if (!validDate(y, mo, d) || h > 23 || mi > 59 || s > 59) return bad();
  const ms = Math.floor(Number.parseInt(((ts[7] ?? '') + '000').slice(0, 3), 10));
  let offsetMin = 0;
  const zone = ts[8];
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number.parseInt(digits.slice(0, 2), 10);
    const om = digits.length > 2 ? Number.parseInt(digits.slice(2, 4), 10) : 0;
    if (oh > 23 || om > 59) return bad();
    offsetMin = sign * (oh * 60 + om);
  }
  return { ok: true, value: Date.UTC(y, mo - 1, d, h, mi, s, ms) - offsetMin * 60_000 };
}

export interface Window {
  readonly from: number;
  readonly to: number;
}

/**
 * Resolves `from`/`to` against the clock: both absent → the past seven days ending now; only `to`
 * → the seven days before `to`; only `from` → from `from` to now. `from` after `to` is an error.
 */
export function resolveWindow(query: Readonly<Record<string, unknown>>, now: number): Parsed<Window> {
  const rawFrom = query['from'];
  const rawTo = query['to'];
  let from: number | undefined;
  let to: number | undefined;
  if (rawFrom !== undefined) {
    const parsed = parseDateParam('from', String(rawFrom));
    if (!parsed.ok) return parsed;
    from = parsed.value;
  }
  if (rawTo !== undefined) {
    const parsed = parseDateParam('to', String(rawTo));
    if (!parsed.ok) return parsed;
    to = parsed.value;
  }
  const end = to ?? now;
  const start = from ?? end - DEFAULT_WINDOW_MS;
  if (start > end) {
    return {
      ok: false,
      error: `Query parameter 'from' (${new Date(start).toISOString()}) is after 'to' (${new Date(end).toISOString()})`,
    };
  }
  return { ok: true, value: { from: start, to: end } };
}
