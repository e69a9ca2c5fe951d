/**
 * How contract-validation issues become responses, per operation. Parameters are always a 400 with the
 * general error body; a body's issues follow the operation's policy (spec section 7):
 * custom fields 422 with `fieldErrors`, moderation 400 `MODERATION_INPUT_INCOMPLETE` (something missing)
 * or 422 `MODERATION_INPUT_INVALID`, ingestion 422 naming the field. The moderation batch validates only
 * its envelope here; its handler validates each case (`validateSchema('ModerationSubmission', item)`).
 */
import type { ValidationIssue } from '../../src/contract/index.ts';
import { type EngineError, errors, summarizeIssues } from './errors.ts';
import { fieldLists } from './moderation/index.ts';

export interface ValidationPolicy {
  /** How much of the body the pipeline validates. */
  readonly body: 'full' | 'envelope';
  /** The answer to a request whose body has issues (parameter issues are always 400). */
  readonly invalidBody: (
    operationId: string,
    issues: readonly ValidationIssue[],
    body: unknown,
  ) => EngineError;
}

const generalBody: ValidationPolicy = {
  body: 'full',
  invalidBody: (operationId, issues) => errors.invalidBody(operationId, issues, 422),
};

function moderationError(operationId: string, issues: readonly ValidationIssue[]): EngineError {
  const lists = fieldLists(issues);
  const incomplete = lists.missingFields.length > 0;
  const code = incomplete ? 'MODERATION_INPUT_INCOMPLETE' : 'MODERATION_INPUT_INVALID';
  const message = incomplete
    ? `Moderation input incomplete: missing ${lists.missingFields.join(', ')}`
    : `Moderation input invalid: ${lists.invalidFields.join(', ')}`;
  return errors.invalidBody(operationId, issues, incomplete ? 400 : 422, {
    message,
    code,
    missingFields: lists.missingFields,
    invalidFields: lists.invalidFields,
  });
}

/** `fieldErrors` keyed by the custom field's name when the issue is inside `fields[i]`, else by path. */
function customFieldErrors(issues: readonly ValidationIssue[], body: unknown): Record<string, string> {
  const fields =
    typeof body === 'object' && body !== null ? (body as { fields?: unknown }).fields : undefined;
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) {
    const index = /^\/fields\/(\d+)/.exec(issue.pointer)?.[1];
    const item =
      index !== undefined && Array.isArray(fields) ? fields[Number.parseInt(index, 10)] : undefined;
    const name =
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { fieldName?: unknown }).fieldName === 'string'
        ? (item as { fieldName: string }).fieldName
        : issue.field || 'body';
    fieldErrors[name] =
      fieldErrors[name] === undefined ? issue.message : `${fieldErrors[name]}; ${issue.message}`;
  }
  return fieldErrors;
}

const policies: Readonly<Record<string, ValidationPolicy>> = {
  updateCustomFields: {
    body: 'full',
    invalidBody: (operationId, issues, body) =>
      errors.invalidBody(operationId, issues, 422, { fieldErrors: customFieldErrors(issues, body) }),
  },
  submitModerationCase: { body: 'full', invalidBody: moderationError },
  submitModerationBatch: {
    body: 'envelope',
    invalidBody: (operationId, issues) =>
      errors.invalidBody(operationId, issues, 400, {
        message: `Invalid batch envelope: ${summarizeIssues(issues)}`,
      }),
  },
  ingestRecords: generalBody,
};

export function validationPolicyOf(operationId: string): ValidationPolicy {
  return policies[operationId] ?? generalBody;
}
