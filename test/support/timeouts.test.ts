import { describe, expect, it } from 'vitest';
import { timeoutFactor } from './timeouts.ts';

describe('CCA_TEST_TIMEOUT_FACTOR', () => {
  it('is 1 when unset or empty, and the number it says otherwise', () => {
    expect(timeoutFactor(undefined)).toBe(1);
    expect(timeoutFactor(' ')).toBe(1);
    expect(timeoutFactor('2.5')).toBe(2.5);
  });

  it('refuses what is not a positive number, naming the variable', () => {
    for (const bad of ['0', '-1', 'fast', 'Infinity'])
      expect(() => timeoutFactor(bad)).toThrow(/CCA_TEST_TIMEOUT_FACTOR must be a positive number/);
  });
});
