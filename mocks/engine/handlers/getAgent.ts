/** GET /v0/agents/{id} (spec 4.6): daily metrics, aggregate, workload and queues of one agent; 404 when unknown. */
import { resolveWindow } from '../records/dates.ts';
import { agentDetail } from '../records/reports.ts';
import { badRequest, notFound, ok } from '../records/results.ts';
import { orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const getAgent: Handler<EngineState> = (ctx) => {
  const id = ctx.pathParams['id'] ?? '';
  const org = orgData(ctx.state.data, ctx.organization.id);
  const index = org.catalog.agents.findIndex((a) => a.userId === id);
  if (index < 0) return notFound('Agent', id);
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(ctx.operationId, window.error);
  return ok({ success: true, data: agentDetail(org, window.value, index) });
};
