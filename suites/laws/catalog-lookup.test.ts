import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { SCHEMA_RULES, withSchemaRules } from '../../contract/src/schema-rules.ts';
import { contract } from '../../src/contract/index.ts';
import { buildOperationTable, type Operation } from '../../src/contract/operations.ts';
import { getRule, rules } from '../../src/contract/rules.ts';
import { ingestKeyNoReporting, readKeyOnWriteRoutes, scopeCases, writeKeyNoIngest } from './auth.ts';
import {
  operationsWithScope,
  queryParamsRuleOf,
  readsById,
  readsWithQuery,
  scopeRuleOf,
  scopeRulesOf,
  statusesRuleOf,
  unknownIdRuleOf,
} from './catalog-lookup.ts';
import { QUERY_PARAMS_RULE, STATUSES_RULE, schemaRuleFor, schemaRulesOf } from './rule-map.ts';
import { UNKNOWN_RULE, unknownIds } from './status.ts';

const apiOps = [...contract.operations.values()].filter((op) => op.requiredScope !== null);
const names = (ops: readonly Operation[]): string[] => ops.map((op) => op.operationId);

/** The shared contract with one operation more, as if it had just been added to contract/openapi.json. */
function withOperation(operationId: string, requiredScope: Operation['requiredScope']) {
  const model = contract.getOperation('updateCustomFields');
  return {
    operations: new Map([...contract.operations, [operationId, { ...model, operationId, requiredScope }]]),
  };
}

