/** GET /v0/queues (spec 4.7): every queue (plus a `queueId: null` entry for actions without one) over the window. */
import { rangeKey, rememberedAnswer } from '../records/answer-cache.ts';
import { resolveWindow } from '../records/dates.ts';
import { queueReport } from '../records/reports.ts';
import { badRequest, ok } from '../records/results.ts';
import { orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const listQueues: Handler<EngineState> = (ctx) => {
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(ctx.operationId, window.error);
  const org = orgData(ctx.state.data, ctx.organization.id);
  const key = ['queues', rangeKey(org.byCreated, window.value)];
  return ok(
    rememberedAnswer(ctx.state.data, org, key, () => ({
      success: true,
      data: queueReport(org, window.value),
    })),
  );
};
