/** GET /v0/analytics/sentiment (spec 4.10): per UTC day of the window, actions by sentiment label. */
import { rangeKey, rememberedAnswer } from '../records/answer-cache.ts';
import { resolveWindow } from '../records/dates.ts';
import { sentimentByDay } from '../records/reports.ts';
import { badRequest, ok } from '../records/results.ts';
import { orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const getSentimentByDay: Handler<EngineState> = (ctx) => {
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(ctx.operationId, window.error);
  const org = orgData(ctx.state.data, ctx.organization.id);
  const key = ['sentiment', rangeKey(org.byCreated, window.value)];
  return ok(
    rememberedAnswer(ctx.state.data, org, key, () => ({
      success: true,
      data: sentimentByDay(org, window.value),
    })),
  );
};
