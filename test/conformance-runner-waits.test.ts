/**
 * A law marked `waits` (most of its time spent waiting for the target) runs beside the laws after it;
 * the report still lists every law in its order. With a target whose clock the laws drive through
 * their polls (`onPoll`), laws run strictly one after another, as before, except a law that waits out
 * a wall-clock time limit of the target's and never polls (`waits: 'time-limit'`).
 */
import { describe, expect, it } from 'vitest';
import type { Law } from '../src/conformance/kit/law.ts';
import { type RunnerDeps, runConformance } from '../src/conformance/runner.ts';
import { contract } from '../src/contract/index.ts';

/** A waiting law and two quick ones; `seen` records when each starts and ends. */
function lawsRecording(seen: string[], waits: true | 'time-limit' = true): RunnerDeps {
  let quickDone: () => void = () => undefined;
  const quickEnded = new Promise<void>((resolve) => {
    quickDone = resolve;
  });
  const passed = (id: string) => ({ kind: 'passed' as const, ruleIds: [id], checks: 1 });
  const laws: Law[] = [
    {
      id: 'u.waits',
      group: 'u',
      title: 'waits for the target',
      ruleIds: ['R-WAITS'],
      needs: { keys: [] },
      waits,
      run: async () => {
        seen.push('waits:start');
        // Until the quick laws are done, or a moment when they only start after it (one after another).
        await Promise.race([quickEnded, new Promise((resolve) => setTimeout(resolve, 300))]);
        seen.push('waits:end');
        return passed('R-WAITS');
      },
    },
    {
      id: 'u.quick-1',
      group: 'u',
      title: 'quick',
      ruleIds: ['R-QUICK-1'],
      needs: { keys: [] },
      run: async () => {
        seen.push('quick-1');
        return passed('R-QUICK-1');
      },
    },
    {
      id: 'u.quick-2',
      group: 'u',
      title: 'quick',
      ruleIds: ['R-QUICK-2'],
      needs: { keys: [] },
      run: async () => {
        seen.push('quick-2');
        quickDone();
        return passed('R-QUICK-2');
      },
    },
  ];
  const rules = ['R-WAITS', 'R-QUICK-1', 'R-QUICK-2'].map((id) => ({
    id,
    title: id,
    section: '1',
    check: 'live',
  }));
  return { laws, contract, rules };
}

describe('laws that wait', () => {
  it("a defect while a waiting law ends is thrown at the end of the run, with the loop's own, never dropped", async () => {
    const defect = (id: string) => new Error(`progress handler broke at ${id}`);
    const run = runConformance(
      {
        target: { baseUrl: 'http://127.0.0.1:9', keys: {} },
        seed: 1,
        onProgress: (event) => {
          if (event.type === 'law-end' && event.result.lawId !== 'u.quick-1')
            throw defect(event.result.lawId);
        },
      },
      lawsRecording([]),
    );
    const thrown = await run.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(AggregateError);
    expect((thrown as AggregateError).errors.map((e: Error) => e.message)).toEqual([
      'progress handler broke at u.quick-2',
      'progress handler broke at u.waits',
    ]);
  });

  it('run beside the laws after them, and the report keeps the laws in order', async () => {
    const seen: string[] = [];
    const ended: string[] = [];
    const report = await runConformance(
      {
        target: { baseUrl: 'http://127.0.0.1:9', keys: {} },
        seed: 1,
        onProgress: (event) => {
          if (event.type === 'law-end') ended.push(event.result.lawId);
        },
      },
      lawsRecording(seen),
    );
    expect(seen).toEqual(['waits:start', 'quick-1', 'quick-2', 'waits:end']);
    expect(ended).toEqual(['u.quick-1', 'u.quick-2', 'u.waits']);
    expect(report.laws.map((l) => l.lawId)).toEqual(['u.waits', 'u.quick-1', 'u.quick-2']);
    expect(report.laws.every((l) => l.outcome.kind === 'passed')).toBe(true);
    expect(report.verdict).toBe('conformant');
  });

  it('run one after another when the laws drive the target clock through their polls', async () => {
    const seen: string[] = [];
    const report = await runConformance(
      {
        target: { baseUrl: 'http://127.0.0.1:9', keys: {}, onPoll: async () => undefined },
        seed: 1,
      },
      lawsRecording(seen),
    );
    expect(seen).toEqual(['waits:start', 'waits:end', 'quick-1', 'quick-2']);
    expect(report.laws.map((l) => l.lawId)).toEqual(['u.waits', 'u.quick-1', 'u.quick-2']);
  });

  it("a law waiting out the target's own time limit, never polling, runs beside the others even then", async () => {
    const seen: string[] = [];
    const report = await runConformance(
      {
        target: { baseUrl: 'http://127.0.0.1:9', keys: {}, onPoll: async () => undefined },
        seed: 1,
      },
      lawsRecording(seen, 'time-limit'),
    );
    expect(seen).toEqual(['waits:start', 'quick-1', 'quick-2', 'waits:end']);
    expect(report.laws.map((l) => l.lawId)).toEqual(['u.waits', 'u.quick-1', 'u.quick-2']);
  });

  it('a waiting law that is left out is reported not run like any other', async () => {
    const seen: string[] = [];
    const report = await runConformance(
      { target: { baseUrl: 'http://127.0.0.1:9', keys: {} }, seed: 1, skip: ['u.waits'] },
      lawsRecording(seen),
    );
    expect(seen).toEqual(['quick-1', 'quick-2']);
    expect(report.laws[0]?.outcome.kind).toBe('not-run');
  });
});
