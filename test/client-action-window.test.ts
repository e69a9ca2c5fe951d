/**
 * `api.actions.all` / `collect` (src/client/action-window.ts) against the in-process mock: for random
 * windows and page sizes over a data set whose actions crowd onto a few timestamps (ties longer than a
 * page included), the walk yields every action of the window exactly once and none outside it, as spec
 * 4.1's recipe promises; a tie longer than the largest page is an error, not a silent gap.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { agentSays, scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import { createEngine, type Engine } from '../mocks/engine/index.ts';
import { ActionWindowError, ApiClient, ConformanceClient } from '../src/client/index.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const KEY = 'window_read_key';
const MINUTE = 60_000;

/** Minutes before START and how many actions share each: ties of 1 to 45 actions. */
const CROWDS: readonly (readonly [minutesAgo: number, count: number])[] = [
  [5, 1],
  [30, 45],
  [31, 2],
  [90, 7],
  [240, 30],
  [241, 1],
  [600, 12],
  [1440, 3],
  [2000, 20],
];

interface Seeded {
  readonly api: ApiClient;
  /** createdAt by actionId, as the data set says. */
  readonly createdAt: ReadonlyMap<string, number>;
}

function engineWith(crowds: readonly (readonly [number, number])[]): {
  engine: Engine;
  createdAt: Map<string, number>;
} {
  const builder = scenario().organization('org_window').key({ key: KEY, profile: 'reporting' });
  const createdAt = new Map<string, number>();
  let n = 0;
  for (const [minutesAgo, count] of crowds) {
    const at = START - minutesAgo * MINUTE;
    for (let i = 0; i < count; i++) {
      n += 1;
      const actionId = `act_${String(n).padStart(4, '0')}`;
      createdAt.set(actionId, at);
      // Answered (an agent message): the list without fullFilter shows responded actions only.
      builder.action({
        actionId,
        createdAt: new Date(at).toISOString(),
        messages: [
          userSays('Hello', new Date(at).toISOString()),
          agentSays('Hi', new Date(at + 1000).toISOString()),
        ],
      });
    }
  }
  const engine = createEngine({ data: builder.build(), clock: new MockClock({ start: START }) });
  return { engine, createdAt };
}

function apiOf(engine: Engine): ApiClient {
  return new ApiClient(
    new ConformanceClient({
      baseUrl: 'http://mock.test',
      keys: { read: KEY },
      fetch: (input, init) => engine.handle(new Request(input, init)),
    }),
  );
}

function seeded(): Seeded {
  const { engine, createdAt } = engineWith(CROWDS);
  return { api: apiOf(engine), createdAt };
}

/** A bound: one of the crowds' instants exactly (to test inclusivity), or any minute of the span. */
const bound = fc.oneof(
  fc.constantFrom(...CROWDS.map(([m]) => START - m * MINUTE)),
  fc.integer({ min: START - 2100 * MINUTE, max: START }),
);

describe('api.actions: the window walked as spec 4.1 says', () => {
  const { api, createdAt } = seeded();

  it('LIST-NO-PAGE-INPUT: every action of a random window exactly once, none outside it, for any page size', async () => {
    await fc.assert(
      fc.asyncProperty(bound, bound, fc.integer({ min: 1, max: 60 }), async (a, b, pageSize) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const got: string[] = [];
        for await (const action of api.actions.all({
          from: new Date(from).toISOString(),
          to: new Date(to).toISOString(),
          pageSize,
        })) {
          got.push(action.actionId);
        }
        const expected = [...createdAt]
          .filter(([, at]) => at >= from && at <= to)
          .map(([id]) => id)
          .sort();
        expect(new Set(got).size).toBe(got.length);
        expect([...got].sort()).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('collect gathers the same actions newest first; sortBy updatedAt walks that field', async () => {
    const window = { from: '2026-11-18T00:00:00.000Z', to: '2026-11-20T12:00:00.000Z' };
    const all = await api.actions.collect({ ...window, pageSize: 4 });
    expect(all.length).toBe(createdAt.size);
    const times = all.map((action) => Date.parse(action.createdAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const byUpdate = await api.actions.collect({ ...window, pageSize: 3, sortBy: 'updatedAt' });
    expect(byUpdate.map((action) => action.actionId).sort()).toEqual([...createdAt.keys()].sort());
  });

  it('more actions on one timestamp than the largest page (500) is an ActionWindowError, not a gap', async () => {
    const { engine } = engineWith([[10, 501]]);
    const walk = apiOf(engine).actions.collect({
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-20T12:00:00.000Z',
      pageSize: 100,
    });
    await expect(walk).rejects.toThrow(ActionWindowError);
    await expect(walk).rejects.toMatchObject({ code: 'TIE_OVER_MAX_PAGE' });
  });

  it('a refused request stops the walk with its answer; a page size outside 1..500 is refused before any', async () => {
    const walk = api.actions.collect({ from: '2026-11-20T12:00:00.000Z', to: '2026-11-18T00:00:00.000Z' });
    await expect(walk).rejects.toMatchObject({ code: 'REQUEST_FAILED', result: { status: 400 } });
    await expect(
      api.actions.collect({ from: '2026-11-18', to: '2026-11-20', pageSize: 501 }),
    ).rejects.toThrow(RangeError);
  });
});
