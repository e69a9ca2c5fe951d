import type { OpenAPIV3_1 } from 'openapi-types';
import { buildOperationTable, type Operation, type RequiredScope } from './operations.ts';

/**
 * The operations a rule concerns, when they are a class of the contract ("every operation that needs a
 * key", "every operation that takes a body") rather than a choice: the rule names the class in
 * `operationsOf` and `npm run contract:build` writes its `operations` from contract/openapi.json. An
 * operation added to the contract then joins the rules of its class by the build, with no list to edit;
 * test/rule-operations.test.ts fails when contract/rules.json is not in step.
 */

/** A class of operations: those meeting every condition given. */
export interface OperationsOf {
  /** Operations whose `x-required-scope` is one of these. */
  readonly scope?: readonly RequiredScope[];
  /** Operations that take a request body (true) or do not (false). */
  readonly requestBody?: boolean;
  /** Operations that take query parameters (true) or do not (false). */
  readonly query?: boolean;
  /** Operations whose success (2xx) response has this media type. */
  readonly responds?: string;
}

const CONDITIONS: Readonly<Record<keyof OperationsOf, (op: Operation, value: never) => boolean>> = {
  scope: (op, scopes: readonly RequiredScope[]) =>
    op.requiredScope !== null && scopes.includes(op.requiredScope),
  requestBody: (op, wanted: boolean) => (op.requestBodySchema !== undefined) === wanted,
  query: (op, wanted: boolean) => op.parameters.some((p) => p.in === 'query') === wanted,
  responds: (op, mediaType: string) =>
    [...op.responseMediaTypes].some(([status, type]) => status.startsWith('2') && type === mediaType),
};

/** The operationIds of `document` in the class `of`, in contract order. Throws on an unknown condition. */
export function operationsOf(of: OperationsOf, document: OpenAPIV3_1.Document): string[] {
  const conditions = Object.entries(of).map(([name, value]) => {
    const holds = CONDITIONS[name as keyof OperationsOf];
    if (holds === undefined)
      throw new Error(
        `operationsOf: unknown condition "${name}" (known: ${Object.keys(CONDITIONS).join(', ')})`,
      );
    return (op: Operation) => holds(op, value as never);
  });
  return [...buildOperationTable(document).values()]
    .filter((op) => conditions.every((holds) => holds(op)))
    .map((op) => op.operationId);
}

/** The part of a catalog rule this reads and writes; everything else passes through unchanged. */
interface CatalogRule {
  readonly id: string;
  readonly operations: readonly string[];
  readonly operationsOf?: OperationsOf;
}

/** The catalog with the `operations` of every rule that has `operationsOf` derived from `document`. */
export function deriveRuleOperations<C extends { readonly rules: readonly CatalogRule[] }>(
  catalog: C,
  document: OpenAPIV3_1.Document,
): C {
  return {
    ...catalog,
    rules: catalog.rules.map((rule) =>
      rule.operationsOf === undefined
        ? rule
        : { ...rule, operations: operationsOf(rule.operationsOf, document) },
    ),
  };
}
