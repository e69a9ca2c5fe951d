/**
 * POST /v0/moderation/cases/batch (spec 4.15). The pipeline validates the envelope (`cases` of
 * 1..100, else 400); each case is validated here and goes through the single-case intake in input
 * order, so one result per input, in input order, and a bad item never blocks the others.
 */
import { validateSchema } from '../../../src/contract/index.ts';
import { submitBatch } from '../moderation/batch.ts';
import type { ModerationState } from '../moderation/state.ts';
import type { Handler } from '../types.ts';

export const submitModerationBatch: Handler<{ readonly moderation: ModerationState }> = (ctx) => {
  const body = ctx.body;
  const cases =
    typeof body === 'object' && body !== null ? (body as { readonly cases?: unknown }).cases : undefined;
  if (!Array.isArray(cases)) {
    return {
      status: 400,
      body: { success: false, error: 'cases must be an array of 1..100 moderation submissions' },
    };
  }
  const results = submitBatch(ctx.state.moderation, ctx.organization.id, cases, (item) => {
    const validation = validateSchema('ModerationSubmission', item, 'body');
    return validation.ok ? [] : validation.issues;
  });
  return { status: 202, body: { results } };
};
