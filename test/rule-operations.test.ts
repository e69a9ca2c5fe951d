/**
 * The rules that concern a class of operations ("every operation that needs a key") have their
 * `operations` written from the contract by `npm run contract:build`, never kept by hand.
 */
import { readFileSync } from 'node:fs';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { CONTRACT_PATH, derivedRules, RULES_PATH } from '../contract/src/build.ts';
import { deriveRuleOperations, type OperationsOf, operationsOf } from '../src/contract/rule-operations.ts';
import { rules } from '../src/contract/rules.ts';

const document = (): OpenAPIV3_1.Document => JSON.parse(readFileSync(CONTRACT_PATH, 'utf8'));
type Catalog = { rules: { id: string; operations: string[]; operationsOf?: OperationsOf }[] };
const catalog = (): Catalog => JSON.parse(readFileSync(RULES_PATH, 'utf8'));
const operationsOfRule = (from: Catalog, id: string): string[] =>
  from.rules.find((rule) => rule.id === id)?.operations ?? [];

type PathItem = Record<string, Record<string, unknown>>;

/** A copy of the contract with `change` applied to the path item of `path`. */
function edited(path: string, change: (item: PathItem) => void): OpenAPIV3_1.Document {
  const doc = document();
  const item = doc.paths?.[path] as PathItem | undefined;
  if (item === undefined) throw new Error(`no ${path} in the contract`);
  change(item);
  return doc;
}

describe('the rules whose operations are a class of the contract', () => {
  it('contract/rules.json is in step with contract/openapi.json (run `npm run contract:build` when this fails)', () => {
    expect(catalog()).toEqual(derivedRules(document()));
    expect(rules.filter((rule) => rule.operationsOf !== undefined).length).toBeGreaterThan(30);
  });

  it('an operation added to a copy of the contract joins the rules of its classes, and only those', () => {
    // DELETE beside the PATCH of custom fields: a write that takes no body.
    const doc = edited('/v0/actions/{actionId}/custom-fields', (item) => {
      const { requestBody: _body, ...patch } = item['patch'] ?? {};
      item['delete'] = { ...patch, operationId: 'deleteCustomFields', 'x-required-scope': 'write' };
    });
    const grown = deriveRuleOperations(catalog(), doc);
    for (const id of ['AUTH-MISSING-KEY-401', 'AUTH-READ-KEY-WRITE-ROUTE-403', 'MOCK-SCOPE-403-ALL-ROUTES'])
      expect(operationsOfRule(grown, id), id).toContain('deleteCustomFields');
    for (const id of [
      'AUTH-IMPORT-KEY-NO-REPORTING-403',
      'AUTH-WRITE-KEY-NO-INGEST-403',
      'MOCK-MALFORMED-JSON-400',
    ])
      expect(operationsOfRule(grown, id), id).not.toContain('deleteCustomFields');
    expect(operationsOfRule(catalog(), 'AUTH-MISSING-KEY-401')).not.toContain('deleteCustomFields');
  });

  it("changing or removing an operation's x-required-scope in a copy of the contract moves it between the scope rules", () => {
    const moved = deriveRuleOperations(
      catalog(),
      edited('/v0/actions/{actionId}/custom-fields', (item) => {
        if (item['get']) item['get']['x-required-scope'] = 'write';
      }),
    );
    expect(operationsOfRule(catalog(), 'AUTH-IMPORT-KEY-NO-REPORTING-403')).toContain('getCustomFields');
    expect(operationsOfRule(moved, 'AUTH-IMPORT-KEY-NO-REPORTING-403')).not.toContain('getCustomFields');
    expect(operationsOfRule(moved, 'AUTH-READ-KEY-WRITE-ROUTE-403')).toContain('getCustomFields');

    const unscoped = deriveRuleOperations(
      catalog(),
      edited('/v0/ingest/records', (item) => {
        delete item['post']?.['x-required-scope'];
      }),
    );
    expect(operationsOfRule(unscoped, 'AUTH-MISSING-KEY-401')).not.toContain('ingestRecords');
    expect(operationsOfRule(unscoped, 'AUTH-WRITE-KEY-NO-INGEST-403')).toEqual([]);
    // Still a JSON body: the class of the body rules does not depend on the scope.
    expect(operationsOfRule(unscoped, 'MOCK-MALFORMED-JSON-400')).toContain('ingestRecords');
  });

  it('each condition selects what it says, in contract order', () => {
    const doc = document();
    expect(operationsOf({ requestBody: true }, doc)).toEqual([
      'updateCustomFields',
      'submitModerationCase',
      'submitModerationBatch',
      'ingestRecords',
    ]);
    expect(operationsOf({ responds: 'text/html' }, doc)).toEqual(['getSwaggerUi']);
    expect(operationsOf({ scope: ['ingest'] }, doc)).toEqual(['ingestRecords']);
    expect(operationsOf({ query: true, scope: ['write', 'ingest'] }, doc)).toEqual([]);
    expect(() => operationsOf({ tag: 'Docs' } as OperationsOf, doc)).toThrow(/unknown condition "tag"/);
  });

  it('no rule lists a class of four or more operations by hand: it names the class instead', () => {
    const doc = document();
    const classes: OperationsOf[] = [
      { scope: ['read', 'write', 'ingest'] },
      { scope: ['read', 'write'] },
      { scope: ['read'] },
      { requestBody: true },
      { query: true },
      { responds: 'application/json' },
    ];
    const key = (ops: readonly string[]) => [...ops].sort().join(' ');
    const byClass = new Map(classes.map((of) => [key(operationsOf(of, doc)), JSON.stringify(of)]));
    const restated = rules
      .filter((rule) => rule.operationsOf === undefined && rule.operations.length >= 4)
      .flatMap((rule) => {
        const of = byClass.get(key(rule.operations));
        return of === undefined ? [] : [`${rule.id}: "operationsOf": ${of}`];
      });
    expect(restated).toEqual([]);
  });
});
