/**
 * The spec's tables, written out by hand from ../shared/interface-spec.md, so that tests can hold the
 * generated contract against them. This is the one place where the spec is restated: on purpose, as
 * the independent oracle for the contract.
 *
 * Field notation: `name: type` where type is s (string), n (number), i (integer), b (boolean),
 * a (array), o (object) or * (any JSON); a trailing `|null` means nullable; a leading `?` means
 * the key is optional.
 */

export const SPEC_OPERATIONS: readonly {
  section: string;
  method: string;
  path: string;
  operationId: string;
}[] = [
  { section: '4.1', method: 'get', path: '/v0/action/list', operationId: 'listActions' },
  { section: '4.2', method: 'get', path: '/v0/action/{id}', operationId: 'getAction' },
  {
    section: '4.3',
    method: 'get',
    path: '/v0/actions/{actionId}/custom-fields',
    operationId: 'getCustomFields',
  },
  {
    section: '4.4',
    method: 'patch',
    path: '/v0/actions/{actionId}/custom-fields',
    operationId: 'updateCustomFields',
  },
  { section: '4.5', method: 'get', path: '/v0/agents', operationId: 'listAgents' },
  { section: '4.6', method: 'get', path: '/v0/agents/{id}', operationId: 'getAgent' },
  { section: '4.7', method: 'get', path: '/v0/queues', operationId: 'listQueues' },
  { section: '4.8', method: 'get', path: '/v0/analytics/tags', operationId: 'getTagAnalytics' },
  { section: '4.9', method: 'get', path: '/v0/analytics/tags/volume', operationId: 'getTagVolume' },
  { section: '4.10', method: 'get', path: '/v0/analytics/sentiment', operationId: 'getSentimentByDay' },
  {
    section: '4.11',
    method: 'get',
    path: '/v0/analytics/sentiment/by-tag',
    operationId: 'getSentimentByTag',
  },
  { section: '4.12', method: 'get', path: '/v0/analytics/engagement', operationId: 'getEngagement' },
  { section: '4.13', method: 'get', path: '/v0/conversations/search', operationId: 'searchConversations' },
  { section: '4.14', method: 'post', path: '/v0/moderation/cases', operationId: 'submitModerationCase' },
  {
    section: '4.15',
    method: 'post',
    path: '/v0/moderation/cases/batch',
    operationId: 'submitModerationBatch',
  },
  { section: '4.16', method: 'get', path: '/v0/moderation/cases/{caseId}', operationId: 'getModerationCase' },
  { section: '4.17', method: 'post', path: '/v0/ingest/records', operationId: 'ingestRecords' },
];

/** Section 7's per-endpoint statuses besides 2xx (the contract adds 401 everywhere and 403 where a scope can lack). */
export const SPEC_STATUSES: Record<string, readonly number[]> = {
  listActions: [400, 500],
  getAction: [404, 500],
  getCustomFields: [403, 404, 500],
  updateCustomFields: [403, 404, 422, 500],
  listAgents: [403, 500],
  getAgent: [403, 404, 500],
  listQueues: [403, 500],
  getTagAnalytics: [403, 500],
  getTagVolume: [403, 500],
  getSentimentByDay: [403, 500],
  getSentimentByTag: [403, 500],
  getEngagement: [403, 500],
  searchConversations: [400, 403, 500],
  submitModerationCase: [400, 403, 409, 422, 500],
  submitModerationBatch: [400, 403],
  getModerationCase: [403, 404],
  ingestRecords: [403, 422, 500],
};

const SUMMARY = `actionId: s; actionTitle: s; actionSummary: s; status: s; platform: s; recordType: s|null;
  isPublicPost: b; serviceURL: s; sourceURL: s|null; queue: s|null; initialQueue: s|null; sentiment: s|null;
  sentimentScore: n|null; moderation: s|null; assigneeName: s|null; assigneeEmail: s|null; assigneeUserId: s|null;
  assigneeRole: s|null; userName: s; userUsername: s; userId: s; userEmail: s|null; userFollowerCount: n|null;
  createdAt: s; updatedAt: s|null; initialMessageTime: s|null; initialResponseTime: s|null; closeTime: s|null;
  claimTime: s|null; firstResponseTime: s|null; handleTime: s|null; serverName: s; channelName: s;
  csatScore: s|null; csatFeedback: s|null; estimatedCSAT: n|null; totalMessages: n|null; totalUserMessages: n|null;
  totalAgentMessages: n|null; tags: a; closingTags: a; customFields: o; rootMessageText: s|null;
  conversationJson: s|null`;

