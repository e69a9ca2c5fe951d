import { describe, expect, it } from 'vitest';
import { canonicalAnswer } from './reads-date-only.ts';

const FROM = Date.parse('2024-03-01T00:00:00.000Z');
const TO = Date.parse('2024-03-05T00:00:00.000Z');

describe('canonicalAnswer (ANALYTICS-WINDOW-DATE-RULES)', () => {
  it('puts aside the window as echoed in either form', () => {
    const dateOnly = { window: { from: '2024-03-01', to: '2024-03-05' }, rows: [1, 2] };
    const stamped = {
      window: { from: '2024-03-01T00:00:00.000Z', to: '2024-03-05T00:00:00Z' },
      rows: [1, 2],
    };
    expect(canonicalAnswer(dateOnly, FROM, TO)).toEqual(canonicalAnswer(stamped, FROM, TO));
  });

  it('keeps every other figure and date, so one more counted day still differs', () => {
    const a = { rows: [{ day: '2024-03-04', count: 3 }] };
    const b = {
      rows: [
        { day: '2024-03-04', count: 3 },
        { day: '2024-03-05T12:00:00Z', count: 1 },
      ],
    };
    expect(canonicalAnswer(a, FROM, TO)).not.toEqual(canonicalAnswer(b, FROM, TO));
    expect(canonicalAnswer({ n: 4 }, FROM, TO)).not.toEqual(canonicalAnswer({ n: 5 }, FROM, TO));
  });

  it('reads lists in any order and objects in any key order', () => {
    const a = {
      data: [
        { q: 'b', n: 1 },
        { n: 2, q: 'a' },
      ],
    };
    const b = {
      data: [
        { q: 'a', n: 2 },
        { q: 'b', n: 1 },
      ],
    };
    expect(canonicalAnswer(a, FROM, TO)).toEqual(canonicalAnswer(b, FROM, TO));
  });
});
