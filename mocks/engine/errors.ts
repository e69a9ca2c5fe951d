/**
 * The error catalogue: every error the engine itself answers, with a stable code, a status and a
 * message naming the operation, parameter or field. Handlers answer their own domain errors (404 for an
 * unknown id, 409 conflicts); everything the pipeline decides comes from here. Also the two errors
 * every layer may raise: `AdminError` (a refused admin operation or command) and `missingPart` (the
 * message of an optional part the engine was built without).
 */
import type { ValidationIssue } from '../../src/contract/index.ts';
import type { HandlerResult } from './types.ts';

export type EngineErrorCode =
  | 'ROUTE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'BAD_PATH_ENCODING'
  | 'KEY_MISSING'
  | 'KEY_UNKNOWN'
  | 'KEY_EXPIRED'
  | 'KEY_REVOKED'
  | 'SCOPE_MISSING'
  | 'MODERATION_MODE_REQUIRED'
  | 'BODY_TOO_LARGE'
  | 'BODY_REQUIRED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'MALFORMED_JSON'
  | 'INVALID_PARAMETERS'
  | 'INVALID_BODY'
  | 'INTERNAL'
  | 'SELF_CHECK_FAILED'
  | 'ADMIN_FORBIDDEN'
  | 'ADMIN_NOT_FOUND'
  | 'ADMIN_BAD_REQUEST'
  | 'STORE_UNAVAILABLE'
  | 'FAULT_INJECTED'
  | 'OUTCOME_UNKNOWN';

/** An error answer: a handler result plus the catalogue code (sent as `x-mock-error-code`). */
export interface EngineError extends HandlerResult {
  readonly code: EngineErrorCode;
  readonly body: { readonly success: false; readonly error: string; readonly [extra: string]: unknown };
}

export const ERROR_CODE_HEADER = 'x-mock-error-code';

/** The id of the targeted fault that answered, on its answers (debugging aid; a real service sends none). */
export const FAULT_HEADER = 'x-mock-fault';

/** What each status means (spec section 7), the start of an injected error's message. */
const STATUS_MEANING: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Invalid API key',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict: immutable identifier',
  413: 'Request body too large',
  415: 'Unsupported media type',
  422: 'Validation failed',
};

/** The spec's message for an uncaught server error (section 7). */
export const INTERNAL_SERVER_ERROR = 'Internal server error';

function error(
  code: EngineErrorCode,
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
): EngineError {
  return {
    code,
    status,
    body: { success: false, error: message, ...extra },
    headers: { [ERROR_CODE_HEADER]: code, ...headers },
  };
}

/** Joins issue messages into one sentence list, capped so a huge invalid body gives a readable error. */
export function summarizeIssues(issues: readonly ValidationIssue[], max = 10): string {
  const shown = issues.slice(0, max).map((i) => i.message);
  const more = issues.length > max ? `; and ${issues.length - max} more` : '';
  return `${shown.join('; ')}${more}`;
}

