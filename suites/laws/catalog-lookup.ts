/**
 * Which catalog rule states what about an operation, read from the contract and the rules catalog
 * (contract/openapi.json's operations and `x-required-scope`, contract/rules.json's `operations`)
 * instead of kept beside them: an operation added to the contract is picked up by every law that
 * reads these, and a catalog that names two candidates fails at load, naming both.
 */
import type { Contract } from '../../src/contract/contract.ts';
import { contract } from '../../src/contract/index.ts';
import type { RequiredScope } from '../../src/contract/operations.ts';
import { rules } from '../../src/contract/rules.ts';

/** The one rule (not retired) of `operationId` whose id `pick` accepts, or undefined when there is none. */
function onlyRule(operationId: string, what: string, pick: (id: string) => boolean): string | undefined {
  const found = rules.filter((r) => r.retired !== true && r.operations.includes(operationId) && pick(r.id));
  if (found.length > 1)
    throw new Error(
      `contract/rules.json: ${operationId} has ${found.length} ${what} rules (${found.map((r) => r.id).join(', ')}), one expected`,
    );
  return found[0]?.id;
}

/** The operations of `from` (the shared contract by default) whose `x-required-scope` is `scope`, in contract order. */
export function operationsWithScope(
  scope: RequiredScope,
  from: Pick<Contract, 'operations'> = contract,
): string[] {
  return [...from.operations.values()].filter((op) => op.requiredScope === scope).map((op) => op.operationId);
}

/** The `SCOPE-*` rule of an operation: what a key without its scope is answered there. */
export function scopeRuleOf(operationId: string): string | undefined {
  return onlyRule(operationId, 'scope', (id) => id.startsWith('SCOPE-'));
}

/** The `*-STATUSES-DECLARED` rule of an operation: the statuses it declares besides its success. */
export function statusesRuleOf(operationId: string): string | undefined {
  return onlyRule(operationId, 'declared-statuses', (id) => id.endsWith('-STATUSES-DECLARED'));
}

/**
 * The read operations that name a record by a path id (`GET /v0/action/{id}`...), in contract order:
 * there an id the organization does not have is answered 404.
 */
export function readsById(from: Pick<Contract, 'operations'> = contract): string[] {
  return [...from.operations.values()]
    .filter((op) => op.method === 'GET' && op.requiredScope === 'read' && op.pathParamNames.length > 0)
    .map((op) => op.operationId);
}

/** The `*-UNKNOWN-*-404` rule of an operation: what an id it does not know is answered. */
export function unknownIdRuleOf(operationId: string): string | undefined {
  return onlyRule(operationId, 'unknown-id', (id) => /-UNKNOWN(-[A-Z0-9]+)*-404$/.test(id));
}

/** The read operations that take query parameters, in contract order. */
export function readsWithQuery(from: Pick<Contract, 'operations'> = contract): string[] {
  return [...from.operations.values()]
    .filter((op) => op.requiredScope === 'read' && op.parameters.some((p) => p.in === 'query'))
    .map((op) => op.operationId);
}

/**
 * The rule a valid query of an operation breaks when it is not answered 200, most precise first: the
 * operation's own `*-QUERY-PARAMS` rule, else its `*-FROM-ISO-8601` rule (a valid query's window is
 * what it refused), else its `*-ENVELOPE` rule (the 200 answer it owes a valid request).
 */
export function queryParamsRuleOf(operationId: string): string | undefined {
  return (
    onlyRule(operationId, 'query-parameters', (id) => id.endsWith('-QUERY-PARAMS')) ??
    onlyRule(operationId, 'window-format', (id) => id.endsWith('-FROM-ISO-8601')) ??
    onlyRule(operationId, 'envelope', (id) => id.endsWith('-ENVELOPE'))
  );
}

/** The scope rules of the operations that require `scope`, each once, in contract order. */
export function scopeRulesOf(scope: RequiredScope, from: Pick<Contract, 'operations'> = contract): string[] {
  return [...new Set(operationsWithScope(scope, from).flatMap((op) => scopeRuleOf(op) ?? []))];
}
