import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_MS, parseDateParam, resolveWindow } from './dates.ts';

const value = (raw: string): number => {
  const parsed = parseDateParam('from', raw);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};

describe('date parameters', () => {
  it('LIST-FROM-DATE-ONLY-MIDNIGHT / LIST-TO-DATE-ONLY-MIDNIGHT: a date-only value is midnight UTC of that date', () => {
    expect(value('2026-11-20')).toBe(Date.UTC(2026, 10, 20));
    expect(value('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
  });

  it('LIST-FROM-ISO-8601: timestamps with Z, offsets, fractions; no zone means UTC', () => {
    expect(value('2026-11-20T10:15:30Z')).toBe(Date.UTC(2026, 10, 20, 10, 15, 30));
    expect(value('2026-11-20T10:15:30.123Z')).toBe(Date.UTC(2026, 10, 20, 10, 15, 30, 123));
    expect(value('2026-11-20T10:15:30.123456789Z')).toBe(Date.UTC(2026, 10, 20, 10, 15, 30, 123));
    expect(value('2026-11-20T12:15:30+02:00')).toBe(Date.UTC(2026, 10, 20, 10, 15, 30));
    expect(value('2026-11-20T05:15-0500')).toBe(Date.UTC(2026, 10, 20, 10, 15));
    expect(value('2026-11-20T12:15:30+02')).toBe(Date.UTC(2026, 10, 20, 10, 15, 30));
    expect(value('2026-11-20T10:15:30')).toBe(Date.UTC(2026, 10, 20, 10, 15, 30));
    // An unencoded '+' in a URL query arrives as a space.
    expect(value('2026-11-20T12:15:30 02:00')).toBe(Date.UTC(2026, 10, 20, 10, 15, 30));
  });

  it('LIST-FROM-ISO-8601: anything else is refused with a message naming the parameter', () => {
    for (const raw of [
      '',
      'yesterday',
      '2026-13-01',
      '2026-02-30',
      '2026-11-20T25:00:00Z',
      '20261120',
      '1700000000000',
    ]) {
      const parsed = parseDateParam('to', raw);
      expect(parsed.ok, raw).toBe(false);
      if (!parsed.ok) expect(parsed.error).toContain("'to'");
    }
  });

  it('round-trips every toISOString() value', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }), (ms) => {
        expect(value(new Date(ms).toISOString())).toBe(ms);
      }),
    );
  });

  it('LIST-DEFAULT-WINDOW-7-DAYS: without from/to the window is the seven days before now', () => {
    const now = Date.UTC(2026, 10, 20, 12);
    const window = resolveWindow({}, now);
    expect(window).toEqual({ ok: true, value: { from: now - DEFAULT_WINDOW_MS, to: now } });
  });

  it('from after to is a 400-worthy error naming from', () => {
    const window = resolveWindow({ from: '2026-11-21', to: '2026-11-20' }, Date.UTC(2026, 10, 22));
    expect(window.ok).toBe(false);
    if (!window.ok) expect(window.error).toContain("'from'");
  });
});
