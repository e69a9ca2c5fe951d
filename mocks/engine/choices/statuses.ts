/**
 * Choices about error statuses and moderation error codes:
 * - `validationStatus`: 400 or 422 for a request body that fails the contract outside moderation;
 * - `noAdPolicyStatus`: the refusal of moderation for an organization not in `ad_policy` mode;
 * - `moderationInputStatus`: which of 400 and 422 carries each moderation input code;
 * - `nestedIncompleteCode`: the code of a field missing inside an item (`media[0].url`).
 */

import type { Choices } from '../../../src/contract/choice-points.ts';
import type { Operation } from '../../../src/contract/index.ts';

type Body = Record<string, unknown>;

/** Operations outside moderation whose body the pipeline validates (section 7: 400 or 422 not shown). */
const GENERAL_BODY_OPERATIONS = new Set(['updateCustomFields', 'ingestRecords']);

export function validationStatusOut(
  choices: Pick<Choices, 'validationStatus'>,
  operationId: string,
  status: number,
): number {
  if (choices.validationStatus === '422' || status !== 422 || !GENERAL_BODY_OPERATIONS.has(operationId))
    return status;
  return 400;
}

/** The chosen refusal status where the operation declares it, else 403. */
export function noAdPolicyStatusOut(
  choices: Pick<Choices, 'noAdPolicyStatus'>,
  operation: Operation,
): number {
  const chosen = Number(choices.noAdPolicyStatus);
  return operation.responses.has(String(chosen)) ? chosen : 403;
}

const INCOMPLETE = 'MODERATION_INPUT_INCOMPLETE';
const INVALID = 'MODERATION_INPUT_INVALID';
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s) => typeof s === 'string') : []);
const nested = (field: string): boolean => /[.[]/.test(field);

/** A moderation refusal (the single body or a batch item) with nested missing fields moved, if chosen. */
export function moderationCodeOut(choices: Pick<Choices, 'nestedIncompleteCode'>, body: Body): Body {
  if (
    choices.nestedIncompleteCode === 'incomplete' ||
    (body['code'] !== INCOMPLETE && body['code'] !== INVALID)
  )
    return body;
  const missing = strings(body['missingFields']);
  const moved = missing.filter(nested);
  if (moved.length === 0) return body;
  const stillMissing = missing.filter((f) => !nested(f));
  return {
    ...body,
    code: stillMissing.length > 0 ? INCOMPLETE : INVALID,
    missingFields: stillMissing,
    invalidFields: [...new Set([...strings(body['invalidFields']), ...moved])],
  };
}

/** The status of a single submission's input refusal, by its code. */
export function moderationInputStatusOut(
  choices: Pick<Choices, 'moderationInputStatus'>,
  body: Body,
  status: number,
): number {
  if (body['code'] !== INCOMPLETE && body['code'] !== INVALID) return status;
  if (choices.moderationInputStatus === 'split') return body['code'] === INCOMPLETE ? 400 : 422;
  return Number(choices.moderationInputStatus);
}
