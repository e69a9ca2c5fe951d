/**
 * The answer side of the choices: one pass over a handler's (or the pipeline's) result, each change
 * done by its named piece. With every choice at its default the result is returned untouched.
 */

import { CHOICE_NAMES, type Choices } from '../../../src/contract/choice-points.ts';
import type { Operation } from '../../../src/contract/index.ts';
import { type HandlerResult, SerialisedJson } from '../types.ts';
import { statusOut } from './action-statuses.ts';
import { DEFAULT_CHOICES } from './defaults.ts';
import { durationOut } from './durations.ts';
import { errorMessageOut } from './error-messages.ts';
import { agentDetailRows, engagementRows, tagVolumeRows } from './row-shapes.ts';
import {
  moderationCodeOut,
  moderationInputStatusOut,
  noAdPolicyStatusOut,
  validationStatusOut,
} from './statuses.ts';

type Body = Record<string, unknown>;

const isBody = (v: unknown): v is Body => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Status and duration fields of one action record (summary, search item or detail). */
function actionOut(choices: Choices, action: unknown): unknown {
  if (!isBody(action)) return action;
  return {
    ...action,
    status: statusOut(choices, action['status']),
    firstResponseTime: durationOut(choices, action['firstResponseTime']),
    handleTime: durationOut(choices, action['handleTime']),
  };
}

function successOut(choices: Choices, operationId: string, body: Body): Body {
  switch (operationId) {
    case 'listActions':
    case 'searchConversations':
      return Array.isArray(body['data'])
        ? { ...body, data: body['data'].map((a: unknown) => actionOut(choices, a)) }
        : body;
    case 'getAction':
      return actionOut(choices, body) as Body;
    case 'submitModerationBatch':
      return Array.isArray(body['results'])
        ? {
            ...body,
            results: body['results'].map((r: unknown) => (isBody(r) ? moderationCodeOut(choices, r) : r)),
          }
        : body;
  }
  if (choices.rowShapes === 'contract' || !isBody(body['data'])) return body;
  if (operationId === 'getAgent') return { ...body, data: agentDetailRows(body['data']) };
  if (operationId === 'getTagVolume') return { ...body, data: tagVolumeRows(body['data']) };
  if (operationId === 'getEngagement') return { ...body, data: engagementRows(body['data']) };
  return body;
}

/** The points that act here (the others act through the state: the cap, the moderation latency). */
const RESULT_POINTS = CHOICE_NAMES.filter((n) => n !== 'totalRecordsCap' && n !== 'moderationTimings');
const allDefault = (choices: Choices): boolean =>
  RESULT_POINTS.every((name) => choices[name] === DEFAULT_CHOICES[name]);

export function shapeResult<R extends HandlerResult>(
  choices: Choices,
  operation: Operation | null,
  result: R,
): R {
  if (operation === null || allDefault(choices)) return result;
  const operationId = operation.operationId;
  const value = result.body instanceof SerialisedJson ? result.body.value() : result.body;
  if (!isBody(value)) return result;
  let status = result.status;
  let body = value;
  if (status < 400) body = successOut(choices, operationId, body);
  else {
    const code = 'code' in result ? result.code : undefined;
    if (code === 'MODERATION_MODE_REQUIRED') status = noAdPolicyStatusOut(choices, operation);
    if (code === 'INVALID_BODY') status = validationStatusOut(choices, operationId, status);
    if (operationId === 'submitModerationCase') {
      body = moderationCodeOut(choices, body);
      status = moderationInputStatusOut(choices, body, status);
    }
    if (typeof body['error'] === 'string' && status !== 500)
      body = { ...body, error: errorMessageOut(choices, status, body['error']) };
  }
  return { ...result, status, body };
}
