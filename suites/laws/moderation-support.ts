import type { ClientResult } from '../../src/client/types.ts';
import { violate } from '../../src/conformance/kit/check.ts';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/** Checks shared by the moderation laws and the model-based sequences. */

const ANALYSIS = ['policy_not_configured', 'pending', 'running', 'completed', 'failed'];
export const TERMINAL = new Set(['completed', 'failed', 'policy_not_configured']);

/** Checks one status read: known analysisStatus, decision exactly when completed. Returns the status. */
export function checkCaseRead(
  ctx: LawContext,
  res: ClientResult,
  caseId: string,
  externalId?: string,
): string {
  let status = '';
  expectConforming(ctx, 'getModerationCase', res, {
    status: 200,
    statusRule: 'MOD-GET-CASE-FROM-ACK',
    before: (parsed) => {
      const p = obj(parsed);
      status = str(p['analysisStatus']) ?? '';
      if (!ANALYSIS.includes(status))
        violate(
          'MOD-ANALYSIS-STATUS-VALUES',
          `analysis-status:${status}`,
          `case ${caseId} has analysisStatus ${JSON.stringify(p['analysisStatus'])}`,
        );
      if ('decision' in p && p['decision'] !== undefined && status !== 'completed') {
        violate(
          'MOD-DECISION-ONLY-WHEN-COMPLETED',
          `decision-while:${status}`,
          `case ${caseId} shows a decision while analysisStatus is ${status}`,
        );
      }
      if (status === 'completed' && (p['decision'] === undefined || p['decision'] === null)) {
        violate(
          'MOD-DECISION-ONLY-WHEN-COMPLETED',
          'completed-without-decision',
          `case ${caseId} is completed but has no decision`,
        );
      }
      if (p['caseId'] !== caseId)
        violate(
          'MOD-GET-CASE-FROM-ACK',
          'read-case-id',
          `GET case ${caseId} answered caseId ${JSON.stringify(p['caseId'])}`,
        );
      if (externalId !== undefined && p['externalId'] !== externalId) {
        violate(
          'ID-MODERATION-EXTERNALID-IMMUTABLE',
          'read-external-id',
          `case ${caseId} reads externalId ${JSON.stringify(p['externalId'])}, submitted ${JSON.stringify(externalId)}`,
        );
      }
    },
  });
  return status;
}

/** Submits one case and checks the 202 acknowledgement of a new case. */
export async function submitNew(
  ctx: LawContext,
  submission: Record<string, unknown>,
): Promise<{ caseId: string; ack: Record<string, unknown> }> {
  const res = await call(ctx, 'submitModerationCase', { auth: 'write', json: submission });
  const ok = expectConforming(ctx, 'submitModerationCase', res, {
    status: 202,
    statusRule: 'MOD-SUBMIT-202',
    before: (parsed) => {
      const p = obj(parsed);
      if (p['status'] !== 'accepted')
        violate(
          'MOD-NEW-CASE-PENDING',
          `new-status:${String(p['status'])}`,
          `a new externalId was answered status ${JSON.stringify(p['status'])}, expected accepted`,
        );
      if (p['analysisStatus'] !== 'pending')
        violate(
          'MOD-ACK-ANALYSIS-PENDING',
          `ack-analysis:${String(p['analysisStatus'])}`,
          `acknowledgement analysisStatus ${JSON.stringify(p['analysisStatus'])}, expected pending`,
        );
      if (p['externalId'] !== submission['externalId'])
        violate(
          'MOD-ACK-EXTERNALID-ECHO',
          'ack-external-id',
          `acknowledgement externalId ${JSON.stringify(p['externalId'])}, sent ${JSON.stringify(submission['externalId'])}`,
        );
      if (obj(p['idempotency'])['replayed'] === true)
        violate(
          'MOD-NEW-CASE-PENDING',
          'new-replayed',
          'a new case is acknowledged with idempotency.replayed true',
        );
    },
  });
  const ack = obj(ok.parsed);
  return { caseId: str(ack['caseId']) ?? '', ack };
}

/**
 * The results of a batch answer, after checking there is one per input, in input order
 * (MOD-BATCH-ORDER). `tag` keeps each law's failure fingerprints distinct for baselines.
 */
export function resultsInInputOrder(
  parsed: unknown,
  inputs: readonly { readonly body: Record<string, unknown> }[],
  tag = '',
): Record<string, unknown>[] {
  const results = arr(obj(parsed)['results']).map(obj);
  if (results.length !== inputs.length) {
    violate(
      'MOD-BATCH-ORDER',
      `${tag}result-count`,
      `batch of ${inputs.length} answered ${results.length} results`,
    );
  }
  results.forEach((r, i) => {
    const sent = inputs[i]?.body['externalId'];
    if (r['externalId'] !== sent) {
      violate(
        'MOD-BATCH-ORDER',
        `${tag}result-order`,
        `result ${i} is for ${JSON.stringify(r['externalId'])}, input ${i} was ${JSON.stringify(sent)}`,
      );
    }
  });
  return results;
}
