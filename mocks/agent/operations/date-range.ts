/**
 * `dateRange` of the agent operations, resolved on the engine clock into the inclusive window the
 * REST reads use (`from <= createdAt <= to`).
 *
 * - Explicit `{from, to?}`: the REST date rules (date-only is midnight UTC, `to` inclusive, `to`
 *   defaults to now).
 * - Rolling `{relative: {unit, count, calendar: false}}`: the `count` units before now, ending now.
 *   `includeCurrent` has nothing to cut in a rolling window and is ignored (reported in meta).
 * - Calendar `{relative: {unit, count, calendar: true, includeCurrent}}`: aligned to unit boundaries
 *   in UTC (days at midnight, weeks on Monday, months and years on the first). `includeCurrent: true`
 *   (default) covers the current, partial unit and the `count - 1` before it, up to now;
 *   `includeCurrent: false` covers the `count` complete units before the current one.
 * - Absent: the past seven days ending now (the REST default window).
 */

import { weekStart } from '../../engine/records/analytics.ts';
import { DAY, DEFAULT_WINDOW_MS, parseDateParam, type Window } from '../../engine/records/dates.ts';

export const RELATIVE_UNITS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
export type RelativeUnit = (typeof RELATIVE_UNITS)[number];

export interface RelativeRange {
  readonly unit: RelativeUnit;
  readonly count: number;
  readonly calendar?: boolean;
  readonly includeCurrent?: boolean;
}

export type DateRangeInput =
  | { readonly relative: RelativeRange }
  | { readonly from: string; readonly to?: string };

export type Resolved =
  | { readonly ok: true; readonly window: Window }
  | { readonly ok: false; readonly field: string; readonly message: string };

const HOUR = 3_600_000;

/** Start (UTC) of the unit containing `ms`, moved by `shift` units (negative: earlier). */
export function unitStart(unit: RelativeUnit, ms: number, shift = 0): number {
  const d = new Date(ms);
  switch (unit) {
    case 'hour':
      return Math.floor(ms / HOUR) * HOUR + shift * HOUR;
    case 'day':
      return Math.floor(ms / DAY) * DAY + shift * DAY;
    case 'week':
      return weekStart(ms) + shift * 7 * DAY;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + shift, 1);
    case 'quarter':
      return Date.UTC(d.getUTCFullYear(), Math.floor(d.getUTCMonth() / 3) * 3 + shift * 3, 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear() + shift, 0, 1);
  }
}

/** `ms` moved back by `count` units, keeping the time of day (months clamp to the month's end). */
function unitsBefore(unit: RelativeUnit, ms: number, count: number): number {
  switch (unit) {
    case 'hour':
      return ms - count * HOUR;
    case 'day':
      return ms - count * DAY;
    case 'week':
      return ms - count * 7 * DAY;
    case 'month':
    case 'quarter':
    case 'year': {
      const months = unit === 'month' ? count : unit === 'quarter' ? 3 * count : 12 * count;
      const d = new Date(ms);
      const target = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1);
      const t = new Date(target);
      const lastDay = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate();
      const day = Math.min(d.getUTCDate(), lastDay);
      return target + (day - 1) * DAY + (ms - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
    }
  }
}

/** Resolves a validated `dateRange` (or its absence) at `now`; `field` is the JSON pointer of the range. */
export function resolveDateRange(range: DateRangeInput | undefined, now: number, field: string): Resolved {
  if (range === undefined) return { ok: true, window: { from: now - DEFAULT_WINDOW_MS, to: now } };
  if ('relative' in range) {
    const { unit, count } = range.relative;
    if (range.relative.calendar !== true)
      return { ok: true, window: { from: unitsBefore(unit, now, count), to: now } };
    if (range.relative.includeCurrent !== false) {
      return { ok: true, window: { from: unitStart(unit, now, -(count - 1)), to: now } };
    }
    const currentStart = unitStart(unit, now);
    return { ok: true, window: { from: unitStart(unit, now, -count), to: currentStart - 1 } };
  }
  const from = parseDateParam('from', range.from);
  if (!from.ok) return { ok: false, field: `${field}/from`, message: plain(from.error, 'from', field) };
  let to = now;
  if (range.to !== undefined) {
    const parsed = parseDateParam('to', range.to);
    if (!parsed.ok) return { ok: false, field: `${field}/to`, message: plain(parsed.error, 'to', field) };
    to = parsed.value;
  }
  if (from.value > to) {
    return {
      ok: false,
      field: `${field}/from`,
      message: `${dotted(field)}.from (${new Date(from.value).toISOString()}) is after ${dotted(field)}.to (${new Date(to).toISOString()})`,
    };
  }
  return { ok: true, window: { from: from.value, to } };
}

const dotted = (pointer: string): string => pointer.slice(1).replaceAll('/', '.');

/** The REST parser's message speaks of a query parameter; here it is an input field. */
function plain(message: string, name: 'from' | 'to', field: string): string {
  return message.replace(`Query parameter '${name}'`, `${dotted(field)}.${name}`);
}

export const isoWindow = (window: Window): { from: string; to: string } => ({
  from: new Date(window.from).toISOString(),
  to: new Date(window.to).toISOString(),
});
