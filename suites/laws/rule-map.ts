/**
 * Which catalog rule a response-schema issue breaks, from the operation, the status and where in the
 * body the issue is. Lets a failure name the precise rule (`SCHEMA-ACTION-USER`) instead of a vague one.
 */
import { contract } from '../../src/contract/index.ts';
import { statusesRuleOf } from './catalog-lookup.ts';

type Route = readonly [RegExp, string];

const SUMMARY: readonly Route[] = [
  [/^\/data\/\d+\/(tags|closingTags)/, 'SCHEMA-TAG-VALUE-GROUP'],
  [/^\/data\/\d+\/customFields/, 'SCHEMA-CUSTOMFIELDS-MAP'],
];

const BY_OPERATION: Readonly<
  Record<string, { readonly routes: readonly Route[]; readonly fallback: string }>
> = {
  listActions: {
    routes: [...SUMMARY, [/^\/data\/\d+/, 'SCHEMA-ACTION-SUMMARY-REQUIRED-KEYS']],
    fallback: 'LIST-RESPONSE-ENVELOPE',
  },
  searchConversations: {
    routes: [...SUMMARY, [/^\/data\/\d+/, 'SCHEMA-CONVERSATION-SEARCH-ITEM-REQUIRED-KEYS']],
    fallback: 'SEARCH-ENVELOPE',
  },
  getAction: {
    routes: [
      [/^\/user/, 'SCHEMA-ACTION-USER'],
      [/^\/assignee/, 'SCHEMA-ACTION-ASSIGNEE'],
      [/^\/comments/, 'SCHEMA-ACTION-COMMENT'],
      [/^\/messages/, 'SCHEMA-MESSAGE-REQUIRED-KEYS'],
      [/^\/conversation/, 'SCHEMA-CONVERSATION-ENTRY-REQUIRED-KEYS'],
      [/^\/(tags|closingTags)/, 'SCHEMA-TAG-VALUE-GROUP'],
      [/^\/customFields/, 'SCHEMA-CUSTOMFIELDS-MAP'],
    ],
    fallback: 'SCHEMA-ACTION-DETAIL-REQUIRED-KEYS',
  },
  getCustomFields: {
    routes: [[/^\/fields\/\d+/, 'SCHEMA-CUSTOM-FIELD-VALUE']],
    fallback: 'CF-GET-RESPONSE-SHAPE',
  },
  updateCustomFields: { routes: [], fallback: 'CF-PATCH-RESPONSE-SHAPE' },
  listAgents: {
    routes: [
      [/^\/data\/\d+\/metrics/, 'SCHEMA-METRICS-KEYS'],
      [/^\/data\/\d+\/workload/, 'SCHEMA-WORKLOAD'],
      [/^\/data\/\d+/, 'SCHEMA-AGENT-ENTRY'],
    ],
    fallback: 'AGENT-LIST-ENVELOPE',
  },
  getAgent: {
    routes: [
      [/^\/data\/aggregatedMetrics/, 'SCHEMA-METRICS-KEYS'],
      [/^\/data\/currentWorkload/, 'SCHEMA-WORKLOAD'],
      [/^\/data\/(metrics|queues)\/\d+/, 'SCHEMA-OPAQUE-OBJECT-ARRAYS'],
    ],
    fallback: 'AGENT-DETAIL-ENVELOPE',
  },
  listQueues: {
    routes: [
      [/^\/data\/\d+\/metrics/, 'SCHEMA-METRICS-KEYS'],
      [/^\/data\/\d+\/workload/, 'SCHEMA-WORKLOAD'],
      [/^\/data\/\d+/, 'SCHEMA-QUEUE-ENTRY'],
    ],
    fallback: 'QUEUE-LIST-ENVELOPE',
  },
  getTagAnalytics: {
    routes: [
      [/^\/data\/summary/, 'SCHEMA-TAG-SUMMARY'],
      [/^\/data\/tagBreakdown/, 'SCHEMA-TAG-BREAKDOWN-ITEM'],
      [/^\/data\/volumeByTag/, 'SCHEMA-VOLUME-BY-TAG-ITEM'],
      [/^\/data\/pagination/, 'SCHEMA-PAGINATION'],
    ],
    fallback: 'TAGS-ENVELOPE',
  },
  getTagVolume: {
    routes: [[/^\/data\/data\/\d+/, 'SCHEMA-OPAQUE-OBJECT-ARRAYS']],
    fallback: 'VOLUME-ENVELOPE',
  },
  getSentimentByDay: {
    routes: [[/^\/data\/\d+/, 'SCHEMA-SENTIMENT-DAY-ROW']],
    fallback: 'SENT-DAY-ENVELOPE',
  },
  getSentimentByTag: {
    routes: [[/^\/data\/\d+/, 'SCHEMA-SENTIMENT-TAG-ROW']],
    fallback: 'SENT-TAG-ENVELOPE',
  },
  getEngagement: {
    routes: [
      [/^\/data\/engagementPercentiles/, 'SCHEMA-ENGAGEMENT-PERCENTILE'],
      [/^\/data\/growthTrends/, 'SCHEMA-GROWTH-TREND'],
      [/^\/data\/conversionFunnel/, 'SCHEMA-OPAQUE-OBJECT-ARRAYS'],
    ],
    fallback: 'ENG-ENVELOPE',
  },
  submitModerationCase: { routes: [], fallback: 'SCHEMA-MODERATION-ACK' },
  submitModerationBatch: { routes: [], fallback: 'SCHEMA-MODERATION-BATCH-RESULT' },
  getModerationCase: {
    routes: [
      [/^\/decision\/hits\/\d+\/evidence/, 'SCHEMA-MODERATION-EVIDENCE'],
      [/^\/decision\/hits/, 'SCHEMA-MODERATION-HIT'],
      [/^\/decision/, 'SCHEMA-MODERATION-DECISION'],
    ],
    fallback: 'SCHEMA-MODERATION-CASE-STATUS',
  },
  ingestRecords: { routes: [], fallback: 'SCHEMA-INGESTION-ACCEPTED' },
  getOpenApiDocument: { routes: [], fallback: 'DOCS-OPENAPI-JSON' },
  getSwaggerUi: { routes: [], fallback: 'DOCS-SWAGGER-UI' },
};

