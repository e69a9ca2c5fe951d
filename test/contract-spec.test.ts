/**
 * Holds the generated contract against the spec's own tables (test/spec-tables.ts): the 17
 * operations with method and path, the declared statuses, and every record's keys and nullability.
 */
import { describe, expect, it } from 'vitest';
import contract from '../contract/openapi.json' with { type: 'json' };
import { parseFields, SPEC_OPERATIONS, SPEC_RECORDS, SPEC_STATUSES } from './spec-tables.ts';

type Node = { [key: string]: unknown };
const schemas = contract.components.schemas as unknown as Record<string, Node>;
const paths = contract.paths as unknown as Record<string, Record<string, Node>>;

function resolve(node: Node): Node {
  const target = node['$ref'];
  if (typeof target === 'string')
    return resolve(schemas[target.replace('#/components/schemas/', '')] as Node);
  return node;
}

/** Flattens allOf into one view of properties and required keys. */
function flatten(node: Node): { properties: Record<string, Node>; required: Set<string> } {
  const resolved = resolve(node);
  const properties: Record<string, Node> = { ...((resolved['properties'] as Record<string, Node>) ?? {}) };
  const required = new Set<string>((resolved['required'] as string[]) ?? []);
  for (const part of (resolved['allOf'] as Node[]) ?? []) {
    const inner = flatten(part);
    Object.assign(properties, inner.properties);
    for (const key of inner.required) required.add(key);
  }
  return { properties, required };
}

/** The catalog rule that each record's table encodes. */
const RECORD_RULES: Record<string, string> = {
  Tag: 'SCHEMA-TAG-VALUE-GROUP',
  ActionSummary: 'SCHEMA-ACTION-SUMMARY-REQUIRED-KEYS',
  ConversationSearchItem: 'SCHEMA-CONVERSATION-SEARCH-ITEM-REQUIRED-KEYS',
  ActionUser: 'SCHEMA-ACTION-USER',
  ActionAssignee: 'SCHEMA-ACTION-ASSIGNEE',
  ActionComment: 'SCHEMA-ACTION-COMMENT',
  ActionDetail: 'SCHEMA-ACTION-DETAIL-REQUIRED-KEYS',
  Message: 'SCHEMA-MESSAGE-REQUIRED-KEYS',
  ConversationEntry: 'SCHEMA-CONVERSATION-ENTRY-REQUIRED-KEYS',
  CustomFieldValue: 'SCHEMA-CUSTOM-FIELD-VALUE',
  Metrics: 'SCHEMA-METRICS-KEYS',
  Workload: 'SCHEMA-WORKLOAD',
  AgentEntry: 'SCHEMA-AGENT-ENTRY',
  QueueEntry: 'SCHEMA-QUEUE-ENTRY',
  AgentDetail: 'SCHEMA-OPAQUE-OBJECT-ARRAYS',
  TagSummary: 'SCHEMA-TAG-SUMMARY',
  TagBreakdownItem: 'SCHEMA-TAG-BREAKDOWN-ITEM',
  TagVolumeByTagItem: 'SCHEMA-VOLUME-BY-TAG-ITEM',
  Pagination: 'SCHEMA-PAGINATION',
  SentimentDayRow: 'SCHEMA-SENTIMENT-DAY-ROW',
  SentimentTagRow: 'SCHEMA-SENTIMENT-TAG-ROW',
  EngagementPercentile: 'SCHEMA-ENGAGEMENT-PERCENTILE',
  GrowthTrend: 'SCHEMA-GROWTH-TREND',
  ModerationAck: 'SCHEMA-MODERATION-ACK',
  ModerationCaseStatus: 'SCHEMA-MODERATION-CASE-STATUS',
  ModerationDecision: 'SCHEMA-MODERATION-DECISION',
  ModerationHit: 'SCHEMA-MODERATION-HIT',
  ModerationEvidence: 'SCHEMA-MODERATION-EVIDENCE',
  IngestionAccepted: 'SCHEMA-INGESTION-ACCEPTED',
  ErrorBody: 'ERR-GENERAL-BODY',
};

