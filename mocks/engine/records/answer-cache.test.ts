import { describe, expect, it } from 'vitest';
import type { SerialisedJson } from '../types.ts';
import { ANSWER_CACHE_BYTES, rangeKey, rememberedAnswer, rowChanged } from './answer-cache.ts';
import { createDataState, type OrgData, orgData } from './state.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

describe('remembered answers', () => {
  const state = (rememberAnswers = true) =>
    createDataState({ seed: 3, actions: 200, clock: { now: () => START }, rememberAnswers });
  const org = () => orgData(state(), 'org_acme');
  /** Answers of `data` remembered (the flag is read from a state with remembering on). */
  const remember = (data: OrgData, key: (string | number)[], build: () => unknown) =>
    rememberedAnswer(state(), data, key, build) as SerialisedJson;

  it('with rememberAnswers off, every call builds', () => {
    const data = state(false);
    let builds = 0;
    const value = rememberedAnswer(data, orgData(data, 'org_acme'), ['r'], () => ++builds);
    rememberedAnswer(data, orgData(data, 'org_acme'), ['r'], () => ++builds);
    expect([value, builds]).toEqual([1, 2]);
  });

  it('builds once per key, again after any row changes', () => {
    const data = org();
    let builds = 0;
    const build = () => ({ n: ++builds });
    const first = remember(data, ['r', 1], build);
    expect(remember(data, ['r', 1], build)).toBe(first);
    remember(data, ['r', 2], build);
    expect(builds).toBe(2);
    rowChanged(data, 0);
    expect(remember(data, ['r', 1], build).value()).toEqual({ n: 3 });
  });

  it('a window stands for its index range: windows over the same rows share a key', () => {
    const data = org();
    const week = { from: START - 7 * DAY, to: START };
    expect(rangeKey(data.byCreated, { ...week, to: week.to + 1 })).toBe(rangeKey(data.byCreated, week));
    expect(rangeKey(data.byCreated, { ...week, from: week.from - 30 * DAY })).not.toBe(
      rangeKey(data.byCreated, week),
    );
  });

  it('keeps at most ANSWER_CACHE_BYTES per organization, dropping the oldest; oversized answers are not kept', () => {
    const data = org();
    let builds = 0;
    const big = () => {
      builds += 1;
      return 'x'.repeat(ANSWER_CACHE_BYTES / 8);
    };
    for (let i = 0; i < 8; i++) remember(data, ['big', i], big); // ~8 × 1/8 of the budget
    remember(data, ['big', 8], big); // evicts the oldest
    expect(builds).toBe(9);
    remember(data, ['big', 8], big);
    expect(builds).toBe(9);
    remember(data, ['big', 0], big);
    expect(builds).toBe(10);
    const huge = () => {
      builds += 1;
      return 'y'.repeat(ANSWER_CACHE_BYTES / 2);
    };
    remember(data, ['huge'], huge);
    remember(data, ['huge'], huge);
    expect(builds).toBe(12);
  });
});
