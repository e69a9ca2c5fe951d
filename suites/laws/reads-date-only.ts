/**
 * The queue list and the analytics reads take `from`/`to` by the same names as the action list
 * (4.1) and the agent list (4.5, "same date rules"), where a date-only value is midnight UTC. Their
 * own sections show only the names, so this is a reading, checked as the agent list is: a date-only
 * window and the same window written as midnight timestamps are one window, so the answers agree
 * (a deployment that reads a date-only `to` as the end of that day on one route counts a day more).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { DAY_MS, HISTORY_DAYS, settledAnchor } from './discover.ts';
import { call, expectConforming, obj } from './support.ts';

const RULE = 'ANALYTICS-WINDOW-DATE-RULES';

/** The reads whose sections name `from` and `to` without their rules. */
const OPERATIONS = [
  'listQueues',
  'getTagAnalytics',
  'getTagVolume',
  'getSentimentByDay',
  'getSentimentByTag',
  'getEngagement',
] as const;

const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}/;

/**
 * An answer with the window's own bounds put aside, and lists in a canonical order: a deployment may
 * echo the window as it was written (date-only in one answer, a timestamp in the other) and the
 * spec states no order for these lists, neither of which makes the two windows different.
 */
export function canonicalAnswer(value: unknown, from: number, to: number): unknown {
  if (typeof value === 'string' && DATE_LIKE.test(value)) {
    const t = Date.parse(value);
    if (t === from) return '<from>';
    if (t === to) return '<to>';
    return value;
  }
  if (Array.isArray(value))
    return value
      .map((v) => canonicalAnswer(v, from, to))
      .map((v) => [JSON.stringify(v), v] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, v]) => v);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort())
      out[k] = canonicalAnswer((value as Record<string, unknown>)[k], from, to);
    return out;
  }
  return value;
}

async function readOver(
  ctx: LawContext,
  operationId: string,
  from: string,
  to: string,
): Promise<{ status: number; body: unknown } | undefined> {
  const res = await call(ctx, operationId, { auth: 'read', query: { from, to } });
  if (res.kind === 'network') return undefined;
  if (res.status !== 200) return { status: res.status, body: undefined };
  const ok = expectConforming(ctx, operationId, res, {
    status: 200,
    what: `${operationId} from=${from} to=${to}`,
  });
  return { status: 200, body: obj(ok.parsed)['data'] };
}

export const otherReadsDateRules: Law = {
  id: 'windows.other-reads-date-only',
  group: 'windows',
  title:
    'queues and analytics answer a date-only window exactly as the same window written as midnight UTC timestamps',
  ruleIds: [RULE],
  needs: { keys: ['read'] },
  run: (ctx) => {
    // Whole days that ended before the settled anchor: the answers cannot change between the reads.
    const lastDay = Math.floor(settledAnchor(ctx) / DAY_MS) - 1;
    const windows = fc.record({
      start: fc.integer({ min: 2, max: HISTORY_DAYS - 1 }),
      days: fc.integer({ min: 1, max: 10 }),
    });
    return runProperty(
      ctx,
      windows,
      async ({ start, days }) => {
        const fromMs = (lastDay - start) * DAY_MS;
        const toMs = Math.min(lastDay * DAY_MS, fromMs + days * DAY_MS);
        const from = dateOf(fromMs);
        const to = dateOf(toMs);
        for (const operationId of OPERATIONS) await sameWindow(ctx, operationId, from, to, fromMs, toMs);
      },
      { runs: Math.min(ctx.runs, 3) },
    );
  },
};

async function sameWindow(
  ctx: LawContext,
  operationId: string,
  from: string,
  to: string,
  fromMs: number,
  toMs: number,
): Promise<void> {
  const midnight = await readOver(ctx, operationId, `${from}T00:00:00.000Z`, `${to}T00:00:00.000Z`);
  // A target that refuses the timestamp form is another law's finding, and leaves nothing to compare.
  if (midnight === undefined || midnight.status !== 200) return;
  const dateOnly = await readOver(ctx, operationId, from, to);
  if (dateOnly === undefined) return;
  if (dateOnly.status !== 200)
    violate(
      RULE,
      'date-only-refused',
      `${operationId} from=${from} to=${to} (date-only) answers ${dateOnly.status}, though the same window as midnight UTC timestamps answers 200: the action and agent lists take date-only values by the same names`,
      { operationId, from, to },
    );
  if (
    !isDeepStrictEqual(
      canonicalAnswer(dateOnly.body, fromMs, toMs),
      canonicalAnswer(midnight.body, fromMs, toMs),
    )
  )
    violate(
      RULE,
      'date-only-not-midnight',
      `${operationId} from=${from} to=${to} (date-only) answers other figures than from=${from}T00:00:00.000Z to=${to}T00:00:00.000Z: a date-only value is midnight UTC, as on the action and agent lists`,
      { operationId, from, to },
    );
}
