/**
 * PATCH /v0/actions/{actionId}/custom-fields (spec 4.4): values checked against the registered types;
 * unknown names or wrong types give 422 with `fieldErrors` and store nothing.
 */
import { writeFields } from '../data/custom-fields.ts';
import { customFieldErrors, notFound, ok } from '../data/results.ts';
import { findRow, orgData } from '../data/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from '../types.ts';

export const updateCustomFields: Handler<EngineState> = (ctx) => {
  const actionId = ctx.pathParams['actionId'] ?? '';
  const org = orgData(ctx.state.data, ctx.organization.id);
  const row = findRow(org, actionId);
  if (row < 0) return notFound('Action', actionId);
  const body = typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as Record<string, unknown>) : {};
  const outcome = writeFields(org, row, body['fields'], ctx.key.name, ctx.clock.now());
  if (!outcome.ok) return customFieldErrors(outcome.fieldErrors);
  return ok({ actionId, updated: outcome.updated });
};
