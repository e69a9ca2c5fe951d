import { describe, expect, it } from 'vitest';
import { MockClock } from './clock.ts';

describe('MockClock', () => {
  it('a frozen clock moves only by advance and set', () => {
    const clock = new MockClock({ start: 1000 });
    expect(clock.now()).toBe(1000);
    expect(clock.advance(500)).toBe(1500);
    expect(clock.set(10_000)).toBe(10_000);
    clock.reset();
    expect(clock.now()).toBe(1000);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.set(Number.NaN)).toThrow(RangeError);
  });

  it('a running clock follows the injected real time plus its offset', () => {
    let real = 50;
    const clock = new MockClock({ start: 1000, running: true, realNow: () => real });
    real = 80;
    expect(clock.now()).toBe(1030);
    clock.advance(100);
    expect(clock.now()).toBe(1130);
    clock.set(5000);
    real = 90;
    expect(clock.now()).toBe(5010);
    clock.reset();
    expect(clock.now()).toBe(1000);
  });
});
