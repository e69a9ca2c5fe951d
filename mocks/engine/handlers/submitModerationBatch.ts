/**
 * POST /v0/moderation/cases/batch (spec 4.15). The pipeline validates the envelope (`cases` of
 * 1..100, else 400); each case is validated here and goes through the single-case intake in input
 * order, so one result per input, in input order, and a bad item never blocks the others. The batch
 * is one command (`moderation.submitBatch`): its items take their place in the log together.
 */
import type { ModerationState } from '../moderation/state.ts';
import type { Handler } from './context.ts';

export const submitModerationBatch: Handler<{ readonly moderation: ModerationState }> = async (ctx) => {
  const body = ctx.body;
  const cases =
    typeof body === 'object' && body !== null ? (body as { readonly cases?: unknown }).cases : undefined;
  if (!Array.isArray(cases)) {
    return {
      status: 400,
      body: { success: false, error: 'cases must be an array of 1..100 moderation submissions' },
    };
  }
  const results = await ctx.execute({
    type: 'moderation.submitBatch',
    organizationId: ctx.organization.id,
    cases,
  });
  return { status: 202, body: { results } };
};