describe('the laws read scopes and rules from the contract and the catalog', () => {
  it('every operation of the contract has its declared-statuses rule, from the catalog', () => {
    for (const op of names(apiOps)) {
      expect(STATUSES_RULE[op], op).toBe(statusesRuleOf(op));
      expect(getRule(STATUSES_RULE[op] ?? '?').operations).toContain(op);
    }
  });

  it('the scope laws cover every operation by its x-required-scope, and name the scope rules the catalog gives them', () => {
    const scoped = (scope: 'read' | 'write' | 'ingest'): string[] =>
      names(apiOps.filter((op) => op.requiredScope === scope));
    expect(scopeCases(contract, 'read').map((c) => c.op)).toEqual([...scoped('write'), ...scoped('ingest')]);
    expect(scopeCases(contract, 'write').map((c) => c.op)).toEqual(scoped('ingest'));
    expect(scopeCases(contract, 'ingest').map((c) => c.op)).toEqual(scoped('read'));
    for (const c of scopeCases(contract, 'ingest'))
      expect(c.rule).toBe(scopeRuleOf(c.op) ?? 'AUTH-IMPORT-KEY-NO-REPORTING-403');
    const scopeRules = rules.filter((r) => r.id.startsWith('SCOPE-') && r.retired !== true).map((r) => r.id);
    const named = [readKeyOnWriteRoutes, writeKeyNoIngest, ingestKeyNoReporting].flatMap((law) =>
      law.ruleIds.filter((id) => id.startsWith('SCOPE-')),
    );
    expect(named.sort()).toEqual(scopeRules.sort());
  });

  it('an operation added to the contract is picked up by the scope laws without another edit', () => {
    const grown = withOperation('deleteCustomFields', 'write');
    expect(operationsWithScope('write', grown)).toContain('deleteCustomFields');
    expect(scopeCases(grown, 'read')).toContainEqual({
      op: 'deleteCustomFields',
      key: 'read',
      rule: 'AUTH-READ-KEY-WRITE-ROUTE-403',
    });
    const read = withOperation('listLabels', 'read');
    expect(scopeCases(read, 'ingest')).toContainEqual({
      op: 'listLabels',
      key: 'ingest',
      rule: 'AUTH-IMPORT-KEY-NO-REPORTING-403',
    });
    expect(scopeRulesOf('write', grown)).toEqual(scopeRulesOf('write'));
  });

  it("the catalog's scope rules list exactly the operations the contract gives that scope", () => {
    const listed = (id: string): string[] => [...getRule(id).operations].sort();
    expect(listed('AUTH-READ-KEY-WRITE-ROUTE-403')).toEqual(operationsWithScope('write').sort());
    expect(listed('AUTH-REPORTING-KEY-NO-INGEST-403')).toEqual(operationsWithScope('ingest').sort());
    expect(listed('AUTH-WRITE-KEY-NO-INGEST-403')).toEqual(operationsWithScope('ingest').sort());
    expect(listed('AUTH-IMPORT-KEY-NO-REPORTING-403')).toEqual(operationsWithScope('read').sort());
    expect(listed('MOCK-SCOPE-403-ALL-ROUTES')).toEqual(names(apiOps).sort());
  });

  it('the schema rule map has every operation of the contract, and each rule it names concerns that operation', () => {
    for (const op of contract.operations.keys()) {
      const named = schemaRulesOf(op);
      expect(
        named.length,
        `${op}: give its response schemas x-rule in contract/src/schema-rules.ts`,
      ).toBeGreaterThan(0);
      for (const id of named) expect(getRule(id).operations, `${id} in the catalog`).toContain(op);
      // The body as a whole has a rule too: an issue at its top names it, not the general one.
      expect(schemaRuleFor(op, 200, ''), `${op}: give its success schema an x-rule`).not.toBe(
        'SCHEMA-JSON-BODIES',
      );
    }
    for (const [op, id] of Object.entries(QUERY_PARAMS_RULE)) {
      expect(contract.operations.has(op), op).toBe(true);
      expect(getRule(id).operations, `${id} in the catalog`).toContain(op);
    }
  });

  it('every read by id of the contract has the catalog rule for an unknown id, and the unknown-ids law reads each', () => {
    const byId = names(apiOps.filter((op) => op.method === 'GET' && op.pathParamNames.length > 0));
    expect(readsById()).toEqual(byId);
    for (const op of byId) {
      const rule = unknownIdRuleOf(op);
      expect(rule, `${op}: give it a *-UNKNOWN-*-404 rule in contract/rules.json`).toBeDefined();
      expect(getRule(rule ?? '?').operations).toContain(op);
    }
    expect(Object.keys(UNKNOWN_RULE)).toEqual(byId);
    expect(unknownIds.ruleIds).toEqual(expect.arrayContaining(Object.values(UNKNOWN_RULE)));
    const grown = withOperation('getLabel', 'read');
    const model = grown.operations.get('getLabel');
    if (model === undefined) throw new Error('withOperation lost its operation');
    grown.operations.set('getLabel', { ...model, method: 'GET' });
    expect(readsById(grown)).toContain('getLabel');
  });

  it('every read with query parameters has the catalog rule a valid query breaks when refused', () => {
    const withQuery = names(
      apiOps.filter((op) => op.requiredScope === 'read' && op.parameters.some((p) => p.in === 'query')),
    );
    expect(readsWithQuery()).toEqual(withQuery);
    for (const op of withQuery)
      expect(
        queryParamsRuleOf(op),
        `${op}: give it a *-QUERY-PARAMS rule in contract/rules.json`,
      ).toBeDefined();
    expect(Object.keys(QUERY_PARAMS_RULE)).toEqual(withQuery);
  });

  it('error bodies: the moderation and custom-field operations are those the contract tags so', () => {
    for (const op of contract.operations.values()) {
      const moderation = op.tags.includes('Moderation');
      expect(schemaRuleFor(op.operationId, 400, '/message'), op.operationId).toBe(
        moderation ? 'ERR-MODERATION-BODY' : 'ERR-GENERAL-BODY',
      );
      expect(schemaRuleFor(op.operationId, 422, '/message'), op.operationId).toBe(
        moderation
          ? 'ERR-MODERATION-BODY'
          : op.tags.includes('Custom fields')
            ? 'ERR-CUSTOM-FIELD-422-FIELDERRORS'
            : 'ERR-GENERAL-BODY',
      );
    }
  });

  it('a schema issue names the x-rule the contract gives the schema on its way: change it in a copy and the rule follows', () => {
    const copy = (edit: (schemas: Record<string, Record<string, unknown>>) => void) => {
      const document = structuredClone(contract.document) as OpenAPIV3_1.Document;
      edit((document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>);
      const operations = buildOperationTable(document);
      const getOperation = (id: string) => operations.get(id) ?? contract.getOperation(id);
      return { document, operations, getOperation };
    };
    expect(schemaRuleFor('getAction', 200, '/user/email')).toBe('SCHEMA-ACTION-USER');
    expect(schemaRuleFor('listAgents', 200, '/data/3/workload/x')).toBe('SCHEMA-WORKLOAD');
    expect(schemaRuleFor('listAgents', 200, '/data/3')).toBe('SCHEMA-AGENT-ENTRY');
    expect(schemaRuleFor('listAgents', 200, '/success')).toBe('AGENT-LIST-ENVELOPE');
    // The outer of two schemas at one place names it: a search item is an action summary too.
    expect(schemaRuleFor('searchConversations', 200, '/data/0')).toBe(
      'SCHEMA-CONVERSATION-SEARCH-ITEM-REQUIRED-KEYS',
    );
    expect(schemaRuleFor('searchConversations', 200, '/data/0/tags/1')).toBe('SCHEMA-TAG-VALUE-GROUP');

    const renamed = copy((schemas) => {
      if (schemas['Workload']) schemas['Workload']['x-rule'] = 'SCHEMA-AGENT-ENTRY-WORKLOAD';
    });
    expect(schemaRuleFor('listAgents', 200, '/data/3/workload/x', renamed)).toBe(
      'SCHEMA-AGENT-ENTRY-WORKLOAD',
    );
    expect(schemaRulesOf('listAgents', renamed)).toContain('SCHEMA-AGENT-ENTRY-WORKLOAD');
    const removed = copy((schemas) => {
      delete schemas['Workload']?.['x-rule'];
    });
    expect(schemaRuleFor('listAgents', 200, '/data/3/workload/x', removed)).toBe('SCHEMA-AGENT-ENTRY');
    expect(schemaRulesOf('listAgents', removed)).not.toContain('SCHEMA-WORKLOAD');
  });

  it('contract/src/schema-rules.ts names schemas of the contract and rules of the catalog', () => {
    for (const [at, id] of Object.entries(SCHEMA_RULES)) expect(getRule(id).id, at).toBe(id);
    expect(() => withSchemaRules({ Tag: { type: 'object' } })).toThrow(
      /"ActionSummary properties tags" is no schema/,
    );
  });
});
