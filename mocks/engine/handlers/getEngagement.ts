/** GET /v0/analytics/engagement (spec 4.12): messages per user, weekly growth and a funnel, optionally per platform. */
import { rangeKey, rememberedAnswer } from '../records/answer-cache.ts';
import { resolveWindow } from '../records/dates.ts';
import { engagement } from '../records/reports.ts';
import { badRequest, ok, stringParam } from '../records/results.ts';
import { orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const getEngagement: Handler<EngineState> = (ctx) => {
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(ctx.operationId, window.error);
  const raw = stringParam(ctx.query, 'platforms');
  const list = raw
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const platforms = list !== undefined && list.length > 0 ? new Set(list) : undefined;
  const org = orgData(ctx.state.data, ctx.organization.id);
  // The previous weeks it reads are fixed by the window's rows (their weeks), so the range names them too.
  const key = [
    'engagement',
    rangeKey(org.byCreated, window.value),
    platforms === undefined ? null : JSON.stringify([...platforms]),
  ];
  return ok(
    rememberedAnswer(ctx.state.data, org, key, () => ({
      success: true,
      data: engagement(org, window.value, platforms),
    })),
  );
};
