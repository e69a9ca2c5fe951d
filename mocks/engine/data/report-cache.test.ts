import { describe, expect, it } from 'vitest';
import { REPORT_CACHE_CAPACITY, rememberedReport, rowChanged } from './report-cache.ts';
import { createDataState, orgData } from './state.ts';

const START = Date.parse('2026-11-20T12:00:00Z');

describe('remembered reports', () => {
  const org = () =>
    orgData(createDataState({ seed: 3, actions: 200, clock: { now: () => START } }), 'org_acme');
  const week = { from: START - 7 * 86_400_000, to: START };

  it('builds once per range and parameters, again after any row changes', () => {
    const data = org();
    let builds = 0;
    const build = () => ({ n: ++builds });
    const first = rememberedReport(data, 'r', week, [1], build);
    expect(rememberedReport(data, 'r', week, [1], build)).toBe(first);
    // Another window covering the same rows is the same range: still one build.
    expect(rememberedReport(data, 'r', { ...week, to: week.to + 1 }, [1], build)).toBe(first);
    rememberedReport(data, 'r', week, [2], build);
    rememberedReport(data, 'other', week, [1], build);
    expect(builds).toBe(3);
    rowChanged(data, 0);
    expect(rememberedReport(data, 'r', week, [1], build).value()).toEqual({ n: 4 });
  });

  it('keeps at most REPORT_CACHE_CAPACITY reports per organization, dropping the oldest', () => {
    const data = org();
    let builds = 0;
    for (let i = 0; i <= REPORT_CACHE_CAPACITY; i++) rememberedReport(data, 'r', week, [i], () => ++builds);
    rememberedReport(data, 'r', week, [REPORT_CACHE_CAPACITY], () => ++builds);
    expect(builds).toBe(REPORT_CACHE_CAPACITY + 1);
    rememberedReport(data, 'r', week, [0], () => ++builds);
    expect(builds).toBe(REPORT_CACHE_CAPACITY + 2);
  });
});
