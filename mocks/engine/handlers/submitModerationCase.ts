/**
 * POST /v0/moderation/cases (spec 4.14). Scope, `ad_policy` mode and the body's contract validation
 * are the pipeline's; this handler re-checks the body (so it stands alone) and does the synchronous
 * check-and-insert (the `moderation.submit` command): 202 accepted or duplicate, 409 when the
 * externalId exists with other content.
 */
import { validateSchema } from '../../../src/contract/index.ts';
import { submitCase } from '../moderation/intake.ts';
import type { ModerationState } from '../moderation/state.ts';
import type { SubmissionRefusal } from '../moderation/types.ts';
import type { HandlerResult } from '../types.ts';
import type { Handler } from './context.ts';

export const submitModerationCase: Handler<{ readonly moderation: ModerationState }> = async (ctx) => {
  const validation = validateSchema('ModerationSubmission', ctx.body, 'body');
  // An invalid submission is refused before it is a command: it changes nothing, so it is not logged.
  const outcome = validation.ok
    ? await ctx.execute({
        type: 'moderation.submit',
        organizationId: ctx.organization.id,
        submission: ctx.body,
      })
    : submitCase(ctx.state.moderation, ctx.organization.id, ctx.body, validation.issues);
  if (outcome.kind === 'ack') return { status: 202, body: outcome.ack };
  return refusalResult(outcome.refusal);
};

/** The moderation error body for a refused single submission: 400, 422 or 409. */
export function refusalResult(refusal: SubmissionRefusal): HandlerResult {
  if (refusal.kind === 'conflict') {
    return { status: 409, body: { success: false, error: refusal.error, message: refusal.message } };
  }
  const incomplete = refusal.code === 'MODERATION_INPUT_INCOMPLETE';
  return {
    status: incomplete ? 400 : 422,
    body: {
      success: false,
      error: refusal.error,
      message: refusal.message,
      code: refusal.code,
      ...(incomplete ? { missingFields: refusal.missingFields } : {}),
      ...(refusal.invalidFields.length > 0 ? { invalidFields: refusal.invalidFields } : {}),
    },
  };
}
