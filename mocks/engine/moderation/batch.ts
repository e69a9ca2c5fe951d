/**
 * Batch intake (spec 4.15): each item goes through the single-case intake in input order, so a
 * duplicate inside one batch behaves exactly as if the items had been sent one after the other, and
 * an invalid or conflicting item is rejected without blocking the others.
 */
import type { SchemaIssue } from './fields.ts';
import { submitCase } from './intake.ts';
import type { ModerationState } from './state.ts';
import type { InputErrorCode, SubmissionOutcome } from './types.ts';

/** One entry of `ModerationBatchResponse.results`. */
export type BatchResult =
  | {
      readonly externalId: string;
      readonly caseId: string;
      readonly status: 'accepted' | 'duplicate';
      readonly analysisStatus: 'pending';
      readonly evaluationId: string;
      readonly idempotency: { readonly key: string; readonly replayed: boolean };
    }
  | {
      readonly externalId: string | null;
      readonly caseId: string | null;
      readonly status: 'rejected';
      readonly errors: readonly string[];
      readonly message: string;
      readonly code?: InputErrorCode;
      readonly missingFields?: readonly string[];
      readonly invalidFields?: readonly string[];
    };

/**
 * Submits every item in order; `issuesOf(item)` validates one item against `ModerationSubmission`.
 *
 * @example
 * submitBatch(state, 'org_1', body.cases, (item) => validateSchema('ModerationSubmission', item));
 */
export function submitBatch(
  state: ModerationState,
  organizationId: string,
  items: readonly unknown[],
  issuesOf: (item: unknown) => readonly SchemaIssue[],
): BatchResult[] {
  return items.map((item) => batchResultOf(submitCase(state, organizationId, item, issuesOf(item))));
}

export function batchResultOf(outcome: SubmissionOutcome): BatchResult {
  if (outcome.kind === 'ack') {
    const { ack } = outcome;
    return {
      externalId: ack.externalId,
      caseId: ack.caseId,
      status: ack.status,
      analysisStatus: ack.analysisStatus,
      evaluationId: ack.evaluationId,
      idempotency: ack.idempotency,
    };
  }
  const { refusal, externalId } = outcome;
  if (refusal.kind === 'conflict') {
    return {
      externalId,
      caseId: refusal.caseId,
      status: 'rejected',
      errors: refusal.errors,
      message: refusal.message,
    };
  }
  return {
    externalId,
    caseId: null,
    status: 'rejected',
    errors: refusal.errors,
    message: refusal.message,
    code: refusal.code,
    ...(refusal.missingFields.length > 0 ? { missingFields: refusal.missingFields } : {}),
    ...(refusal.invalidFields.length > 0 ? { invalidFields: refusal.invalidFields } : {}),
  };
}
