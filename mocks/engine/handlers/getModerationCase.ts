/**
 * GET /v0/moderation/cases/{caseId} (spec 4.16): the active policy's evaluation of one case of the
 * key's organization; 404 for an unknown case and for another organization's case alike.
 */
import type { ModerationState } from '../moderation/state.ts';
import { readCaseStatus } from '../moderation/status.ts';
import type { Handler } from './context.ts';

export const getModerationCase: Handler<{ readonly moderation: ModerationState }> = (ctx) => {
  const caseId = ctx.pathParams['caseId'] ?? '';
  const status = readCaseStatus(ctx.state.moderation, ctx.organization.id, caseId);
  if (status === null) {
    return { status: 404, body: { success: false, error: `Moderation case ${caseId} not found` } };
  }
  return { status: 200, body: status };
};
