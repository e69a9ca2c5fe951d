import fc from 'fast-check';
import { INGESTION_PLATFORMS, window } from '../../src/arbitraries/index.ts';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

export const DAY_MS = 86_400_000;

/** How far back laws look for data: the spec's data has no horizon; 90 days covers the mock's. */
export const HISTORY_DAYS = 90;

/**
 * The end of windows that are read twice and compared (prefix, subset, moving windows): an hour in
 * the past, so records a live deployment receives meanwhile do not change the answer.
 */
export function settledAnchor(ctx: LawContext): number {
  return ctx.now() - 3_600_000;
}

export function isoDaysAgo(ctx: LawContext, days: number): string {
  return new Date(ctx.now() - days * DAY_MS).toISOString();
}

/** The whole history window (`from` 90 days ago to now). */
export function historyWindow(ctx: LawContext): { from: string; to: string } {
  return { from: isoDaysAgo(ctx, HISTORY_DAYS), to: new Date(ctx.now()).toISOString() };
}

/** A refused read key is an auth failure; anything else breaks the operation's own envelope rule. */
function sampleRule(status: number, otherwise: string): string {
  return status === 401 || status === 403 ? 'AUTH-READ-KEY-READ-ROUTES' : otherwise;
}

/** Action summaries from the history window (one page of 200), fetched once per run. */
export function sampleActions(ctx: LawContext): Promise<readonly Record<string, unknown>[]> {
  return ctx.memo('sample:actions', async () => {
    const res = await call(ctx, 'listActions', {
      auth: 'read',
      query: { ...historyWindow(ctx), pageSize: 200 },
    });
    const ok = expectConforming(ctx, 'listActions', res, {
      status: 200,
      statusRule: sampleRule(res.status, 'LIST-RESPONSE-ENVELOPE'),
    });
    return arr(obj(ok.parsed)['data']).map(obj);
  });
}

export async function sampleActionIds(ctx: LawContext): Promise<readonly string[]> {
  return (await sampleActions(ctx))
    .map((a) => str(a['actionId']))
    .filter((id): id is string => id !== undefined);
}

export function sampleAgentIds(ctx: LawContext): Promise<readonly string[]> {
  return ctx.memo('sample:agents', async () => {
    const res = await call(ctx, 'listAgents', { auth: 'read', query: historyWindow(ctx) });
    const ok = expectConforming(ctx, 'listAgents', res, {
      status: 200,
      statusRule: sampleRule(res.status, 'AGENT-LIST-ENVELOPE'),
    });
    return arr(obj(ok.parsed)['data'])
      .map((a) => str(obj(a)['agentId']))
      .filter((id): id is string => id !== undefined);
  });
}

/** Query values a read operation must accept, by parameter name (omitted names are left out). */
export function validQuery(
  ctx: LawContext,
  operationId: string,
): fc.Arbitrary<Record<string, string | number | boolean>> {
  const op = ctx.contract.getOperation(operationId);
  const names = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const parts: Record<string, fc.Arbitrary<unknown>> = {};
  if (names.has('from') && names.has('to')) {
    parts['window'] = opt(window({ anchor: ctx.now(), spanDays: HISTORY_DAYS }));
  }
  const table: Record<string, fc.Arbitrary<unknown>> = {
    pageSize:
      operationId === 'searchConversations'
        ? fc.integer({ min: 1, max: 100 })
        : fc.integer({ min: 1, max: 500 }),
    page: fc.integer({ min: 1, max: 5 }),
    sortBy: fc.constantFrom('createdAt', 'updatedAt'),
    includeFullConversation: fc.boolean(),
    respondedOnly: fc.boolean(),
    limit: fc.integer({ min: 1, max: 50 }),
    offset: fc.integer({ min: 0, max: 50 }),
    topTagsLimit: fc.integer({ min: 1, max: 20 }),
    platforms: fc
      .uniqueArray(fc.constantFrom(...INGESTION_PLATFORMS.slice(0, 12)), { minLength: 1, maxLength: 3 })
      .map((p) => p.join(',')),
  };
  for (const [name, arb] of Object.entries(table)) if (names.has(name)) parts[name] = opt(arb);
  return fc.record(parts, { requiredKeys: [] }).map((rec) => {
    const out: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(rec)) {
      if (v === undefined) continue;
      if (k === 'window') {
        const w = v as { from: string; to: string };
        out['from'] = w.from;
        out['to'] = w.to;
      } else out[k] = v as string | number | boolean;
    }
    return out;
  });
}
