/** GET /v0/analytics/sentiment/by-tag (spec 4.11): per tag of the window, actions by sentiment label. */
import { resolveWindow } from '../data/dates.ts';
import { sentimentByTag } from '../data/reports.ts';
import { badRequest, ok } from '../data/results.ts';
import { orgData } from '../data/state.ts';
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
