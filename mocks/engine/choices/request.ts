/**
 * The request side of the choices: the query a handler sees, or the error a choice answers instead.
 */

import type { Choices } from '../../../src/contract/choice-points.ts';
import { badRequest } from '../records/results.ts';
import type { HandlerResult } from '../types.ts';
import { DEFAULT_CHOICES } from './defaults.ts';
import { DSL_PARAMETER, shapeFilterText } from './filter-terms.ts';

export type ShapedRequest =
  | { readonly ok: true; readonly query: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly error: HandlerResult };

export function shapeRequest(
  choices: Choices,
  operationId: string,
  query: Readonly<Record<string, unknown>>,
): ShapedRequest {
  if (operationId === 'getTagAnalytics' && choices.tagLimitMax !== DEFAULT_CHOICES.tagLimitMax) {
    const max = Number(choices.tagLimitMax);
    const limit = Number(query['limit']);
    if (query['limit'] !== undefined && Number.isFinite(limit) && limit > max)
      return { ok: false, error: badRequest(operationId, `limit must be at most ${max}`) };
  }
  const parameter = DSL_PARAMETER[operationId];
  const text = parameter === undefined ? undefined : query[parameter];
  if (parameter === undefined || typeof text !== 'string') return { ok: true, query };
  if (
    choices.filterKeys === DEFAULT_CHOICES.filterKeys &&
    choices.unknownFilterKey === DEFAULT_CHOICES.unknownFilterKey &&
    choices.actionStatuses === DEFAULT_CHOICES.actionStatuses
  )
    return { ok: true, query };
  const shaped = shapeFilterText(choices, parameter, text);
  if (!shaped.ok) return { ok: false, error: badRequest(operationId, shaped.error) };
  return { ok: true, query: { ...query, [parameter]: shaped.text } };
}
