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

/** The scope rules of the operations that require `scope`, each once, in contract order. */
export function scopeRulesOf(scope: RequiredScope, from: Pick<Contract, 'operations'> = contract): string[] {
  return [...new Set(operationsWithScope(scope, from).flatMap((op) => scopeRuleOf(op) ?? []))];
}