const TYPE_NAMES = { s: 'string', n: 'number', i: 'integer', b: 'boolean', a: 'array', o: 'object' } as const;

describe('the contract covers every operation of section 4', () => {
  it('DOCS-OPENAPI-COVERS-REST: lists the 17 REST operations with their method, path and operationId', () => {
    for (const op of SPEC_OPERATIONS) {
      const operation = paths[op.path]?.[op.method];
      expect(operation, `${op.method.toUpperCase()} ${op.path} (section ${op.section})`).toBeDefined();
      expect(operation?.['operationId']).toBe(op.operationId);
    }
    const restOperations = Object.entries(paths)
      .filter(([path]) => path.startsWith('/v0/'))
      .flatMap(([, methods]) => Object.keys(methods));
    expect(restOperations).toHaveLength(17);
  });

  it('DOCS-OPENAPI-JSON, DOCS-SWAGGER-UI: the contract and Swagger UI are at /docs/json and /docs, without a key', () => {
    expect(paths['/docs/json']?.['get']?.['security']).toEqual([]);
    expect(paths['/docs']?.['get']?.['security']).toEqual([]);
  });

  it('AUTH-MISSING-KEY-401: declares 401 on every REST operation and 403 wherever a scope can lack', () => {
    for (const op of SPEC_OPERATIONS) {
      const responses = paths[op.path]?.[op.method]?.['responses'] as Record<string, unknown>;
      expect(Object.keys(responses), op.operationId).toContain('401');
      expect(Object.keys(responses), op.operationId).toContain('403');
    }
  });

  it('ERR-STATUS-IN-DECLARED-SET: declares every status of the per-endpoint table of section 7', () => {
    for (const op of SPEC_OPERATIONS) {
      const responses = paths[op.path]?.[op.method]?.['responses'] as Record<string, unknown>;
      for (const status of SPEC_STATUSES[op.operationId] ?? []) {
        expect(Object.keys(responses), `${op.operationId} ${status}`).toContain(String(status));
      }
    }
  });

  it('names the required scope of every operation, and ad_policy on moderation intake', () => {
    const scopes = Object.fromEntries(
      SPEC_OPERATIONS.map((op) => [op.operationId, paths[op.path]?.[op.method]?.['x-required-scope']]),
    );
    expect(scopes).toMatchObject({
      listActions: 'read',
      updateCustomFields: 'write',
      submitModerationCase: 'write',
      submitModerationBatch: 'write',
      getModerationCase: 'read',
      ingestRecords: 'ingest',
    });
    for (const op of SPEC_OPERATIONS) expect(['read', 'write', 'ingest']).toContain(scopes[op.operationId]);
    expect(paths['/v0/moderation/cases']?.['post']?.['x-requires-moderation-mode']).toBe('ad_policy');
    expect(paths['/v0/moderation/cases/batch']?.['post']?.['x-requires-moderation-mode']).toBe('ad_policy');
  });
});

