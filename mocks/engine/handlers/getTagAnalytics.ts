/** GET /v0/analytics/tags (spec 4.8): tag counts of the window, searchable and paginated (limit default 50). */

import { rangeKey, rememberedAnswer } from '../records/answer-cache.ts';
import { resolveWindow } from '../records/dates.ts';
import { tagAnalytics } from '../records/reports.ts';
import { badRequest, boolParam, intParam, ok, stringParam } from '../records/results.ts';
import { orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const TAG_ANALYTICS_DEFAULT_LIMIT = 50;

export const getTagAnalytics: Handler<EngineState> = (ctx) => {
  const op = ctx.operationId;
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(op, window.error);
  const limit = intParam(ctx.query, 'limit', TAG_ANALYTICS_DEFAULT_LIMIT, 1, 1_000_000);
  if (!limit.ok) return badRequest(op, limit.error);
  const offset = intParam(ctx.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  if (!offset.ok) return badRequest(op, offset.error);
  const org = orgData(ctx.state.data, ctx.organization.id);
  const options = {
    respondedOnly: boolParam(ctx.query, 'respondedOnly') === true,
    search: stringParam(ctx.query, 'search'),
    limit: limit.value,
    offset: offset.value,
  };
  // Tag counts depend only on the rows of the window: the answer is remembered per index range.
  const key = [
    'tags',
    rangeKey(org.byCreated, window.value),
    options.respondedOnly,
    options.search ?? null,
    options.limit,
    options.offset,
  ];
  return ok(
    rememberedAnswer(ctx.state.data, org, key, () => ({
      success: true,
      data: tagAnalytics(org, window.value, options),
    })),
  );
};
