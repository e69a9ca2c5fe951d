/**
 * The agent list takes `from`/`to` with the action list's date rules (section 4.5): a date-only
 * value is midnight UTC. The list carries no timestamps, but a date-only window and the same window
 * written as midnight timestamps are one window, so both must answer the same agents with the same
 * figures (a deployment that reads a date-only `to` as the end of that day answers more).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { DAY_MS, HISTORY_DAYS, settledAnchor } from './discover.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Agent entries by id, in id order (the list's order is not stated). */
async function agentsOver(ctx: LawContext, from: string, to: string): Promise<readonly [string, unknown][]> {
  const res = await call(ctx, 'listAgents', { auth: 'read', query: { from, to } });
  const ok = expectConforming(ctx, 'listAgents', res, {
    status: 200,
    what: `listAgents from=${from} to=${to}`,
  });
  return arr(obj(ok.parsed)['data'])
    .map((e): [string, unknown] => [str(obj(e)['agentId']) ?? '', e])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export const agentWindowDateRules: Law = {
  id: 'windows.agents-date-only',
  group: 'windows',
  title:
    'the agent list answers a date-only window exactly as the same window written as midnight UTC timestamps',
  ruleIds: ['AGENT-LIST-WINDOW-DATE-RULES'],
  needs: { keys: ['read'] },
  run: (ctx) => {
    // Whole days that ended before the settled anchor: the answer cannot change between the reads.
    const lastDay = Math.floor(settledAnchor(ctx) / DAY_MS) - 1;
    const span = fc
      .record({ start: fc.integer({ min: 2, max: HISTORY_DAYS - 1 }), days: fc.integer({ min: 1, max: 10 }) })
      .map(({ start, days }) => {
        const from = (lastDay - start) * DAY_MS;
        return { from: dateOf(from), to: dateOf(Math.min(lastDay * DAY_MS, from + days * DAY_MS)) };
      });
    return runProperty(
      ctx,
      span,
      async ({ from, to }) => {
        const dateOnly = await agentsOver(ctx, from, to);
        const midnight = await agentsOver(ctx, `${from}T00:00:00.000Z`, `${to}T00:00:00.000Z`);
        if (!isDeepStrictEqual(dateOnly, midnight))
          violate(
            'AGENT-LIST-WINDOW-DATE-RULES',
            'date-only-not-midnight',
            `listAgents from=${from} to=${to} (date-only) answers other agents or figures than from=${from}T00:00:00.000Z to=${to}T00:00:00.000Z: a date-only value is midnight UTC`,
            { from, to },
          );
      },
      { runs: Math.min(ctx.runs, 5) },
    );
  },
};
