/** GET /v0/agents (spec 4.5): every agent of the organization with metrics and workload over the window. */
import { resolveWindow } from '../data/dates.ts';
import { agentReport } from '../data/reports.ts';
import { badRequest, ok } from '../data/results.ts';
import { orgData } from '../data/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const listAgents: Handler<EngineState> = (ctx) => {
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(ctx.operationId, window.error);
  return ok({ success: true, data: agentReport(orgData(ctx.state.data, ctx.organization.id), window.value) });
};
