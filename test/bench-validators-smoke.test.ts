/**
 * The validators benchmark (bench/sections/validators.ts) runs and renders: both compilers compile every
 * validator and agree on each measured value's verdict (the section throws otherwise). No speed is asserted.
 */
import { describe, expect, it } from 'vitest';
import { renderValidators, validatorsSection } from '../bench/sections/validators.ts';

describe('bench: validators section', () => {
  it('measures both compilers on the same values and renders a table', async () => {
    const result = await validatorsSection({ ms: 5, log: () => {} });
    expect(result.validators).toBeGreaterThan(150);
    expect(result.runs.map((r) => r.valid)).toEqual([true, true, false, true]);
    for (const run of result.runs) {
      expect(run.ajvPerSecond).toBeGreaterThan(0);
      expect(run.closuresPerSecond).toBeGreaterThan(0);
    }
    expect(renderValidators(result, '_stamp_')).toContain('| moderation submission body |');
  });
});
