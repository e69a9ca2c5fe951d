/**
 * Which catalog rule each response schema states, written into the contract as `x-rule`: a schema issue
 * in a response names the rule of the innermost schema on its path that has one (suites/laws/rule-map.ts),
 * so a failure says `SCHEMA-ACTION-USER` rather than a vague rule, and a new operation's rules come with
 * its schemas. Keys are component names, or a component and a path of keywords inside it.
 */
import type { Schema } from './schema.ts';

export const SCHEMA_RULES: Readonly<Record<string, string>> = {
  Tag: 'SCHEMA-TAG-VALUE-GROUP',
  'ActionSummary properties tags': 'SCHEMA-TAG-VALUE-GROUP',
  'ActionSummary properties closingTags': 'SCHEMA-TAG-VALUE-GROUP',
  'ActionDetail properties tags': 'SCHEMA-TAG-VALUE-GROUP',
  'ActionDetail properties closingTags': 'SCHEMA-TAG-VALUE-GROUP',
  CustomFields: 'SCHEMA-CUSTOMFIELDS-MAP',
  ActionSummary: 'SCHEMA-ACTION-SUMMARY-REQUIRED-KEYS',
  ConversationSearchItem: 'SCHEMA-CONVERSATION-SEARCH-ITEM-REQUIRED-KEYS',
  ActionListResponse: 'LIST-RESPONSE-ENVELOPE',
  ConversationSearchResponse: 'SEARCH-ENVELOPE',
  ActionDetail: 'SCHEMA-ACTION-DETAIL-REQUIRED-KEYS',
  ActionUser: 'SCHEMA-ACTION-USER',
  ActionAssignee: 'SCHEMA-ACTION-ASSIGNEE',
  ActionComment: 'SCHEMA-ACTION-COMMENT',
  'ActionDetail properties comments': 'SCHEMA-ACTION-COMMENT',
  Message: 'SCHEMA-MESSAGE-REQUIRED-KEYS',
  'ActionDetail properties messages': 'SCHEMA-MESSAGE-REQUIRED-KEYS',
  ConversationEntry: 'SCHEMA-CONVERSATION-ENTRY-REQUIRED-KEYS',
  'ActionDetail properties conversation': 'SCHEMA-CONVERSATION-ENTRY-REQUIRED-KEYS',
  CustomFieldsResponse: 'CF-GET-RESPONSE-SHAPE',
  CustomFieldValue: 'SCHEMA-CUSTOM-FIELD-VALUE',
  CustomFieldsUpdateResponse: 'CF-PATCH-RESPONSE-SHAPE',
  Metrics: 'SCHEMA-METRICS-KEYS',
  AgentMetrics: 'SCHEMA-METRICS-KEYS',
  QueueMetrics: 'SCHEMA-METRICS-KEYS',
  Workload: 'SCHEMA-WORKLOAD',
  AgentEntry: 'SCHEMA-AGENT-ENTRY',
  AgentListResponse: 'AGENT-LIST-ENVELOPE',
  QueueEntry: 'SCHEMA-QUEUE-ENTRY',
  QueueListResponse: 'QUEUE-LIST-ENVELOPE',
  AgentDetailResponse: 'AGENT-DETAIL-ENVELOPE',
  'AgentDetail properties metrics items': 'SCHEMA-OPAQUE-OBJECT-ARRAYS',
  'AgentDetail properties queues items': 'SCHEMA-OPAQUE-OBJECT-ARRAYS',
  TagAnalyticsResponse: 'TAGS-ENVELOPE',
  TagSummary: 'SCHEMA-TAG-SUMMARY',
  TagBreakdownItem: 'SCHEMA-TAG-BREAKDOWN-ITEM',
  'TagAnalytics properties tagBreakdown': 'SCHEMA-TAG-BREAKDOWN-ITEM',
  TagVolumeByTagItem: 'SCHEMA-VOLUME-BY-TAG-ITEM',
  'TagAnalytics properties volumeByTag': 'SCHEMA-VOLUME-BY-TAG-ITEM',
  Pagination: 'SCHEMA-PAGINATION',
  TagVolumeResponse: 'VOLUME-ENVELOPE',
  'TagVolume properties data items': 'SCHEMA-OPAQUE-OBJECT-ARRAYS',
  SentimentByDayResponse: 'SENT-DAY-ENVELOPE',
  SentimentDayRow: 'SCHEMA-SENTIMENT-DAY-ROW',
  SentimentByTagResponse: 'SENT-TAG-ENVELOPE',
  SentimentTagRow: 'SCHEMA-SENTIMENT-TAG-ROW',
  EngagementResponse: 'ENG-ENVELOPE',
  EngagementPercentile: 'SCHEMA-ENGAGEMENT-PERCENTILE',
  'Engagement properties engagementPercentiles': 'SCHEMA-ENGAGEMENT-PERCENTILE',
  GrowthTrend: 'SCHEMA-GROWTH-TREND',
  'Engagement properties growthTrends': 'SCHEMA-GROWTH-TREND',
  'Engagement properties conversionFunnel': 'SCHEMA-OPAQUE-OBJECT-ARRAYS',
  ModerationAck: 'SCHEMA-MODERATION-ACK',
  ModerationBatchResponse: 'SCHEMA-MODERATION-BATCH-RESULT',
  ModerationCaseStatus: 'SCHEMA-MODERATION-CASE-STATUS',
  ModerationDecision: 'SCHEMA-MODERATION-DECISION',
  ModerationHit: 'SCHEMA-MODERATION-HIT',
  'ModerationDecision properties hits': 'SCHEMA-MODERATION-HIT',
  ModerationEvidence: 'SCHEMA-MODERATION-EVIDENCE',
  'ModerationHit properties evidence': 'SCHEMA-MODERATION-EVIDENCE',
  IngestionAccepted: 'SCHEMA-INGESTION-ACCEPTED',
};

/** The component schemas with `x-rule` written where SCHEMA_RULES says. Throws on a key that names nothing. */
export function withSchemaRules(schemas: Readonly<Record<string, Schema>>): Record<string, Schema> {
  const out = structuredClone(schemas) as Record<string, Schema>;
  for (const [key, rule] of Object.entries(SCHEMA_RULES)) {
    const [name = '', ...path] = key.split(' ');
    let node: unknown = out[name];
    for (const step of path) node = (node as Record<string, unknown> | undefined)?.[step];
    if (typeof node !== 'object' || node === null || Array.isArray(node))
      throw new Error(`contract/src/schema-rules.ts: "${key}" is no schema of the contract`);
    (node as Schema)['x-rule'] = rule;
  }
  return out;
}
