/** GET /v0/analytics/sentiment/by-tag (spec 4.11): per tag of the window, actions by sentiment label. */
import { resolveWindow } from '../records/dates.ts';
import { sentimentByTag } from '../records/reports.ts';
import { badRequest, ok } from '../records/results.ts';
import { orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const getSentimentByTag: Handler<EngineState> = (ctx) => {
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(ctx.operationId, window.error);
  return ok({
    success: true,
    data: sentimentByTag(orgData(ctx.state.data, ctx.organization.id), window.value),
  });
};
