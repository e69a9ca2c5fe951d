/**
 * PATCH /v0/actions/{actionId}/custom-fields (spec 4.4): values checked against the registered types;
 * unknown names or wrong types give 422 with `fieldErrors` and store nothing. The write is the
 * `customFields.update` command; the answer comes from its outcome.
 */
import { customFieldErrors, notFound, ok } from '../records/results.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const updateCustomFields: Handler<EngineState> = async (ctx) => {
  const actionId = ctx.pathParams['actionId'] ?? '';
  const body = typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as Record<string, unknown>) : {};
  const outcome = await ctx.execute({
    type: 'customFields.update',
    organizationId: ctx.organization.id,
    actionId,
    fields: body['fields'],
    keyName: ctx.key.name,
  });
  if (outcome.ok) return ok({ actionId, updated: outcome.updated });
  if ('notFound' in outcome) return notFound('Action', actionId);
  return customFieldErrors(outcome.fieldErrors);
};
