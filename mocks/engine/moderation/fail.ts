/**
 * Makes an accepted case end as `failed` (a targeted fault: "answer the 202, then fail the case"): the
 * evaluation the status read reports keeps its place on the clock (pending, running), and settles as
 * failed with `failureCode` instead of the decision the engine had computed.
 */
import { currentEvaluation } from './intake.ts';
import type { ModerationState } from './state.ts';

/**
 * @example
 * failCase(state.moderation, ack.caseId, 'EVALUATION_TIMEOUT'); // true
 * @returns false when there is no such case.
 */
export function failCase(state: ModerationState, caseId: string, failureCode: string): boolean {
  const found = state.byCaseId.get(caseId);
  if (found === undefined) return false;
  const evaluation = currentEvaluation(state, found);
  const index = found.evaluations.indexOf(evaluation);
  found.evaluations[index] = { ...evaluation, outcome: { analysisStatus: 'failed', failureCode } };
  return true;
}