describe('every record of section 2 matches the spec table', () => {
  for (const [name, table] of Object.entries(SPEC_RECORDS)) {
    it(`${RECORD_RULES[name] ?? 'SCHEMA-NULLABLE-KEY-PRESENT'}: ${name} has the spec's required keys, types and nullability`, () => {
      expect(schemas[name], `component ${name}`).toBeDefined();
      const { properties, required } = flatten({ $ref: `#/components/schemas/${name}` });
      const fields = parseFields(table);
      expect(new Set(Object.keys(properties))).toEqual(new Set(fields.map((f) => f.name)));
      for (const field of fields) {
        expect(required.has(field.name), `${name}.${field.name} required`).toBe(!field.optional);
        const property = resolve(properties[field.name] as Node);
        if (field.type === '*') {
          expect(property['type'], `${name}.${field.name} is any JSON`).toBeUndefined();
          continue;
        }
        const expected = field.nullable ? [TYPE_NAMES[field.type], 'null'] : TYPE_NAMES[field.type];
        const actual = property['type'] ?? (property['allOf'] ? 'object' : undefined);
        expect(actual, `${name}.${field.name} type`).toEqual(expected);
      }
    });
  }

  it('SCHEMA-DURATION-NOT-TIMESTAMP: firstResponseTime and handleTime are never date-time', () => {
    for (const name of ['ActionSummary', 'ActionDetail']) {
      const { properties } = flatten({ $ref: `#/components/schemas/${name}` });
      expect(properties['firstResponseTime']?.['format']).toBeUndefined();
      expect(properties['handleTime']?.['format']).toBeUndefined();
      expect(properties['createdAt']?.['format']).toBe('date-time');
    }
  });

  it('VER-TOLERATE-UNKNOWN-FIELDS: no response object is closed with additionalProperties: false', () => {
    const closed = JSON.stringify(contract.components.schemas).match(/"additionalProperties":false/g);
    expect(closed).toBeNull();
  });

  it('ID-STRING-PRESERVED: every identifier field is a string', () => {
    const idFields = /(^id$|Id$|^threadId$)/;
    for (const [name, schema] of Object.entries(schemas)) {
      const { properties } = flatten(schema);
      for (const [field, property] of Object.entries(properties)) {
        if (!idFields.test(field) || field === 'sourceAdId') continue;
        const type = resolve(property)['type'];
        expect(
          type === 'string' || (Array.isArray(type) && type.includes('string')),
          `${name}.${field}`,
        ).toBe(true);
      }
    }
  });

  it('encodes the limits of section 8', () => {
    const param = (path: string, name: string): unknown => {
      const parameters = (paths[path]?.['get']?.['parameters'] as Node[] | undefined) ?? [];
      return parameters.find((p) => p['name'] === name)?.['schema'];
    };
    expect(param('/v0/action/list', 'pageSize')).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 500,
      default: 50,
    });
    expect(param('/v0/action/list', 'fullFilter')).toMatchObject({ maxLength: 10000 });
    expect(param('/v0/conversations/search', 'page')).toMatchObject({
      minimum: 1,
      maximum: 10000,
      default: 1,
    });
    expect(param('/v0/conversations/search', 'pageSize')).toMatchObject({
      minimum: 1,
      maximum: 100,
      default: 50,
    });
    const sub = flatten(schemas['ModerationSubmission'] as Node).properties;
    const sizes = {
      externalId: 256,
      sourceSystem: 128,
      sourcePlatform: 128,
      sourceAdId: 256,
      advertiserId: 256,
      advertiserName: 500,
      campaignId: 256,
      market: 128,
      placement: 128,
      language: 64,
      title: 500,
      headline: 500,
      brandName: 500,
    };
    for (const [field, max] of Object.entries(sizes)) {
      expect(sub[field], field).toMatchObject({ minLength: 1, maxLength: max });
    }
    expect(sub['media']).toMatchObject({ minItems: 1, maxItems: 20 });
    expect(flatten(schemas['ModerationMedia'] as Node).properties['position']).toMatchObject({
      minimum: 1,
      maximum: 20,
    });
    const targeting = flatten(schemas['ModerationTargeting'] as Node).properties;
    expect(targeting['geos']).toMatchObject({ minItems: 1, maxItems: 250 });
    expect(targeting['languages']).toMatchObject({ minItems: 1, maxItems: 100 });
    for (const field of ['body', 'caption', 'linkDescription', 'sourceTitle']) {
      expect(flatten(schemas['ModerationCopy'] as Node).properties[field]).toMatchObject({
        maxLength: 20000,
      });
    }
    expect(flatten(schemas['ModerationBatchRequest'] as Node).properties['cases']).toMatchObject({
      minItems: 1,
      maxItems: 100,
    });
    expect(flatten(schemas['IngestionBatch'] as Node).properties['records']).toMatchObject({
      minItems: 1,
      maxItems: 500,
    });
    expect(flatten(schemas['IngestionRecord'] as Node).properties['score']).toMatchObject({
      minimum: 0,
      maximum: 5,
    });
    expect(flatten(schemas['CustomFieldWrite'] as Node).properties['confidence']).toMatchObject({
      minimum: 0,
      maximum: 1,
    });
    expect(flatten(schemas['CustomFieldsUpdateRequest'] as Node).properties['fields']).toMatchObject({
      minItems: 1,
    });
  });
});
