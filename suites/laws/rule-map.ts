/**
 * Which catalog rule a response-schema issue breaks, from the operation, the status and where in the
 * body the issue is. Lets a failure name the precise rule (`SCHEMA-ACTION-USER`) instead of a vague one;
 * in a success body that is the contract's `x-rule` on the way to the issue (./schema-rule.ts).
 */
import type { Contract } from '../../src/contract/contract.ts';
import { contract } from '../../src/contract/index.ts';
import type { Operation } from '../../src/contract/operations.ts';
import { declaredResponseKey } from '../../src/contract/validators.ts';
import { queryParamsRuleOf, readsWithQuery, statusesRuleOf } from './catalog-lookup.ts';
import { contractRuleAt, contractRulesOf } from './schema-rule.ts';

/** The response of `status`, or the operation's success response when it declares none for it. */
const responseKey = (op: Operation, status: number): string | undefined =>
  declaredResponseKey(op, status) ?? [...op.responses.keys()].find((key) => key.startsWith('2'));

/** The operations of a tag of the contract: moderation and custom fields have error bodies of their own. */
const taggedWith = (tag: string): ReadonlySet<string> =>
  new Set(
    [...contract.operations.values()].filter((op) => op.tags.includes(tag)).map((op) => op.operationId),
  );
const MODERATION_OPS = taggedWith('Moderation');
const CUSTOM_FIELD_OPS = taggedWith('Custom fields');

/** The rule a schema issue at `pointer` in a `status` response of `operationId` breaks. */
export function schemaRuleFor(
  operationId: string,
  status: number,
  pointer: string,
  from: Pick<Contract, 'document' | 'getOperation' | 'operations'> = contract,
): string {
  if (status >= 400) {
    if (MODERATION_OPS.has(operationId) && status !== 401) return 'ERR-MODERATION-BODY';
    if (CUSTOM_FIELD_OPS.has(operationId) && status === 422) return 'ERR-CUSTOM-FIELD-422-FIELDERRORS';
    if (CUSTOM_FIELD_OPS.has(operationId) && pointer.startsWith('/fieldErrors'))
      return 'ERR-CUSTOM-FIELD-FIELDERRORS';
    return 'ERR-GENERAL-BODY';
  }
  const op = from.operations.get(operationId);
  const key = op === undefined ? undefined : responseKey(op, status);
  return (
    (key === undefined ? undefined : contractRuleAt(from, operationId, key, pointer)) ?? 'SCHEMA-JSON-BODIES'
  );
}

/** The "declared statuses" rule of each operation of the contract, from the catalog. */
export const STATUSES_RULE: Readonly<Record<string, string>> = Object.fromEntries(
  [...contract.operations.keys()].flatMap((op) => {
    const rule = statusesRuleOf(op);
    return rule === undefined ? [] : [[op, rule]];
  }),
);

/** The rule "valid query parameters are accepted" of each read operation that takes any, from the catalog. */
export const QUERY_PARAMS_RULE: Readonly<Record<string, string>> = Object.fromEntries(
  readsWithQuery().flatMap((op) => {
    const rule = queryParamsRuleOf(op);
    return rule === undefined ? [] : [[op, rule]];
  }),
);

/** Every rule a schema check of `operationId`'s 2xx body can name. */
export function schemaRulesOf(
  operationId: string,
  from: Pick<Contract, 'document' | 'getOperation' | 'operations'> = contract,
): readonly string[] {
  const op = from.operations.get(operationId);
  const key = op === undefined ? undefined : responseKey(op, 200);
  return key === undefined ? [] : contractRulesOf(from, operationId, key);
}
