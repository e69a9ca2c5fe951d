/**
 * The status read (spec 4.16) and the admin operations on the lifecycle and on policy workflows.
 */
import { currentEvaluation } from './intake.ts';
import { createEvaluation, settle, step, viewOf } from './scheduler.ts';
import { activeWorkflow, issueId, type ModerationState, newWorkflow, organizationSlot } from './state.ts';
import type { ModerationCase, ModerationCaseStatus, PolicyWorkflow } from './types.ts';

/**
 * The status of a case as its organization sees it, or null when the case does not exist or belongs
 * to another organization (both answer 404). Only the active policy workflow's evaluation is
 * reported, never an older completed one (section 3, fact 3).
 *
 * @example
 * readCaseStatus(state, 'org_1', ack.caseId)?.analysisStatus // 'pending' right after intake
 */
export function readCaseStatus(
  state: ModerationState,
  organizationId: string,
  caseId: string,
): ModerationCaseStatus | null {
  const found = state.byCaseId.get(caseId);
  if (found === undefined || found.organizationId !== organizationId) return null;
  return statusOf(state, found);
}

export function statusOf(state: ModerationState, moderationCase: ModerationCase): ModerationCaseStatus {
  const { caseId, externalId } = moderationCase;
  if (activeWorkflow(state, moderationCase.organizationId) === null) {
    return { caseId, externalId, analysisStatus: 'policy_not_configured' };
  }
  const evaluation = currentEvaluation(state, moderationCase);
  settle(evaluation, state.clock.now(), state.latency);
  const view = viewOf(evaluation);
  const evaluationId = evaluation.evaluationId;
  switch (view.analysisStatus) {
    case 'completed':
      return { caseId, externalId, analysisStatus: 'completed', evaluationId, decision: view.decision };
    case 'failed':
      return { caseId, externalId, analysisStatus: 'failed', evaluationId, failureCode: view.failureCode };
    default:
      return { caseId, externalId, analysisStatus: view.analysisStatus, evaluationId };
  }
}

export type StepResult =
  | { readonly ok: true; readonly status: ModerationCaseStatus }
  | { readonly ok: false; readonly reason: 'not_found' | 'policy_not_configured' | 'already_settled' };

/**
 * Moves one case's active evaluation one state on: pending → running → completed | failed.
 *
 * @example
 * stepCase(state, caseId); // { ok: true, status: { analysisStatus: 'running', ... } }
 */
export function stepCase(state: ModerationState, caseId: string): StepResult {
  const found = state.byCaseId.get(caseId);
  if (found === undefined) return { ok: false, reason: 'not_found' };
  if (activeWorkflow(state, found.organizationId) === null)
    return { ok: false, reason: 'policy_not_configured' };
  const moved = step(currentEvaluation(state, found), state.clock.now(), state.latency);
  if (!moved) return { ok: false, reason: 'already_settled' };
  return { ok: true, status: statusOf(state, found) };
}

/**
 * Makes an accepted case end as `failed` (a targeted fault: "answer the 202, then fail the case"): the
 * evaluation the status read reports keeps its place on the clock (pending, running) and settles as
 * failed with `failureCode` instead of the decision the engine had computed. False for no such case.
 *
 * @example
 * failCase(state, ack.caseId, 'EVALUATION_TIMEOUT'); // true
 */
export function failCase(state: ModerationState, caseId: string, failureCode: string): boolean {
  const found = state.byCaseId.get(caseId);
  if (found === undefined) return false;
  const evaluation = currentEvaluation(state, found);
  const index = found.evaluations.indexOf(evaluation);
  found.evaluations[index] = { ...evaluation, outcome: { analysisStatus: 'failed', failureCode } };
  return true;
}

/**
 * Activates a new policy workflow for an organization: every one of its cases gets a new evaluation
 * (new evaluationId, pending from now), and status reads report only those from then on.
 *
 * @example
 * activatePolicy(state, 'org_1', 'ad-policy-v2').workflowId
 */
export function activatePolicy(
  state: ModerationState,
  organizationId: string,
  policyId: string = state.defaultPolicyId,
): PolicyWorkflow {
  const slot = organizationSlot(state, organizationId);
  const now = state.clock.now();
  const workflow = newWorkflow(state, policyId, now);
  slot.workflow = workflow;
  for (const moderationCase of slot.byExternalId.values()) {
    const previous = moderationCase.evaluations[0];
    if (previous === undefined) continue;
    moderationCase.evaluations.push(
      createEvaluation(issueId(state, 'ev'), workflow.workflowId, now, previous.outcome, state.latency),
    );
  }
  return workflow;
}

/** Removes the organization's policy workflow: every status read answers `policy_not_configured`. */
export function deactivatePolicy(state: ModerationState, organizationId: string): void {
  organizationSlot(state, organizationId).workflow = null;
}

export interface CaseSummary extends ModerationCaseStatus {
  readonly organizationId: string;
  readonly acceptedAt: number;
  readonly policyId: string | null;
  readonly evaluations: readonly { readonly evaluationId: string; readonly workflowId: string | null }[];
}

/** Every case (optionally of one organization), in intake order, for debugging. */
export function listCases(state: ModerationState, organizationId?: string): CaseSummary[] {
  const summaries: CaseSummary[] = [];
  for (const moderationCase of state.byCaseId.values()) {
    if (organizationId !== undefined && moderationCase.organizationId !== organizationId) continue;
    summaries.push({
      ...statusOf(state, moderationCase),
      organizationId: moderationCase.organizationId,
      acceptedAt: moderationCase.acceptedAt,
      policyId: activeWorkflow(state, moderationCase.organizationId)?.policyId ?? null,
      evaluations: moderationCase.evaluations.map(({ evaluationId, workflowId }) => ({
        evaluationId,
        workflowId,
      })),
    });
  }
  return summaries;
}
