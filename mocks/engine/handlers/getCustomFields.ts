/** GET /v0/actions/{actionId}/custom-fields (spec 4.3): every registered field with value and provenance. */
import { readFields } from '../records/custom-fields.ts';
import { notFound, ok } from '../records/results.ts';
import { findRow, orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const getCustomFields: Handler<EngineState> = (ctx) => {
  const actionId = ctx.pathParams['actionId'] ?? '';
  const org = orgData(ctx.state.data, ctx.organization.id);
  const row = findRow(org, actionId);
  if (row < 0) return notFound('Action', actionId);
  return ok({ actionId, fields: readFields(org, row) });
};
