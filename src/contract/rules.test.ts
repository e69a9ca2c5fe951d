import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import rulesJson from '../../contract/rules.json' with { type: 'json' };
import rulesSchema from '../../contract/rules.schema.json' with { type: 'json' };
import { SPEC_OPERATIONS } from '../../test/spec-tables.ts';
import { getRule, ruleGroup, rules, rulesByGroup, rulesFor } from './rules.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const specPath = path.resolve(repoRoot, '../shared/interface-spec.md');
const openApiPath = path.resolve(repoRoot, 'contract/openapi.json');

/** The spec's `/v0` operations (its endpoint table, restated once in test/spec-tables.ts) and its two docs routes. */
const V0_OPERATION_IDS = SPEC_OPERATIONS.map((op) => op.operationId);
const ALL_OPERATION_IDS = new Set<string>([...V0_OPERATION_IDS, 'getOpenApiDocument', 'getSwaggerUi']);

/** Heading numbers of the spec (`## 1.` ... `## 9.`, `### 2.1` ...). Checked against the spec when it is present. */
const SPEC_SECTIONS = new Set<string>([
  '1',
  '2',
  ...Array.from({ length: 8 }, (_, i) => `2.${i + 1}`),
  '3',
  '4',
  ...Array.from({ length: 18 }, (_, i) => `4.${i + 1}`),
  '5',
  '6',
  '7',
  '8',
  '9',
]);

const GROUPS = new Set([
  'AUTH',
  'SCOPE',
  'ORG',
  'LIST',
  'DETAIL',
  'CF',
  'AGENT',
  'QUEUE',
  'TAGS',
  'VOLUME',
  'SENT',
  'ENG',
  'ANALYTICS',
  'SEARCH',
  'MOD',
  'ING',
  'ID',
  'ERR',
  'HTTP',
  'SCHEMA',
  'VER',
  'DOCS',
  'MOCK',
  'LEFT',
]);

function specHeadingNumbers(markdown: string): Set<string> {
  const numbers = new Set<string>();
  for (const match of markdown.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)) {
    if (match[1] !== undefined) numbers.add(match[1]);
  }
  return numbers;
}

function openApiOperationIds(document: unknown): Set<string> {
  const ids = new Set<string>();
  if (typeof document !== 'object' || document === null || !('paths' in document)) return ids;
  const paths = document.paths;
  if (typeof paths !== 'object' || paths === null) return ids;
  for (const pathItem of Object.values(paths)) {
    if (typeof pathItem !== 'object' || pathItem === null) continue;
    for (const operation of Object.values(pathItem)) {
      if (typeof operation === 'object' && operation !== null && 'operationId' in operation) {
        const { operationId } = operation;
        if (typeof operationId === 'string') ids.add(operationId);
      }
    }
  }
  return ids;
}

