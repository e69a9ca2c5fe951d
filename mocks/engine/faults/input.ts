/**
 * Checks a fault as a test gives it (typed or as JSON over `/__mock/faults`), once, into a complete
 * spec; a bad one is refused with an error naming the field and what it accepts.
 */
import type { Operation } from '../../../src/contract/index.ts';

/** Longest delay a fault may hold an answer (ms), as for the chaos latency. */
export const MAX_FAULT_DELAY_MS = 60_000;
/** Largest `times` (a fault meant to last is `times: null`). */
export const MAX_FAULT_TIMES = 1_000_000;
export const DEFAULT_FAILURE_CODE = 'EVALUATION_TIMEOUT';

/** The operations whose 202 starts moderation cases (`failCase`). */
export const CASE_OPERATIONS: ReadonlySet<string> = new Set([
  'submitModerationCase',
  'submitModerationBatch',
]);

const FIELDS: ReadonlySet<string> = new Set([
  'operation',
  'key',
  'path',
  'body',
  'status',
  'delayMs',
  'drop',
  'failCase',
  'failureCode',
  'times',
]);

/** A refused fault: `field` is the input's field at fault ('' for the input as a whole). */
export class FaultInputError extends RangeError {
  override readonly name = 'FaultInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(field === '' ? message : `fault field ${field}: ${message}`);
  }
}

/** A fault checked and completed (the registry adds the id and counters). */
export interface FaultSpec {
  readonly operation: string;
  readonly key: string | null;
  readonly path: string | null;
  readonly pathPattern: PathPattern | null;
  readonly body: Readonly<Record<string, unknown>> | null;
  readonly status: number | null;
  readonly delayMs: number | null;
  readonly drop: boolean;
  readonly failCase: boolean;
  readonly failureCode: string | null;
  readonly times: number | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function nonEmptyString(input: Record<string, unknown>, field: string, max: number): string | null {
  const value = input[field];
  if (value === undefined) return null;
  if (typeof value !== 'string' || value === '' || value.length > max)
    throw new FaultInputError(field, `must be a non-empty string of at most ${max} characters`);
  return value;
}

function integer(input: Record<string, unknown>, field: string, min: number, max: number): number | null {
  const value = input[field];
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new FaultInputError(
      field,
      `must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  return value;
}

function flag(input: Record<string, unknown>, field: string): boolean {
  const value = input[field];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new FaultInputError(field, 'must be true or false');
  return value;
}

/** Whether a whole path matches a pattern. */
export interface PathPattern {
  test(pathname: string): boolean;
}

/**
 * `/v0/action/*` as a whole-path pattern: `*` is any run of characters, the rest literal. Matched in
 * time linear in pattern × path (the classic wildcard walk, backtracking to the last `*` only), never
 * by a regular expression, whose `.*` runs backtrack exponentially on a pattern of many stars.
 */
export function pathPattern(pattern: string): PathPattern {
  return {
    test(text) {
      let p = 0;
      let t = 0;
      let star = -1;
      let resume = 0;
      while (t < text.length) {
        if (p < pattern.length && pattern[p] === '*') {
          star = p++;
          resume = t;
        } else if (p < pattern.length && pattern[p] === text[t]) {
          p += 1;
          t += 1;
        } else if (star >= 0) {
          p = star + 1;
          t = ++resume;
        } else return false;
      }
      while (p < pattern.length && pattern[p] === '*') p += 1;
      return p === pattern.length;
    },
  };
}

/** The statuses a fault may answer for `operation`: the errors it declares. */
export function faultStatuses(operation: Operation): number[] {
  return [...operation.responses.keys()]
    .filter((key) => /^[45]\d\d$/.test(key))
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * Checks `input` against the operations of the engine's contract.
 *
 * @example
 * parseFault({ operation: 'getAction', status: 500, times: 2 }, contract.operations).times // 2
 * @throws FaultInputError naming the field.
 */
export function parseFault(input: unknown, operations: ReadonlyMap<string, Operation>): FaultSpec {
  if (!isObject(input))
    throw new FaultInputError('', 'a fault must be an object like {"operation": "getAction", "status": 500}');
  const unknown = Object.keys(input).filter((name) => !FIELDS.has(name));
  if (unknown.length > 0)
    throw new FaultInputError(unknown[0] ?? '', `unknown field (the fields are ${[...FIELDS].join(', ')})`);
  const operationId = input['operation'];
  const operation = typeof operationId === 'string' ? operations.get(operationId) : undefined;
  // The documentation routes answer before keys are checked: there is no call of theirs to fail.
  if (operation === undefined || operation.requiredScope === null) {
    const known = [...operations.values()].filter((o) => o.requiredScope !== null).map((o) => o.operationId);
    throw new FaultInputError(
      'operation',
      `must be the operationId of a service operation (${known.join(', ')}), got ${JSON.stringify(operationId)}`,
    );
  }
  const key = nonEmptyString(input, 'key', 4096);
  const path = nonEmptyString(input, 'path', 2048);
  if (path !== null && !path.startsWith('/'))
    throw new FaultInputError(
      'path',
      `must start with "/" (like "/v0/action/*"), got ${JSON.stringify(path)}`,
    );
  const body = input['body'];
  if (body !== undefined && !isObject(body))
    throw new FaultInputError('body', 'must be an object of the values the request body must hold');
  if (body !== undefined && operation.requestBodySchema === undefined)
    throw new FaultInputError('body', `operation ${operation.operationId} takes no request body`);

  const status = integer(input, 'status', 400, 599);
  const declared = faultStatuses(operation);
  if (status !== null && !declared.includes(status))
    throw new FaultInputError(
      'status',
      `${operation.operationId} declares no ${status} answer; it declares ${declared.join(', ')}`,
    );
  const delayMs = integer(input, 'delayMs', 0, MAX_FAULT_DELAY_MS);
  const drop = flag(input, 'drop');
  const failCase = flag(input, 'failCase');
  const failureCode = nonEmptyString(input, 'failureCode', 128);
  if (failCase && !CASE_OPERATIONS.has(operation.operationId))
    throw new FaultInputError(
      'failCase',
      `only moderation submissions start cases (${[...CASE_OPERATIONS].join(', ')}), not ${operation.operationId}`,
    );
  if (failureCode !== null && !failCase) throw new FaultInputError('failureCode', 'goes with failCase: true');
  const answers = [status !== null && 'status', drop && 'drop', failCase && 'failCase'].filter(
    (a): a is string => a !== false,
  );
  if (answers.length > 1)
    throw new FaultInputError(answers[1] ?? '', `a fault answers one way: ${answers.join(' and ')} together`);
  if (answers.length === 0 && delayMs === null)
    throw new FaultInputError('', 'a fault needs one of status, drop, failCase or delayMs');

  const times = input['times'] === null ? null : (integer(input, 'times', 1, MAX_FAULT_TIMES) ?? 1);
  return {
    operation: operation.operationId,
    key,
    path,
    pathPattern: path === null ? null : pathPattern(path),
    body: body === undefined ? null : (body as Record<string, unknown>),
    status,
    delayMs,
    drop,
    failCase,
    failureCode: failCase ? (failureCode ?? DEFAULT_FAILURE_CODE) : null,
    times,
  };
}