const METRICS = `totalActions: n; totalMessages: n; totalAgentMessages: n; totalUserMessages: n; averageCsat: n;
  averageResponseTime: n; averageHandleTime: n; averageEstimatedCsat: n; averageResolutionQuality: n;
  averageSentimentChange: n; averageRubricScore: n`;

/** Every record of section 2 (and the envelopes of section 4), as the spec's tables give them. */
export const SPEC_RECORDS: Record<string, string> = {
  Tag: 'value: s; group: s',
  ActionSummary: SUMMARY,
  ConversationSearchItem: `${SUMMARY}; threadId: s; easyId: s|null; contributors: s|null`,
  ActionUser: 'name: s; username: s; userId: s; email: s|null; followerCount: n|null',
  ActionAssignee: 'name: s|null; email: s|null; userId: s|null; role: s|null',
  ActionComment: 'text: s; authorNativeId: s; authorNativeName: s|null',
  ActionDetail: `user: o; actionId: s; actionTitle: s; actionSummary: s; platform: s; recordType: s|null;
    isPublicPost: b; sentiment: s|null; sentimentScore: n|null; queue: s|null; initialQueue: s|null; status: s;
    createdAt: s; serviceURL: s; sourceURL: s|null; updatedAt: s|null; initialMessageTime: s|null;
    initialResponseTime: s|null; closeTime: s|null; firstResponseTime: s|null; handleTime: s|null;
    claimTime: s|null; assignee: o; serverName: s; channelName: s; tags: a; closingTags: a; moderation: s|null;
    comments: a; messages: a; ?conversation: a; rootMessageText: s|null; customFields: o; csatScore: s|null;
    csatFeedback: s|null; estimatedCSAT: n|null; totalMessages: n|null; totalUserMessages: n|null;
    totalAgentMessages: n|null`,
  Message: 'id: s; timestamp: s; author: s; ?authorId: s; authorType: s; message: s; mediaUrls: a',
  ConversationEntry: `id: s; timestamp: s; author: s; message: s; authorId: s|null; authorType: s;
    parentMessageId: s|null; mediaUrls: a`,
  CustomFieldValue: 'fieldName: s; displayName: s; fieldType: s; value: *; ?provenance: *',
  CustomFieldWrite: 'fieldName: s; value: *; ?confidence: n; ?rationale: s',
  Metrics: METRICS,
  Workload: 'active: n; closed: n; cancelled: n',
  AgentEntry: 'agentId: s; metrics: o; workload: o',
  QueueEntry: 'queueId: s|null; queueName: s|null; metrics: o; workload: o',
  AgentDetail: 'metrics: a; aggregatedMetrics: o; currentWorkload: o; queues: a',
  TagSummary: 'totalTags: n; totalTagGroups: n; totalTaggedRecords: n; totalActions: n',
  TagBreakdownItem: 'tagId: s; tagName: s; groupName: s|null; count: n; percentage: n',
  TagVolumeByTagItem: `tagId: s; tagName: s; total: n; responded: n; notResponded: n; avgSentiment: n|null;
    avgActionability: n|null; avgRelevance: n|null`,
  Pagination: 'total: n; limit: n; offset: n; hasMore: b',
  TagAnalytics: 'summary: o; tagBreakdown: a; volumeByTag: a; pagination: o',
  TagVolume: 'data: a; tags: a',
  SentimentDayRow: "day: s; 'Very Negative': n; Negative: n; Neutral: n; Positive: n",
  SentimentTagRow: 'tagName: s; veryNegative: n; negative: n; neutral: n; positive: n; totalMentions: n',
  EngagementPercentile: 'platform: s; p25MessagesPerUser: n; medianMessagesPerUser: n; p75MessagesPerUser: n',
  GrowthTrend: 'week: s; platform: s; currentWeekUsers: n; previousWeekUsers: n; growthPercentage: n',
  Engagement: 'engagementPercentiles: a; growthTrends: a; conversionFunnel: a',
  ModerationSubmission: `externalId: s; sourceSystem: s; sourcePlatform: s; sourceAdId: s; ?advertiserId: s;
    advertiserName: s; ?campaignId: s; market: s; placement: s; ?language: s; ?providerMetadata: o;
    landingPageUrl: s|null; title: s; ?headline: s; ?brandName: s; ?callToAction: s; ?publicProfile: o; media: a;
    attachment: o; targeting: o; copy: o; ?discoverTile: b; ?partnershipAd: b; ?format: s|null; ?arLens: s|null;
    ?submittedAt: s`,
  ModerationMedia: 'url: s; type: s; position: i',
  ModerationAttachment: 'type: s; destinationUrl: s|null',
  ModerationTargeting: 'ageMin: i|null; ?ageMax: i|null; geos: a; ?languages: a',
  ModerationCopy: '?body: s; ?caption: s; ?linkDescription: s; ?sourceTitle: s',
  ModerationPublicProfile: '?displayName: s; ?logoUrl: s; ?verified: b',
  ModerationDecision: `disposition: s; confidence: s; ?title: s|null; reason: s; hits: a; advertiserAssessment: o;
    landingAssessment: o; ?decisionSource: s; ?failureCode: s|null; ?failureMessage: s|null`,
  ModerationAssessment: 'polarity: s; reasoning: s',
  ModerationHit: 'ruleId: s; ruleSlug: s; polarity: s; confidence: s; reasoning: s|null; evidence: a',
  ModerationEvidence: 'modality: s; claim: s; ?locator: o',
  ModerationLocator:
    '?asset: s; ?mediaIndex: i; ?boundingBox: *; ?startSeconds: n; ?endSeconds: n; ?textSpan: o',
  ModerationTextSpan: '?field: s; start: i; end: i',
  ModerationAck: 'caseId: s; externalId: s; status: s; analysisStatus: s; evaluationId: s; idempotency: o',
  ModerationCaseStatus: `caseId: s; externalId: s; analysisStatus: s; ?evaluationId: s; ?decision: o;
    ?failureCode: s|null`,
  IngestionBatch: `platform: s; serverId: s; serverName: s; ?channelId: s; ?channelName: s; ?processingLevel: s;
    ?source: o; records: a`,
  IngestionRecord: `externalId: s; ?threadExternalId: s; ?parentExternalId: s; authorId: s; authorName: s;
    ?title: s; body: s; ?score: n; createdAt: s; ?url: s; recordType: s; ?customFields: o`,
  IngestionSource: 'system: s; ?sourceId: s',
  IngestionAccepted: 'status: s; accepted: n',
  ActionListResponse: 'data: a; totalRecords: n; currentPage: n; pageSize: n; totalPages: n',
  ConversationSearchResponse: `success: b; data: a; totalRecords: n; totalRecordsCapped: b; currentPage: n;
    pageSize: n; totalPages: n`,
  CustomFieldsResponse: 'actionId: s; fields: a',
  CustomFieldsUpdateRequest: 'fields: a',
  CustomFieldsUpdateResponse: 'actionId: s; updated: a',
  ErrorBody: 'success: b; error: s',
};

export interface SpecField {
  readonly name: string;
  readonly type: 's' | 'n' | 'i' | 'b' | 'a' | 'o' | '*';
  readonly nullable: boolean;
  readonly optional: boolean;
}

export function parseFields(table: string): SpecField[] {
  return table
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const [rawName = '', rawType = ''] = part.split(/:\s*(?=[snibao*](?:\|null)?$)/);
      const optional = rawName.startsWith('?');
      const name = rawName.replace(/^\?/, '').replace(/^'(.*)'$/, '$1');
      const [type, nullable] = rawType.split('|');
      return { name, type: type as SpecField['type'], nullable: nullable === 'null', optional };
    });
}
