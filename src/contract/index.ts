/**
 * `cca-kit/contract`: the one validation layer. The contract is loaded once, the operation table and
 * router built once, and every ajv validator compiled once (at first use; ahead of time in the CLI's
 * bundle). The mock engine and the conformance suite both validate through here and nowhere else.
 *
 * @example
 * ```ts
 * import { isOperationId, matchOperation, validateRequest, validateResponse } from 'cca-kit/contract';
 *
 * const match = matchOperation('GET', '/v0/action/list');
 * if (match.kind === 'match' && isOperationId(match.operation.operationId)) {
 *   const result = validateRequest(match.operation.operationId, {
 *     pathParams: match.pathParams,
 *     query: new URLSearchParams('pageSize=501'),
 *     body: undefined,
 *     contentType: null,
 *   });
 *   // result.ok === false; result.issues[0].message ===
 *   //   'query parameter pageSize must be <= 500 (got 501)'
 *   if (!result.ok) console.log(result.issues[0]?.message);
 * }
 * const body: unknown = { data: [], totalRecords: 0, currentPage: 1, pageSize: 50, totalPages: 0 };
 * console.log(validateResponse('listActions', 200, body)); // { ok: true } or { ok: false, issues }
 * ```
 */
import { type Contract, createContract } from './contract.ts';
import type { IssueLocation } from './issues.ts';
import { contractDocument } from './load.ts';
import type { Operation, RouteMatch } from './operations.ts';
import { precompiledValidators } from './precompiled.ts';
import { type components, OPERATION_IDS, type OperationId, type SchemaName } from './types.ts';
import type { RequestInput, RequestValidation, ValidateRequestOptions, Validation } from './validators.ts';

export type { Contract } from './contract.ts';
export { createContract } from './contract.ts';
export type { IssueLocation, ValidationIssue } from './issues.ts';
export { contractDocument, enumOf, PLATFORMS, requiredKeysOf } from './load.ts';
export type {
  JsonSchema,
  Operation,
  OperationParameter,
  RequiredScope,
  RouteMatch,
  Router,
} from './operations.ts';
export type * from './types.ts';
export { OPERATION_IDS } from './types.ts';
export type {
  CreateValidatorsOptions,
  PrecompiledValidators,
  RequestInput,
  RequestValidation,
  ValidateRequestOptions,
  Validation,
  Validators,
} from './validators.ts';
export { coerceParameterValue, declaredResponseKey } from './validators.ts';

/** The contract of `contract/openapi.json`, built once per process. */
export const contract: Contract = createContract(contractDocument, { precompiled: precompiledValidators });

/** Every operation of the contract by operationId. */
export const operations: ReadonlyMap<string, Operation> = contract.operations;

const OPERATION_ID_SET: ReadonlySet<string> = new Set(OPERATION_IDS);

/**
 * True when `id` is an operationId of the contract: narrows the `string` of a routed operation
 * (`matchOperation(...).operation.operationId`) to `OperationId` for the typed functions.
 */
export function isOperationId(id: string): id is OperationId {
  return OPERATION_ID_SET.has(id);
}

/** The operation for an id of the contract. */
export function getOperation(operationId: OperationId): Operation {
  return contract.getOperation(operationId);
}

/**
 * Routes a method and a still percent-encoded pathname: a match with decoded path parameters,
 * `method-not-allowed` with the allowed methods, `bad-path-encoding`, or `not-found`.
 */
export function matchOperation(method: string, pathname: string): RouteMatch {
  return contract.matchOperation(method, pathname);
}

/**
 * Validates a request's path and query parameters (coerced: integer, number and boolean only) and
 * its JSON body against the operation.
 */
export function validateRequest(
  operationId: OperationId,
  input: RequestInput,
  options?: ValidateRequestOptions,
): RequestValidation {
  return contract.validateRequest(operationId, input, options);
}

/** Validates a response body against the operation's declared response for `status`. */
export function validateResponse(operationId: OperationId, status: number, body: unknown): Validation {
  return contract.validateResponse(operationId, status, body);
}

/** Validates a value against one component schema (`validateSchema('ModerationSubmission', item)`). */
export function validateSchema(
  componentName: SchemaName,
  value: unknown,
  location?: IssueLocation,
): Validation {
  return contract.validateSchema(componentName, value, location);
}

/**
 * A type guard over a component schema.
 *
 * @example
 * if (isSchema('ErrorBody', body)) console.log(body.error);
 */
export function isSchema<N extends SchemaName>(
  componentName: N,
  value: unknown,
): value is components['schemas'][N] {
  return contract.validateSchema(componentName, value).ok;
}

/**
 * The operationIds whose `x-required-scope` is `scope`, in contract order.
 *
 * @example
 * operationsWithScope('write'); // ['updateCustomFields', 'submitModerationCase', 'submitModerationBatch']
 */
export function operationsWithScope(scope: 'read' | 'write' | 'ingest'): OperationId[] {
  return [...operations.values()]
    .filter((operation) => operation.requiredScope === scope)
    .map((operation) => operation.operationId as OperationId);
}
