/**
 * The agent list takes `from`/`to` with the action list's date rules (section 4.5): a date-only
 * value is midnight UTC. The list carries no timestamps, but a date-only window and the same window
 * written as midnight timestamps are one window, so both must answer the same agents with the same
 * figures (a deployment that reads a date-only `to` as the end of that day answers more).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { runExamples, runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { DAY_MS, HISTORY_DAYS, sampleActions, settledAnchor } from './discover.ts';
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

/** The reads whose windows the law moves by one millisecond at an action's own creation time. */
const WINDOWED = [
  { operationId: 'listAgents', rule: 'AGENT-LIST-WINDOW-DATE-RULES' },
  { operationId: 'listQueues', rule: 'ANALYTICS-WINDOW-DATE-RULES' },
] as const;
const EDGES = 3;

/** The entries of a list answer in a canonical order (the order is not stated). */
async function entriesOver(
  ctx: LawContext,
  operationId: string,
  from: number,
  to: number,
): Promise<string[]> {
  const query = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  const res = await call(ctx, operationId, { auth: 'read', query });
  const ok = expectConforming(ctx, operationId, res, {
    status: 200,
    what: `${operationId} from=${query.from} to=${query.to}`,
  });
  return arr(obj(ok.parsed)['data'])
    .map((e) => JSON.stringify(e))
    .sort();
}

/**
 * `to` is inclusive and `from` the inclusive start (4.1; 4.5 "same date rules"): a window that ends
 * at an action's creation time holds that action, so it answers as the window one millisecond
 * longer, when no other action was created in that millisecond; the same at the start. An exclusive
 * end drops the action at it, and the figures of whatever counts it differ. Whatever these reads
 * count, nothing happens in the extra millisecond, so no reading of their figures can tell the two
 * windows apart.
 */
export const windowEdgesInclusive: Law = {
  id: 'windows.agents-queues-edges',
  group: 'windows',
  title:
    "agents and queues over a window ending (or starting) at an action's creation time answer as over the window one millisecond wider",
  ruleIds: WINDOWED.map((w) => w.rule),
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const settled = settledAnchor(ctx);
      const times = (await sampleActions(ctx))
        .map((a) => Date.parse(str(a['createdAt']) ?? ''))
        .filter((t) => Number.isFinite(t) && t < settled - DAY_MS);
      const taken = new Set(times);
      // Creation times with no other action one millisecond before or after.
      const edges = times.filter((t) => !taken.has(t + 1) && !taken.has(t - 1)).slice(0, EDGES);
      let checks = 0;
      for (const t of edges) {
        const start = t - 2 * DAY_MS;
        const end = t + 2 * DAY_MS;
        for (const { operationId, rule } of WINDOWED) {
          const pairs = [
            { side: 'to', exact: [start, t], wider: [start, t + 1] },
            { side: 'from', exact: [t, end], wider: [t - 1, end] },
          ] as const;
          for (const { side, exact, wider } of pairs) {
            const a = await entriesOver(ctx, operationId, exact[0], exact[1]);
            const b = await entriesOver(ctx, operationId, wider[0], wider[1]);
            checks += 1;
            if (!isDeepStrictEqual(a, b))
              violate(
                rule,
                `window-${side}-exclusive`,
                `${operationId} with ${side}=${new Date(t).toISOString()} (an action's creation time) answers other entries or figures than with ${side}=${new Date(side === 'to' ? t + 1 : t - 1).toISOString()}, though no action was created in that millisecond: ${side} is inclusive, so the window holds the action created at it`,
                { operationId, side, at: new Date(t).toISOString() },
              );
          }
        }
      }
      return checks;
    }),
};