export const errors = {
  routeNotFound: (method: string, pathname: string) =>
    error('ROUTE_NOT_FOUND', 404, `No operation matches ${method} ${pathname}`),
  methodNotAllowed: (method: string, pathname: string, allowed: readonly string[]) =>
    error(
      'METHOD_NOT_ALLOWED',
      405,
      `Method ${method} is not allowed on ${pathname}; allowed: ${allowed.join(', ')}`,
      {},
      { allow: allowed.join(', ') },
    ),
  badPathEncoding: (operationId: string, segment: string) =>
    error(
      'BAD_PATH_ENCODING',
      400,
      `Invalid request to ${operationId}: malformed percent-encoding in path segment ${JSON.stringify(segment)}`,
    ),
  keyMissing: () => error('KEY_MISSING', 401, 'Missing API key: send it in the X-API-Key header'),
  keyUnknown: () => error('KEY_UNKNOWN', 401, 'Invalid API key'),
  keyExpired: () => error('KEY_EXPIRED', 401, 'API key has expired'),
  keyRevoked: () => error('KEY_REVOKED', 401, 'API key has been revoked'),
  scopeMissing: (operationId: string, scope: string, profile: string) =>
    error(
      'SCOPE_MISSING',
      403,
      `Forbidden: operation ${operationId} requires the ${scope} scope, which a key with the ${profile} profile does not have`,
    ),
  moderationModeRequired: (operationId: string, organizationId: string, mode: string) => {
    const message = `Moderation is not available: organization ${organizationId} is in ${mode} mode; operation ${operationId} requires ad_policy mode`;
    return error('MODERATION_MODE_REQUIRED', 403, message, { message, supported: ['ad_policy'] });
  },
  bodyTooLarge: (maxBytes: number) =>
    error('BODY_TOO_LARGE', 413, `Request body exceeds the mock's limit of ${maxBytes} bytes`),
  bodyRequired: (operationId: string) =>
    error('BODY_REQUIRED', 400, `Invalid request to ${operationId}: a JSON request body is required`),
  unsupportedMediaType: (operationId: string, contentType: string | null) =>
    error(
      'UNSUPPORTED_MEDIA_TYPE',
      415,
      `Operation ${operationId} accepts only application/json request bodies (got content-type ${JSON.stringify(contentType ?? '')})`,
    ),
  malformedJson: (operationId: string, detail: string) =>
    error('MALFORMED_JSON', 400, `Invalid request to ${operationId}: malformed JSON body (${detail})`),
  invalidParameters: (operationId: string, issues: readonly ValidationIssue[]) =>
    error('INVALID_PARAMETERS', 400, `Invalid request to ${operationId}: ${summarizeIssues(issues)}`),
  invalidBody: (operationId: string, issues: readonly ValidationIssue[], status = 422, extra = {}) =>
    error(
      'INVALID_BODY',
      status,
      `Invalid request body for ${operationId}: ${summarizeIssues(issues)}`,
      extra,
    ),
  internal: () => error('INTERNAL', 500, INTERNAL_SERVER_ERROR),
  selfCheckFailed: (operationId: string, status: number, issues: readonly ValidationIssue[]) =>
    error(
      'SELF_CHECK_FAILED',
      500,
      `Mock self-check failed: the ${status} response of ${operationId} violates the contract: ${summarizeIssues(issues)}`,
    ),
  adminForbidden: (reason?: string) =>
    error(
      'ADMIN_FORBIDDEN',
      403,
      `The mock admin API answers only loopback clients or requests carrying the admin token (X-Mock-Admin-Token)${reason === undefined ? '' : `: ${reason}`}`,
    ),
  adminNotFound: (method: string, pathname: string, why?: string) =>
    error(
      'ADMIN_NOT_FOUND',
      404,
      `No admin operation matches ${method} ${pathname}${why === undefined ? '' : `. ${why}`}`,
    ),
  adminBadRequest: (message: string, status = 400) => error('ADMIN_BAD_REQUEST', status, message),
  storeUnavailable: (detail: string) =>
    error(
      'STORE_UNAVAILABLE',
      503,
      `Service unavailable: the mock's shared state store cannot take writes now (${detail}); nothing was changed, retry later`,
      {},
      { 'retry-after': '1' },
    ),
  /**
   * A targeted fault's answer: the spec's general error body; a 500 carries the spec's own message,
   * as an uncaught error would.
   */
  faultInjected: (operationId: string, status: number, faultId: string) =>
    error(
      'FAULT_INJECTED',
      status,
      status === 500
        ? INTERNAL_SERVER_ERROR
        : `${STATUS_MEANING[status] ?? 'Error'} (the mock's fault ${faultId} on ${operationId})`,
    ),
  /**
   * The write reached the shared log, or may have, and its outcome could not be read: saying "nothing
   * was changed" would be false (every replica applies what the log holds). The body says so and names
   * what to read before a retry: the general error body with `outcome`, `inLog` and `readBeforeRetry`
   * beside it (an extension the spec does not declare, so not in the contract; docs/sandbox.md).
   */
  outcomeUnknown: (detail: string, inLog: boolean, read: string) =>
    error(
      'OUTCOME_UNKNOWN',
      503,
      `Service unavailable: the outcome of this write is unknown (${detail}); ${inLog ? 'it is in the shared log and every replica applies it' : 'it may be in the shared log'}. Read before retrying: ${read}`,
      { outcome: 'unknown', inLog, readBeforeRetry: read },
      { 'retry-after': '1' },
    ),
} as const;

/** How an engine without a part says so: the part's name and where `cca-kit/msw` users get it. */
export function missingPart(what: string, feature: string): string {
  return (
    `${what} ${what.endsWith('s') ? 'are' : 'is'} not part of this engine: in a browser build of cca-kit/msw, ` +
    `import { ${feature} } from 'cca-kit/msw/features' and pass createHandlers({ ..., use: [${feature}] })`
  );
}

/**
 * A misuse of an admin operation or a refused command (unknown key or organization, invalid input);
 * carries an HTTP status. Thrown by the commands and the admin API alike, so it sits with the base.
 */
export class AdminError extends Error {
  override readonly name = 'AdminError';
  constructor(
    readonly code: 'NOT_FOUND' | 'BAD_REQUEST',
    message: string,
  ) {
    super(message);
  }
  get status(): 404 | 400 {
    return this.code === 'NOT_FOUND' ? 404 : 400;
  }
}

export const isAdminError = (value: unknown): value is AdminError => value instanceof AdminError;
