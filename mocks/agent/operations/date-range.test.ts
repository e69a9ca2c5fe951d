import { describe, expect, it } from 'vitest';
import { type RelativeRange, resolveDateRange } from './date-range.ts';

// Friday 2026-11-20 12:00 UTC.
const NOW = Date.parse('2026-11-20T12:00:00Z');
const resolve = (relative: RelativeRange) => {
  const r = resolveDateRange({ relative }, NOW, '/dateRange');
  if (!r.ok) throw new Error(r.message);
  return { from: new Date(r.window.from).toISOString(), to: new Date(r.window.to).toISOString() };
};

describe('dateRange resolution on the engine clock (UTC)', () => {
  it('rolling (calendar false): count units ending now; includeCurrent has no effect', () => {
    expect(resolve({ unit: 'day', count: 7 })).toEqual({
      from: '2026-11-13T12:00:00.000Z',
      to: '2026-11-20T12:00:00.000Z',
    });
    expect(resolve({ unit: 'day', count: 7, includeCurrent: false })).toEqual(
      resolve({ unit: 'day', count: 7 }),
    );
    expect(resolve({ unit: 'month', count: 1 })).toEqual({
      from: '2026-10-20T12:00:00.000Z',
      to: '2026-11-20T12:00:00.000Z',
    });
    expect(resolve({ unit: 'hour', count: 2 }).from).toBe('2026-11-20T10:00:00.000Z');
  });

  it('calendar with includeCurrent: the current partial unit and count - 1 before it, up to now', () => {
    expect(resolve({ unit: 'day', count: 1, calendar: true })).toEqual({
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-20T12:00:00.000Z',
    });
    expect(resolve({ unit: 'week', count: 2, calendar: true, includeCurrent: true }).from).toBe(
      '2026-11-09T00:00:00.000Z',
    );
    expect(resolve({ unit: 'quarter', count: 1, calendar: true }).from).toBe('2026-10-01T00:00:00.000Z');
    expect(resolve({ unit: 'year', count: 1, calendar: true }).from).toBe('2026-01-01T00:00:00.000Z');
  });

  it('calendar without includeCurrent: the count complete units before the current one, end inclusive', () => {
    expect(resolve({ unit: 'day', count: 1, calendar: true, includeCurrent: false })).toEqual({
      from: '2026-11-19T00:00:00.000Z',
      to: '2026-11-19T23:59:59.999Z',
    });
    expect(resolve({ unit: 'week', count: 1, calendar: true, includeCurrent: false })).toEqual({
      from: '2026-11-09T00:00:00.000Z',
      to: '2026-11-15T23:59:59.999Z',
    });
    expect(resolve({ unit: 'month', count: 2, calendar: true, includeCurrent: false })).toEqual({
      from: '2026-09-01T00:00:00.000Z',
      to: '2026-10-31T23:59:59.999Z',
    });
  });

  it('explicit: REST date rules; errors name the field; absent: the past seven days', () => {
    const ok = resolveDateRange({ from: '2026-11-01', to: '2026-11-02T00:00:00+02:00' }, NOW, '/dateRange');
    expect(ok).toEqual({
      ok: true,
      window: { from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-11-01T22:00:00Z') },
    });
    expect(resolveDateRange({ from: '2026-11-01' }, NOW, '/dateRange')).toEqual({
      ok: true,
      window: { from: Date.parse('2026-11-01'), to: NOW },
    });
    const bad = resolveDateRange({ from: '2026-02-30' }, NOW, '/query/dateRange');
    expect(bad).toMatchObject({ ok: false, field: '/query/dateRange/from' });
    expect(resolveDateRange(undefined, NOW, '/dateRange')).toEqual({
      ok: true,
      window: { from: NOW - 7 * 86_400_000, to: NOW },
    });
  });
});
