import fc from 'fast-check';
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { operationsWithScope } from '../../src/contract/index.ts';
import { sampleActionIds, sampleAgentIds, validQuery } from './discover.ts';
import { QUERY_PARAMS_RULE, STATUSES_RULE, schemaRulesOf } from './rule-map.ts';
import { arr, call, expectConforming, obj } from './support.ts';

/**
 * Read operations whose 200 body a read key must get for any valid query: every read-scoped operation
 * of the contract but the moderation status read, which needs a case first (the moderation laws).
 */
const READ_OPERATIONS = operationsWithScope('read').filter((id) => id !== 'getModerationCase');

const COMMON_RULES = [
  'AUTH-HEADER-X-API-KEY',
  'AUTH-READ-KEY-READ-ROUTES',
  'ID-JSON-STRING-IN-RAW-BODY',
  'SCHEMA-JSON-BODIES',
  'ERR-STATUS-IN-DECLARED-SET',
  'VER-TOLERATE-UNKNOWN-FIELDS',
  'VER-V0-PREFIX',
];

const EXTRA_RULES: Readonly<Record<string, readonly string[]>> = {
  listActions: [
    'SCHEMA-NULLABLE-KEY-PRESENT',
    'SCHEMA-TIMESTAMPS-STRINGS',
    'SCHEMA-DURATION-NOT-TIMESTAMP',
    'SCHEMA-ACTION-STATUS-OPEN-SET',
    'SCHEMA-SOURCEURL-NULL-FOR-PRIVATE',
    'SCHEMA-FIRST-RESPONSE-HAS-TIME',
    'LIST-CONVERSATIONJSON-ONLY-WHEN-REQUESTED',
    'LIST-CONVERSATIONJSON-FILLED-WHEN-REQUESTED',
    'LIST-INCLUDEFULLCONVERSATION-DEFAULT-FALSE',
  ],
  searchConversations: [
    'SCHEMA-SOURCEURL-NULL-FOR-PRIVATE',
    'SCHEMA-FIRST-RESPONSE-HAS-TIME',
    'LIST-CONVERSATIONJSON-ONLY-WHEN-REQUESTED',
  ],
  getAction: [
    'SCHEMA-SOURCEURL-NULL-FOR-PRIVATE',
    'SCHEMA-FIRST-RESPONSE-HAS-TIME',
    'SCHEMA-NULLABLE-KEY-PRESENT',
    'SCHEMA-TIMESTAMPS-STRINGS',
  ],
  listQueues: ['QUEUE-NULL-QUEUEID-NO-QUEUE'],
  getCustomFields: ['CF-WRITE-ONLY-NOT-RETURNED', 'SCOPE-CUSTOM-FIELDS-READ'],
};

/** Operations whose 200 body carries `success` (spec 4.5 to 4.13): success false would mark an error. */
const SUCCESS_OPERATIONS = new Set([
  'listAgents',
  'getAgent',
  'listQueues',
  'getTagAnalytics',
  'getTagVolume',
  'getSentimentByDay',
  'getSentimentByTag',
  'getEngagement',
  'searchConversations',
]);