/** The operations of a tag of the contract: moderation and custom fields have error bodies of their own. */
const taggedWith = (tag: string): ReadonlySet<string> =>
  new Set(
    [...contract.operations.values()].filter((op) => op.tags.includes(tag)).map((op) => op.operationId),
  );
const MODERATION_OPS = taggedWith('Moderation');
const CUSTOM_FIELD_OPS = taggedWith('Custom fields');

/** The rule a schema issue at `pointer` in a `status` response of `operationId` breaks. */
export function schemaRuleFor(operationId: string, status: number, pointer: string): string {
  if (status >= 400) {
    if (MODERATION_OPS.has(operationId) && status !== 401) return 'ERR-MODERATION-BODY';
    if (CUSTOM_FIELD_OPS.has(operationId) && status === 422) return 'ERR-CUSTOM-FIELD-422-FIELDERRORS';
    if (CUSTOM_FIELD_OPS.has(operationId) && pointer.startsWith('/fieldErrors'))
      return 'ERR-CUSTOM-FIELD-FIELDERRORS';
    return 'ERR-GENERAL-BODY';
  }
  const entry = BY_OPERATION[operationId];
  if (entry === undefined) return 'SCHEMA-JSON-BODIES';
  return entry.routes.find(([re]) => re.test(pointer))?.[1] ?? entry.fallback;
}

/** The "declared statuses" rule of each operation of the contract, from the catalog. */
export const STATUSES_RULE: Readonly<Record<string, string>> = Object.fromEntries(
  [...contract.operations.keys()].flatMap((op) => {
    const rule = statusesRuleOf(op);
    return rule === undefined ? [] : [[op, rule]];
  }),
);

/** The rule "valid query parameters are accepted" of each read operation. */
export const QUERY_PARAMS_RULE: Readonly<Record<string, string>> = {
  listActions: 'LIST-FROM-ISO-8601',
  listAgents: 'AGENT-LIST-ENVELOPE',
  getAgent: 'AGENT-DETAIL-QUERY-PARAMS',
  listQueues: 'QUEUE-QUERY-PARAMS',
  getTagAnalytics: 'TAGS-QUERY-PARAMS',
  getTagVolume: 'VOLUME-QUERY-PARAMS',
  getSentimentByDay: 'SENT-DAY-QUERY-PARAMS',
  getSentimentByTag: 'SENT-TAG-QUERY-PARAMS',
  getEngagement: 'ENG-QUERY-PARAMS',
  searchConversations: 'SEARCH-ENVELOPE',
};

/** Every rule a schema check of `operationId`'s 2xx body can name. */
export function schemaRulesOf(operationId: string): readonly string[] {
  const entry = BY_OPERATION[operationId];
  if (entry === undefined) return [];
  return [...new Set([...entry.routes.map(([, id]) => id), entry.fallback])];
}