describe('contract/rules.json', () => {
  it('validates against contract/rules.schema.json', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    const validate = ajv.compile(rulesSchema);
    const valid = validate(rulesJson);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('schema refuses a malformed rule (closed objects, id pattern, enums)', () => {
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(rulesSchema);
    const good = {
      id: 'LIST-X',
      title: 't',
      statement: 's',
      section: '4.1',
      operations: ['listActions'],
      kind: 'paging',
      check: 'live',
    };
    expect(validate({ version: 1, rules: [good] })).toBe(true);
    expect(validate({ version: 1, rules: [{ ...good, retired: true }] })).toBe(true);
    for (const bad of [
      { ...good, id: 'list-x' },
      { ...good, id: 'LIST' },
      { ...good, kind: 'other' },
      { ...good, check: 'sometimes' },
      { ...good, section: '4.1.2' },
      { ...good, extra: 1 },
    ]) {
      expect(validate({ version: 1, rules: [bad] })).toBe(false);
    }
    expect(validate({ version: 2, rules: [good] })).toBe(false);
  });

  it('has unique ids', () => {
    const ids = rules.map((rule) => rule.id);
    const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(duplicates).toEqual([]);
  });

  it('holds at least 80 rules', () => {
    expect(rules.length).toBeGreaterThanOrEqual(80);
  });

  it('groups every id under a known prefix', () => {
    const unknown = rules.map((rule) => rule.id).filter((id) => !GROUPS.has(ruleGroup(id)));
    expect(unknown).toEqual([]);
  });

  it('names only operationIds of the spec endpoint table', () => {
    const unknown = rules.flatMap((rule) =>
      rule.operations.filter((op) => !ALL_OPERATION_IDS.has(op)).map((op) => `${rule.id}: ${op}`),
    );
    expect(unknown).toEqual([]);
  });

  it('names only operationIds of contract/openapi.json (when it exists)', () => {
    if (!existsSync(openApiPath)) return;
    const contractIds = openApiOperationIds(JSON.parse(readFileSync(openApiPath, 'utf8')));
    const unknown = rules.flatMap((rule) =>
      rule.operations.filter((op) => !contractIds.has(op)).map((op) => `${rule.id}: ${op}`),
    );
    expect(unknown).toEqual([]);
  });

  it('cites only section numbers of the spec', () => {
    const unknown = rules
      .filter((rule) => !SPEC_SECTIONS.has(rule.section))
      .map((rule) => `${rule.id}: ${rule.section}`);
    expect(unknown).toEqual([]);
  });

  it('cites only section headings present in ../shared/interface-spec.md (when it exists)', () => {
    if (!existsSync(specPath)) return;
    const headings = specHeadingNumbers(readFileSync(specPath, 'utf8'));
    expect([...SPEC_SECTIONS].filter((section) => !headings.has(section))).toEqual([]);
    const unknown = rules
      .filter((rule) => !headings.has(rule.section))
      .map((rule) => `${rule.id}: ${rule.section}`);
    expect(unknown).toEqual([]);
  });

  it('gives every /v0 operation at least 3 rules', () => {
    const thin = V0_OPERATION_IDS.filter((op) => rulesFor(op).length < 3);
    expect(thin).toEqual([]);
  });

  it('marks every MOCK- rule as a mock-only spec gap', () => {
    const wrong = rules
      .filter((rule) => ruleGroup(rule.id) === 'MOCK')
      .filter((rule) => rule.check !== 'mock-only' || rule.specGap === undefined)
      .map((rule) => rule.id);
    expect(wrong).toEqual([]);
  });

  it('keeps the ids other modules already name', () => {
    for (const id of [
      'LIST-PAGESIZE-RANGE',
      'LIST-PAGESIZE-DEFAULT-50',
      'LIST-TO-DATE-ONLY-MIDNIGHT',
      'LIST-TO-INCLUSIVE',
      'LIST-FROM-DATE-ONLY-MIDNIGHT',
      'LIST-DEFAULT-WINDOW-7-DAYS',
      'LIST-DEFAULT-RESPONDED-ONLY',
      'LIST-FULLFILTER-NO-RESPONDED-DEFAULT',
      'LIST-FULLFILTER-WITH-FILTER-400',
      'LIST-FULLFILTER-MAX-LENGTH',
      'LIST-SORTBY-WINDOW-FIELD',
      'LIST-SORTBY-NEWEST-FIRST',
      'LIST-CONVERSATIONJSON-ONLY-WHEN-REQUESTED',
      'MOD-EXACT-RESUBMIT-DUPLICATE',
      'MOD-CHANGED-CONTENT-409',
      'MOD-BATCH-CONFLICT-REJECTED',
      'MOD-BATCH-ORDER',
      'MOD-DECISION-ONLY-WHEN-COMPLETED',
      'MOD-NO-FALLBACK-OLD-EVALUATION',
      'AUTH-MISSING-KEY-401',
      'AUTH-INVALID-KEY-401',
      'AUTH-REVOKED-KEY-401-AT-ONCE',
      'AUTH-READ-KEY-WRITE-ROUTE-403',
      'AUTH-WRITE-KEY-NO-INGEST-403',
      'AUTH-IMPORT-KEY-NO-REPORTING-403',
      'ORG-DATA-SCOPED',
      'ID-STRING-PRESERVED',
      'ID-JSON-STRING-IN-RAW-BODY',
      'ERR-GENERAL-BODY',
      'ERR-500-MESSAGE',
      'VER-TOLERATE-UNKNOWN-FIELDS',
      'SCHEMA-ACTION-SUMMARY-REQUIRED-KEYS',
      'SCHEMA-DURATION-NOT-TIMESTAMP',
    ]) {
      expect(getRule(id).id).toBe(id);
    }
  });
});

describe('rules.ts lookups', () => {
  it('getRule returns the rule and throws a clear error for an unknown id', () => {
    expect(getRule('LIST-TO-INCLUSIVE').section).toBe('4.1');
    expect(() => getRule('NO-SUCH-RULE')).toThrow(/Unknown rule id "NO-SUCH-RULE"/);
  });

  it('rulesFor lists exactly the rules naming the operation, and nothing for an unknown one', () => {
    const forList = rulesFor('listActions');
    expect(forList.length).toBeGreaterThan(0);
    expect(forList.every((rule) => rule.operations.includes('listActions'))).toBe(true);
    expect(forList.length).toBe(rules.filter((rule) => rule.operations.includes('listActions')).length);
    expect(rulesFor('noSuchOperation')).toEqual([]);
  });

  it('rulesByGroup partitions the catalog by id prefix', () => {
    const groups = rulesByGroup();
    let total = 0;
    for (const [group, members] of groups) {
      total += members.length;
      expect(members.every((rule) => ruleGroup(rule.id) === group)).toBe(true);
    }
    expect(total).toBe(rules.length);
    expect(groups.get('LIST')?.some((rule) => rule.id === 'LIST-PAGESIZE-RANGE')).toBe(true);
  });

  it('freezes the catalog', () => {
    expect(Object.isFrozen(rules)).toBe(true);
    expect(Object.isFrozen(getRule('ERR-GENERAL-BODY'))).toBe(true);
  });
});
