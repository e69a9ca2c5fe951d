import { describe, expect, it } from 'vitest';
import { normalizeChaos, parseLatency } from './config.ts';
import { chaosOptionsFromFlags, describeChaos } from './flags.ts';

describe('chaos options', () => {
  it('defaults to every mode off', () => {
    expect(normalizeChaos()).toEqual({
      unknownFields: false,
      bigIds: false,
      latency: null,
      errorRate: 0,
      dropRate: 0,
      seed: 1,
    });
  });

  it('reads latency as "min-max", a single value, a number or a range object', () => {
    expect(parseLatency('50-300')).toEqual({ minMs: 50, maxMs: 300 });
    expect(parseLatency('120')).toEqual({ minMs: 120, maxMs: 120 });
    expect(parseLatency(7)).toEqual({ minMs: 7, maxMs: 7 });
    expect(parseLatency(null)).toBeNull();
    expect(() => parseLatency('300-50')).toThrow(/must not exceed/);
    expect(() => parseLatency('fast')).toThrow(/50-300/);
  });

  it('rejects rates outside 0..1 and keeps what a patch does not name', () => {
    expect(() => normalizeChaos({ errorRate: 1.5 })).toThrow(/errorRate must be a number from 0 to 1/);
    const base = normalizeChaos({ errorRate: 0.5, seed: 3 });
    expect(normalizeChaos({ unknownFields: true }, base)).toMatchObject({
      errorRate: 0.5,
      seed: 3,
      unknownFields: true,
    });
  });

  it('reads the --chaos-* flags of cca-kit mock', () => {
    const options = chaosOptionsFromFlags({
      'chaos-unknown-fields': true,
      'chaos-big-ids': true,
      'chaos-latency': '50-300',
      'chaos-error-rate': '0.05',
      'chaos-drop-rate': '0.01',
      'chaos-seed': '7',
    });
    expect(normalizeChaos(options)).toEqual({
      unknownFields: true,
      bigIds: true,
      latency: { minMs: 50, maxMs: 300 },
      errorRate: 0.05,
      dropRate: 0.01,
      seed: 7,
    });
    expect(describeChaos(options)).toBe(
      'chaos: unknown fields, big ids, latency 50-300 ms, error rate 0.05, drop rate 0.01, seed 7',
    );
    expect(() => chaosOptionsFromFlags({ 'chaos-error-rate': '5%' })).toThrow(/--chaos-error-rate/);
    expect(() => chaosOptionsFromFlags({ 'chaos-latency': 'slow' })).toThrow(/--chaos-latency/);
  });
});
