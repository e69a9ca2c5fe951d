/** GET /v0/agents (spec 4.5): every agent of the organization with metrics and workload over the window. */
import { rangeKey, rememberedAnswer } from '../records/answer-cache.ts';
import { resolveWindow } from '../records/dates.ts';
import { agentReport } from '../records/reports.ts';
import { badRequest, ok } from '../records/results.ts';
import { orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const listAgents: Handler<EngineState> = (ctx) => {
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(ctx.operationId, window.error);
  const org = orgData(ctx.state.data, ctx.organization.id);
  const key = ['agents', rangeKey(org.byCreated, window.value)];
  return ok(
    rememberedAnswer(ctx.state.data, org, key, () => ({
      success: true,
      data: agentReport(org, window.value),
    })),
  );
};