/** Semantic checks that hold on any data and that the schema alone cannot express. */
function semantics(operationId: string, query: Record<string, unknown>, body: unknown): void {
  if (SUCCESS_OPERATIONS.has(operationId) && obj(body)['success'] !== true)
    violate(
      'SCHEMA-SUCCESS-TRUE-ON-200',
      'success-not-true',
      `${operationId} answered 200 with success ${JSON.stringify(obj(body)['success'])}: success false marks an error body (section 7)`,
    );
  const items =
    operationId === 'getAction'
      ? [obj(body)]
      : operationId === 'listActions' || operationId === 'searchConversations'
        ? arr(obj(body)['data']).map(obj)
        : [];
  for (const item of items) {
    if (item['firstResponseTime'] != null && item['initialResponseTime'] === null)
      violate(
        'SCHEMA-FIRST-RESPONSE-HAS-TIME',
        'response-time-missing',
        `${operationId}: action ${String(item['actionId'])} has firstResponseTime ${JSON.stringify(item['firstResponseTime'])} (a first response was measured) but initialResponseTime null`,
      );
    if (item['isPublicPost'] === false && item['sourceURL'] !== null && item['sourceURL'] !== undefined) {
      violate(
        'SCHEMA-SOURCEURL-NULL-FOR-PRIVATE',
        'private-source-url',
        `action ${String(item['actionId'])} is private (isPublicPost false) but has sourceURL ${String(item['sourceURL'])}`,
      );
    }
  }
  if (operationId === 'listActions' || operationId === 'searchConversations') {
    const requested = operationId === 'listActions' && query['includeFullConversation'] === true;
    for (const item of items) {
      const cj = item['conversationJson'];
      if (!requested && cj !== null && cj !== undefined) {
        violate(
          'LIST-CONVERSATIONJSON-ONLY-WHEN-REQUESTED',
          'conversation-json-unrequested',
          `${operationId}: conversationJson filled for ${String(item['actionId'])} without includeFullConversation=true`,
        );
      }
      if (requested && typeof cj !== 'string') {
        violate(
          'LIST-CONVERSATIONJSON-FILLED-WHEN-REQUESTED',
          'conversation-json-missing',
          `listActions: includeFullConversation=true but conversationJson of ${String(item['actionId'])} is ${JSON.stringify(cj)}`,
        );
      }
    }
  }
  if (operationId === 'getCustomFields') {
    for (const field of arr(obj(body)['fields']).map(obj)) {
      if ('confidence' in field || 'rationale' in field) {
        violate(
          'CF-WRITE-ONLY-NOT-RETURNED',
          'write-only-returned',
          `custom field ${String(field['fieldName'])} returns write-only confidence/rationale`,
        );
      }
    }
  }
}

async function pathArbitrary(
  ctx: LawContext,
  operationId: string,
): Promise<fc.Arbitrary<Record<string, string>> | string> {
  const op = ctx.contract.getOperation(operationId);
  if (op.pathParamNames.length === 0) return fc.constant({});
  const ids = operationId === 'getAgent' ? await sampleAgentIds(ctx) : await sampleActionIds(ctx);
  if (ids.length === 0)
    return `no ${operationId === 'getAgent' ? 'agents' : 'actions'} in the last 90 days to read`;
  const name = op.pathParamNames[0] ?? 'id';
  return fc.constantFrom(...ids).map((id) => ({ [name]: id }));
}

function responseLaw(operationId: string): Law {
  const paramsRule = QUERY_PARAMS_RULE[operationId];
  return {
    id: `schemas.${operationId}`,
    group: 'schemas',
    title: `${operationId}: valid generated requests get 200 with a body matching the contract`,
    ruleIds: [
      ...schemaRulesOf(operationId),
      ...COMMON_RULES,
      ...(STATUSES_RULE[operationId] === undefined ? [] : [STATUSES_RULE[operationId]]),
      ...(paramsRule === undefined ? [] : [paramsRule]),
      ...(EXTRA_RULES[operationId] ?? []),
      ...(SUCCESS_OPERATIONS.has(operationId) ? ['SCHEMA-SUCCESS-TRUE-ON-200'] : []),
    ],
    needs: { keys: ['read'] },
    async run(ctx) {
      const paths = await pathArbitrary(ctx, operationId);
      if (typeof paths === 'string') return { kind: 'not-run', ruleIds: this.ruleIds, reason: paths };
      const arb = fc.record({ query: validQuery(ctx, operationId), path: paths });
      return runProperty(ctx, arb, async ({ query, path }) => {
        const res = await call(ctx, operationId, { auth: 'read', query, path });
        const statusRule =
          res.status === 401 || res.status === 403
            ? 'AUTH-READ-KEY-READ-ROUTES'
            : (paramsRule ?? STATUSES_RULE[operationId]);
        expectConforming(ctx, operationId, res, {
          status: 200,
          ...(statusRule === undefined ? {} : { statusRule }),
          before: (body) => semantics(operationId, query, body),
        });
      });
    },
  };
}

export const schemaLaws: readonly Law[] = READ_OPERATIONS.map(responseLaw);
