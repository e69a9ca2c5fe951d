/** GET /v0/queues (spec 4.7): every queue (plus a `queueId: null` entry for actions without one) over the window. */
import { resolveWindow } from '../data/dates.ts';
import { queueReport } from '../data/reports.ts';
import { badRequest, ok } from '../data/results.ts';
import { orgData } from '../data/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const listQueues: Handler<EngineState> = (ctx) => {
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(ctx.operationId, window.error);
  return ok({ success: true, data: queueReport(orgData(ctx.state.data, ctx.organization.id), window.value) });
};
