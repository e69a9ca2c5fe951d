/**
 * Moderation intake (spec 4.14, 4.15): validation outcome → refusal, or a synchronous check-and-insert.
 *
 * `submitCase` never awaits: the lookup by externalId and the insert happen in one turn of the event
 * loop, so however many identical requests are in flight, exactly one is `accepted` and every other
 * one is a `duplicate` (or a conflict, when the content differs).
 */
import { canonicalJson, fingerprintOfCanonical } from './canonical.ts';
import { decide } from './decide.ts';
import { type FieldLists, fieldLists, ROOT_FIELD, type SchemaIssue } from './fields.ts';
import { createEvaluation } from './scheduler.ts';
import { activeWorkflow, issueId, type ModerationState, organizationSlot } from './state.ts';
import type {
  Evaluation,
  ModerationAck,
  ModerationCase,
  Outcome,
  SubmissionOutcome,
  SubmissionRefusal,
} from './types.ts';

/**
 * Submits one case for an organization. `issues` are the contract validation issues of `submission`
 * (empty when valid); nothing is stored unless there are none.
 *
 * @example
 * const outcome = submitCase(state, 'org_1', body, validateSchema('ModerationSubmission', body));
 * if (outcome.kind === 'ack') outcome.ack.status; // 'accepted' | 'duplicate'
 */
export function submitCase(
  state: ModerationState,
  organizationId: string,
  submission: unknown,
  issues: readonly SchemaIssue[],
): SubmissionOutcome {
  const externalId = externalIdOf(submission);
  if (issues.length > 0 || !isRecord(submission) || externalId === null) {
    return { kind: 'refused', externalId, refusal: inputRefusal(fieldLists(issues)) };
  }
  const canonical = canonicalJson(submission);
  const fingerprint = fingerprintOfCanonical(canonical);
  const slot = organizationSlot(state, organizationId);
  const existing = slot.byExternalId.get(externalId);
  if (existing !== undefined) {
    if (existing.canonical === canonical) return { kind: 'ack', ack: ackOf(state, existing, 'duplicate') };
    return { kind: 'refused', externalId, refusal: conflictRefusal(existing) };
  }
  const now = state.clock.now();
  const workflow = activeWorkflow(state, organizationId);
  const evaluation = createEvaluation(
    issueId(state, 'ev'),
    workflow?.workflowId ?? null,
    now,
    sharedOutcome(state, decide(submission)),
    state.latency,
  );
  const created: ModerationCase = {
    caseId: issueId(state, 'mc'),
    organizationId,
    externalId,
    submissionJson: JSON.stringify(submission),
    canonical,
    fingerprint,
    acceptedAt: now,
    evaluations: [evaluation],
  };
  slot.byExternalId.set(externalId, created);
  state.byCaseId.set(created.caseId, created);
  return { kind: 'ack', ack: ackOf(state, created, 'accepted') };
}

/** Distinct outcomes kept for sharing, per slice; a slice with more starts the table again. */
const SHARED_OUTCOMES = 256;
const outcomes = new WeakMap<ModerationState, Map<string, Outcome>>();

/**
 * `outcome`, or an equal one an earlier case already holds. The decision engine gives most cases one of
 * a few outcomes of twenty-odd objects and strings each; shared (outcomes are never changed in place,
 * a re-evaluation already reuses its predecessor's), a snapshot holds each once and a start from it
 * decodes and collects them once, where it decoded them for every case.
 */
function sharedOutcome(state: ModerationState, outcome: Outcome): Outcome {
  // A frozen outcome is one the decision engine shares already (an approval).
  if (Object.isFrozen(outcome)) return outcome;
  let table = outcomes.get(state);
  if (table === undefined) {
    table = new Map();
    outcomes.set(state, table);
  }
  const text = JSON.stringify(outcome);
  const known = table.get(text);
  if (known !== undefined) return known;
  if (table.size >= SHARED_OUTCOMES) table.clear();
  table.set(text, outcome);
  return outcome;
}

/**
 * The evaluation a status read reports: the active workflow's; with none active, the newest one
 * (only the ack uses that case: the status read then answers `policy_not_configured`).
 */
export function currentEvaluation(state: ModerationState, moderationCase: ModerationCase): Evaluation {
  const workflow = activeWorkflow(state, moderationCase.organizationId);
  const evaluations = moderationCase.evaluations;
  const active =
    workflow === null ? undefined : evaluations.find((e) => e.workflowId === workflow.workflowId);
  const newest = evaluations[evaluations.length - 1];
  if (active !== undefined) return active;
  if (newest !== undefined) return newest;
  throw new Error(`moderation case ${moderationCase.caseId} has no evaluation`);
}

/** The idempotency key of a case: its content fingerprint (see docs/write-side.md). */
function ackOf(
  state: ModerationState,
  moderationCase: ModerationCase,
  status: 'accepted' | 'duplicate',
): ModerationAck {
  return {
    caseId: moderationCase.caseId,
    externalId: moderationCase.externalId,
    status,
    analysisStatus: 'pending',
    evaluationId: currentEvaluation(state, moderationCase).evaluationId,
    idempotency: { key: moderationCase.fingerprint, replayed: status === 'duplicate' },
  };
}

function inputRefusal(lists: FieldLists): SubmissionRefusal {
  const { missingFields, invalidFields, errors } = lists;
  if (missingFields.length > 0) {
    const invalid = invalidFields.length > 0 ? `; invalid fields: ${invalidFields.join(', ')}` : '';
    return {
      kind: 'input',
      code: 'MODERATION_INPUT_INCOMPLETE',
      missingFields,
      invalidFields,
      error: 'Moderation input is incomplete',
      message: `Required fields are missing: ${missingFields.join(', ')}${invalid}`,
      errors,
    };
  }
  const named = invalidFields.length > 0 ? invalidFields : [ROOT_FIELD];
  return {
    kind: 'input',
    code: 'MODERATION_INPUT_INVALID',
    missingFields: [],
    invalidFields: named,
    error: 'Moderation input is invalid',
    message:
      errors.length > 0 ? errors.join('; ') : 'The request body must be a moderation submission object',
    errors: errors.length > 0 ? errors : ['The request body must be a moderation submission object'],
  };
}

function conflictRefusal(existing: ModerationCase): SubmissionRefusal {
  const conflict = `externalId ${existing.externalId} already exists with different content`;
  return {
    kind: 'conflict',
    caseId: existing.caseId,
    error: `Conflict: ${conflict}`,
    message: `Conflict: the externalId is immutable and its content differs (case ${existing.caseId})`,
    errors: [conflict],
  };
}

function externalIdOf(submission: unknown): string | null {
  if (!isRecord(submission)) return null;
  const value = submission['externalId'];
  return typeof value === 'string' ? value : null;
}

function isRecord(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
