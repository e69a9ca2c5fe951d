// OpenAPI 3.0 document and Swagger UI page served under /docs.
const ref = (n) => ({ $ref: `#/components/schemas/${n}` });
const S = { type: 'string' };
const SN = { type: 'string', nullable: true };
const N = { type: 'number' };
const NN = { type: 'number', nullable: true };
const B = { type: 'boolean' };
const obj = (properties, required = Object.keys(properties), extra = {}) => ({ type: 'object', properties, required, ...extra });
const arr = (items, extra = {}) => ({ type: 'array', items, ...extra });
const err = (d) => ({ description: d, content: { 'application/json': { schema: ref('Error') } } });
const ok = (d, schema) => ({ description: d, content: { 'application/json': { schema } } });
const qp = (name, schema, description) => ({ name, in: 'query', required: false, schema, description });
const pp = (name, description, schema = { type: 'string', minLength: 1 }) => ({ name, in: 'path', required: true, schema, description });
const FROM = qp('from', S, 'Window start: ISO 8601 date or timestamp. A date-only value means midnight UTC.');
const TO = qp('to', S, 'Window end, inclusive: ISO 8601 date or timestamp. A date-only value means midnight UTC of that date (not the end of that date).');
const RESP = { 401: err('Missing or invalid API key') };

export function buildOpenApi({ dev }) {
  const tag = obj({ value: S, group: S });
  const metrics = obj({ totalActions: N, totalMessages: N, totalAgentMessages: N, totalUserMessages: N, averageCsat: N, averageResponseTime: { type: 'number', description: 'seconds' }, averageHandleTime: { type: 'number', description: 'seconds' }, averageEstimatedCsat: N, averageResolutionQuality: N, averageSentimentChange: N, averageRubricScore: N });
  const workload = obj({ active: N, closed: N, cancelled: N });
  const summaryProps = {
    actionId: S, actionTitle: S, actionSummary: S, status: S, platform: S, recordType: SN, isPublicPost: B, serviceURL: S, sourceURL: SN,
    queue: SN, initialQueue: SN, sentiment: SN, sentimentScore: NN, moderation: SN, assigneeName: SN, assigneeEmail: SN, assigneeUserId: SN, assigneeRole: SN,
    userName: S, userUsername: S, userId: S, userEmail: SN, userFollowerCount: NN, createdAt: S, updatedAt: SN, initialMessageTime: SN, initialResponseTime: SN,
    closeTime: SN, claimTime: SN, firstResponseTime: { type: 'string', nullable: true, description: 'Duration HH:MM:SS (not a timestamp)' }, handleTime: { type: 'string', nullable: true, description: 'Duration HH:MM:SS (not a timestamp)' },
    serverName: S, channelName: S, csatScore: SN, csatFeedback: SN, estimatedCSAT: NN, totalMessages: NN, totalUserMessages: NN, totalAgentMessages: NN,
    tags: arr(ref('Tag')), closingTags: arr(ref('Tag')), customFields: { type: 'object', additionalProperties: true }, rootMessageText: SN,
    conversationJson: { type: 'string', nullable: true, description: 'Serialized conversation; only filled when includeFullConversation=true' },
  };
  const message = obj({ id: S, timestamp: S, author: S, authorId: S, authorType: { type: 'string', enum: ['USER', 'AGENT', 'BOT'] }, message: S, mediaUrls: arr(S) }, ['id', 'timestamp', 'author', 'authorType', 'message', 'mediaUrls']);
  const convMsg = obj({ id: S, timestamp: S, author: S, authorId: SN, authorType: { type: 'string', enum: ['USER', 'AGENT', 'BOT'] }, message: S, parentMessageId: SN, mediaUrls: arr(S) });
  const detailProps = {
    user: obj({ name: S, username: S, userId: S, email: SN, followerCount: NN }), actionId: S, actionTitle: S, actionSummary: S, platform: S, recordType: SN, isPublicPost: B,
    sentiment: SN, sentimentScore: NN, queue: SN, initialQueue: SN, status: S, createdAt: S, serviceURL: S, sourceURL: SN, updatedAt: SN, initialMessageTime: SN,
    initialResponseTime: SN, closeTime: SN, firstResponseTime: SN, handleTime: SN, claimTime: SN, assignee: obj({ name: SN, email: SN, userId: SN, role: SN }),
    serverName: S, channelName: S, tags: arr(ref('Tag')), closingTags: arr(ref('Tag')), moderation: SN,
    comments: arr(obj({ text: S, authorNativeId: S, authorNativeName: SN })), messages: arr(ref('Message')), rootMessageText: SN,
    customFields: { type: 'object', additionalProperties: true }, csatScore: SN, csatFeedback: SN, estimatedCSAT: NN, totalMessages: NN, totalUserMessages: NN, totalAgentMessages: NN,
  };
  const detail = obj({ ...detailProps, conversation: arr(ref('ConversationMessage')) }, Object.keys(detailProps));
  const str = (min, max, extra = {}) => ({ type: 'string', minLength: min, maxLength: max, ...extra });
  const submission = obj({
    externalId: str(1, 256), sourceSystem: str(1, 128), sourcePlatform: str(1, 128), sourceAdId: str(1, 256), advertiserId: str(1, 256), advertiserName: str(1, 500),
    campaignId: str(1, 256), market: str(1, 128), placement: str(1, 128), language: str(1, 64, { default: 'en' }), providerMetadata: { type: 'object', additionalProperties: true },
    landingPageUrl: SN, title: str(1, 500), headline: str(1, 500), brandName: str(1, 500),
    callToAction: { type: 'string', enum: ['APPLY_NOW', 'BOOK_NOW', 'GET_NOW', 'INSTALL_NOW', 'MORE', 'SHOP_NOW', 'SIGN_UP', 'VIEW', 'WATCH'] },
    publicProfile: obj({ displayName: str(1, 500), logoUrl: { type: 'string', format: 'uri' }, verified: B }, []),
    media: arr(obj({ url: { type: 'string', format: 'uri', description: 'absolute HTTP/HTTPS' }, type: { type: 'string', enum: ['image', 'video'] }, position: { type: 'integer', minimum: 1, maximum: 20 } }), { minItems: 1, maxItems: 20 }),
    attachment: obj({ type: { type: 'string', enum: ['web_view', 'deep_link', 'app_install', 'lens', 'long_form_video'] }, destinationUrl: SN }),
    targeting: obj({ ageMin: { type: 'integer', nullable: true }, ageMax: { type: 'integer', nullable: true }, geos: arr(S, { minItems: 1, maxItems: 250 }), languages: arr(S, { minItems: 1, maxItems: 100 }) }, ['ageMin', 'geos']),
    copy: obj({ body: str(0, 20000), caption: str(0, 20000), linkDescription: str(0, 20000), sourceTitle: str(0, 20000) }, []),
    discoverTile: B, partnershipAd: B, format: SN, arLens: SN, submittedAt: { type: 'string', format: 'date-time' },
  }, ['externalId', 'sourceSystem', 'sourcePlatform', 'sourceAdId', 'advertiserName', 'market', 'placement', 'landingPageUrl', 'title', 'media', 'attachment', 'targeting', 'copy']);
  const conf = { type: 'string', enum: ['low', 'medium', 'high'] };
  const pol = { type: 'string', enum: ['AMBIGUOUS', 'NEGATIVE', 'POSITIVE'] };
  const bigInt = { type: 'integer', minimum: 0, maximum: 9007199254740991 };
  const hit = obj({
    ruleId: str(1), ruleSlug: str(1), polarity: pol, confidence: conf, reasoning: SN,
    evidence: arr(obj({ modality: { type: 'string', enum: ['image', 'video', 'text', 'metadata'] }, claim: str(1), locator: obj({ asset: { type: 'string', enum: ['public_profile_logo'] }, mediaIndex: bigInt, boundingBox: {}, startSeconds: { type: 'number', minimum: 0 }, endSeconds: { type: 'number', minimum: 0 }, textSpan: obj({ field: str(1, 128), start: bigInt, end: bigInt }, ['start', 'end']) }, []) }, ['modality', 'claim'])),
  }, ['ruleId', 'ruleSlug', 'polarity', 'confidence', 'evidence']);
  const assess = obj({ polarity: pol, reasoning: str(1, 1000) });
  const decision = obj({
    disposition: { type: 'string', enum: ['age_gate', 'approve', 'escalate', 'reject'] }, confidence: conf, title: { type: 'string', nullable: true, default: null }, reason: str(1), hits: arr(ref('Hit')),
    advertiserAssessment: assess, landingAssessment: assess, decisionSource: { type: 'string', enum: ['model', 'fail_closed'], default: 'model' },
    failureCode: { type: 'string', nullable: true, default: null }, failureMessage: { type: 'string', nullable: true, default: null },
  }, ['disposition', 'confidence', 'reason', 'hits', 'advertiserAssessment', 'landingAssessment']);
  const ack = obj({ caseId: S, externalId: S, status: { type: 'string', enum: ['accepted', 'duplicate'] }, analysisStatus: { type: 'string', enum: ['pending'] }, evaluationId: S, idempotency: obj({ key: S, replayed: B }) });
  const modErr = obj({ success: { type: 'boolean', enum: [false] }, error: S, message: S, code: { type: 'string', enum: ['MODERATION_INPUT_INCOMPLETE', 'MODERATION_INPUT_INVALID'] }, missingFields: arr(S), invalidFields: arr(S), supported: arr(S) }, ['success', 'error']);
  const modErrR = (d) => ({ description: d, content: { 'application/json': { schema: ref('ModerationError') } } });
  const PLATFORMS = ['DISCORD', 'SLACK', 'GITHUB', 'ZENDESK', 'TELEGRAM', 'FACEBOOK_GROUP', 'TWITTER_COMMUNITY', 'SALESFORCE', 'FACEBOOK', 'TWITTER', 'THREADS', 'TIKTOK', 'INSTAGRAM', 'LINKEDIN', 'WHATSAPP', 'YOUTUBE', 'GAINSIGHT', 'APPSTORE', 'GOOGLE_PLAY', 'HIGHER_LOGIC', 'DISCOURSE', 'CUSTOM_FORM', 'MODERATION_API', 'CHROME_WEB_STORE', 'CANNY'];
  const ingest = obj({
    platform: { type: 'string', enum: PLATFORMS }, serverId: str(1), serverName: str(1), channelId: S, channelName: S,
    processingLevel: { type: 'string', enum: ['INSIGHTS', 'STATS_ONLY'], description: 'INSIGHTS: normal insight processing (default); STATS_ONLY: statistics only' },
    source: obj({ system: str(1), sourceId: S }, ['system']),
    records: arr(obj({
      externalId: str(1), threadExternalId: S, parentExternalId: S, authorId: str(1), authorName: str(1), title: S, body: S,
      score: { type: 'number', minimum: 0, maximum: 5 }, createdAt: str(1), url: { type: 'string', format: 'uri', description: 'absolute HTTP or HTTPS' }, recordType: str(1),
      customFields: { type: 'object', additionalProperties: true },
    }, ['externalId', 'authorId', 'authorName', 'body', 'createdAt', 'recordType']), { minItems: 1, maxItems: 500 }),
  }, ['platform', 'serverId', 'serverName', 'records']);
  const succ = (data) => obj({ success: B, data });
  const analyticsResp = (d, data) => ({ 200: ok(d, succ(data)), ...RESP, 403: err('Forbidden'), 500: err('Internal server error') });
  const win = [FROM, TO];
  const g = (summary, description, parameters, responses, extra = {}) => ({ summary, description, parameters, responses, ...extra });
  const filterDsl = 'Filter DSL: terms key=value joined with `+`, all of which must hold. Send `+` literally or as %2B. Keys: platform, status, queue (id, name or `none`), sentiment, tag (id or name), assignee, responded (true|false), recordType, userId, channel, text (substring of title/summary/root message). A comma inside a value means any of the listed values.';

  return {
    openapi: '3.0.3',
    info: { title: 'Customer-Conversation Analytics API', version: 'v0', description: 'Reads actions, agents, queues, conversations and analytics; writes custom field values, moderation cases and normalized ingested records. Every request carries X-API-Key; every key is scoped to one organization. The API cannot send replies to customers. Windows without from/to default to the last 7 days (action list) or the last 30 days (agents, queues, analytics).' },
    servers: [{ url: '/' }],
    security: [{ ApiKeyAuth: [] }],
    tags: [{ name: 'Actions' }, { name: 'Custom fields' }, { name: 'Agents' }, { name: 'Queues' }, { name: 'Analytics' }, { name: 'Conversations' }, { name: 'Moderation' }, { name: 'Ingestion' }],
    paths: {
      '/v0/action/list': { get: g('List actions', 'Newest first by sortBy. Without fullFilter the list is limited to responded actions (legacy filter/filterJson may set responded=false). The window defaults to the past seven days. There is no page number: move the window and deduplicate on actionId. currentPage is always 1. Requires scope read.', [
        FROM, TO,
        qp('pageSize', { type: 'integer', minimum: 1, maximum: 500, default: 50 }),
        qp('filter', S, 'Legacy; only the responded flag is read (e.g. responded=false).'),
        qp('filterJson', S, 'Legacy JSON; only the responded flag is read (e.g. {"responded":false}).'),
        qp('fullFilter', { type: 'string', maxLength: 10000 }, `Full Operations DSL. Must not be combined with filter or filterJson; adds no responded default. ${filterDsl}`),
        qp('includeFullConversation', { type: 'boolean', default: false }),
        qp('sortBy', { type: 'string', enum: ['createdAt', 'updatedAt'], default: 'createdAt' }, 'Selects the date field used by from/to and the newest-first order.'),
      ], { 200: ok('Actions', obj({ data: arr(ref('ActionSummary')), totalRecords: N, currentPage: N, pageSize: N, totalPages: N })), 400: err('Bad request'), ...RESP, 403: err('Key lacks scope read'), 500: err('Internal server error') }, { tags: ['Actions'] }) },
      '/v0/action/{id}': { get: g('Get one action', 'Requires scope read.', [pp('id', 'Action identifier (string, preserved exactly)', S)], { 200: ok('Action detail', ref('ActionDetail')), ...RESP, 403: err('Key lacks scope read'), 404: err('Not found'), 500: err('Internal server error') }, { tags: ['Actions'] }) },
      '/v0/actions/{actionId}/custom-fields': {
        get: g('Read custom field values', 'Lists every registered field of the organization; value is null when unset. Requires scope read.', [pp('actionId', 'Action identifier')], { 200: ok('Fields', obj({ actionId: S, fields: arr(ref('CustomFieldValue')) })), ...RESP, 403: err('Forbidden'), 404: err('Not found'), 500: err('Internal server error') }, { tags: ['Custom fields'] }),
        patch: {
          ...g('Write custom field values', 'All-or-nothing: if any item fails validation nothing is written and 422 carries fieldErrors. A null value clears the field. Requires scope write.', [pp('actionId', 'Action identifier')], { 200: ok('Updated', obj({ actionId: S, updated: arr(obj({ fieldName: S, value: {} })) })), ...RESP, 403: err('Forbidden'), 404: err('Not found'), 422: err('Validation failed (fieldErrors)'), 500: err('Internal server error') }, { tags: ['Custom fields'] }),
          requestBody: { required: true, content: { 'application/json': { schema: obj({ fields: arr(obj({ fieldName: str(1), value: {}, confidence: { type: 'number', minimum: 0, maximum: 1 }, rationale: S }, ['fieldName', 'value']), { minItems: 1 }) }) } } },
        },
      },
      '/v0/agents': { get: g('Agent metrics', 'One entry per registered agent; window over createdAt, default last 30 days. Response/handle averages are in seconds. Requires scope read.', win, analyticsResp('Agents', arr(ref('AgentEntry'))), { tags: ['Agents'] }) },
      '/v0/agents/{id}': { get: g('One agent', 'metrics: daily rows within the window; aggregatedMetrics over the window; currentWorkload counts all actions currently assigned (not windowed); queues: per-queue counts within the window.', [...win, pp('id', 'Agent id', S)], { ...analyticsResp('Agent', obj({ metrics: arr({ type: 'object' }), aggregatedMetrics: ref('Metrics'), currentWorkload: ref('Workload'), queues: arr({ type: 'object' }) })), 404: err('Not found') }, { tags: ['Agents'] }) },
      '/v0/queues': { get: g('Queue metrics', 'One entry per queue; an entry with queueId null collects actions without a queue.', win, analyticsResp('Queues', arr(ref('QueueEntry'))), { tags: ['Queues'] }) },
      '/v0/analytics/tags': { get: g('Tag analytics', 'Conversation tags (closing tags excluded). percentage = count / totalTaggedRecords * 100. search narrows tagBreakdown, volumeByTag and pagination.total but not summary.', [...win, qp('respondedOnly', B), qp('limit', { type: 'number', minimum: 1, maximum: 200, default: 25 }), qp('offset', { type: 'number', minimum: 0, default: 0 }), qp('search', S)], analyticsResp('Tags', obj({
        summary: obj({ totalTags: N, totalTagGroups: N, totalTaggedRecords: N, totalActions: N }),
        tagBreakdown: arr(obj({ tagId: S, tagName: S, groupName: SN, count: N, percentage: N })),
        volumeByTag: arr(obj({ tagId: S, tagName: S, total: N, responded: N, notResponded: N, avgSentiment: NN, avgActionability: NN, avgRelevance: NN })),
        pagination: obj({ total: N, limit: N, offset: N, hasMore: B }),
      })), { tags: ['Analytics'] }) },
      '/v0/analytics/tags/volume': { get: g('Tag volume per day', 'data rows: {date: YYYY-MM-DD, <tagName>: count}; one row per day of the window.', [...win, qp('respondedOnly', B), qp('topTagsLimit', { type: 'number', minimum: 1, maximum: 50, default: 5 }), qp('tagIds', S, 'Comma-separated tag IDs')], analyticsResp('Volume', obj({ data: arr({ type: 'object' }), tags: arr(S) })), { tags: ['Analytics'] }) },
      '/v0/analytics/sentiment': { get: g('Sentiment per day', 'One row per day of the window.', win, analyticsResp('Rows', arr(obj({ day: S, 'Very Negative': N, Negative: N, Neutral: N, Positive: N }))), { tags: ['Analytics'] }) },
      '/v0/analytics/sentiment/by-tag': { get: g('Sentiment per tag', 'totalMentions = veryNegative + negative + neutral + positive (mentions without sentiment are not counted).', win, analyticsResp('Rows', arr(obj({ tagName: S, veryNegative: N, negative: N, neutral: N, positive: N, totalMentions: N }))), { tags: ['Analytics'] }) },
      '/v0/analytics/engagement': { get: g('Engagement', 'Weeks start Monday 00:00 UTC. conversionFunnel rows: {stage, count, percentageOfTotal}.', [...win, qp('platforms', S, 'Comma-separated source platform values')], analyticsResp('Engagement', obj({
        engagementPercentiles: arr(obj({ platform: S, p25MessagesPerUser: N, medianMessagesPerUser: N, p75MessagesPerUser: N })),
        growthTrends: arr(obj({ week: { type: 'string', format: 'date-time' }, platform: S, currentWeekUsers: N, previousWeekUsers: N, growthPercentage: N })),
        conversionFunnel: arr({ type: 'object' }),
      })), { tags: ['Analytics'] }) },
      '/v0/conversations/search': { get: g('Search conversations', `All time, newest first. totalRecords is capped at 1000 (totalRecordsCapped=true when the cap is reached). ${filterDsl}`, [
        qp('filter', S, 'DSL text'), qp('page', { type: 'integer', minimum: 1, maximum: 10000, default: 1 }),
        qp('pageSize', { type: 'integer', minimum: 1, maximum: dev('D14') ? 500 : 100, default: 50 }),
      ], { 200: ok('Results', obj({ success: B, data: arr(ref('ConversationSearchItem')), totalRecords: N, totalRecordsCapped: B, currentPage: N, pageSize: N, totalPages: N })), 400: err('Bad request'), ...RESP, 403: err('Forbidden'), 500: err('Internal server error') }, { tags: ['Conversations'] }) },
      '/v0/moderation/cases': { post: { ...g('Submit a moderation case', 'Requires write scope with moderation intake and an organization in ad_policy mode. Exact resubmission returns duplicate; differing content under an existing externalId is 409. submittedAt is not part of the compared content.', [], { 202: ok('Accepted', ref('ModerationAck')), 400: modErrR('Bad request'), ...RESP, 403: modErrR('Forbidden'), 409: modErrR('externalId conflict'), 422: modErrR('Validation failed'), 500: modErrR('Internal server error') }, { tags: ['Moderation'] }), requestBody: { required: true, content: { 'application/json': { schema: ref('ModerationSubmission') } } } } },
      '/v0/moderation/cases/batch': { post: { ...g('Submit up to 100 cases', 'One result per input, in order. Invalid or conflicting items are rejected without blocking the others.', [], { 202: ok('Results', obj({ results: arr(obj({ externalId: SN, caseId: SN, status: { type: 'string', enum: ['accepted', 'duplicate', 'rejected'] }, analysisStatus: { type: 'string', enum: ['pending'] }, evaluationId: S, idempotency: obj({ key: S, replayed: B }), errors: arr(S), message: S, code: { type: 'string', enum: ['MODERATION_INPUT_INCOMPLETE', 'MODERATION_INPUT_INVALID'] }, missingFields: arr(S), invalidFields: arr(S) }, ['externalId', 'caseId', 'status'])) })), 400: modErrR('Bad request'), ...RESP, 403: modErrR('Forbidden') }, { tags: ['Moderation'] }), requestBody: { required: true, content: { 'application/json': { schema: obj({ cases: arr(ref('ModerationSubmission'), { minItems: 1, maxItems: 100 }) }) } } } } },
      '/v0/moderation/cases/{caseId}': { get: g('Moderation case status', 'decision is present only when analysisStatus is completed; failureCode only when failed. Only the active policy workflow is reported. Requires scope read.', [pp('caseId', 'Case id')], { 200: ok('Status', obj({ caseId: S, externalId: S, analysisStatus: { type: 'string', enum: ['policy_not_configured', 'pending', 'running', 'completed', 'failed'] }, evaluationId: S, decision: ref('Decision'), failureCode: S }, ['caseId', 'externalId', 'analysisStatus'])), ...RESP, 403: err('Forbidden'), 404: err('Not found') }, { tags: ['Moderation'] }) },
      '/v0/ingest/records': { post: { ...g('Ingest normalized records', 'Requires scope ingest (Import profile). Record identity: organization + platform + serverId + externalId; re-sending updates the record. 202 acknowledges acceptance; processing is asynchronous.', [], { 202: ok('Accepted', obj({ status: { type: 'string', enum: ['accepted'] }, accepted: N })), ...RESP, 403: err('Forbidden'), 422: err('Validation failed'), 500: err('Internal server error') }, { tags: ['Ingestion'] }), requestBody: { required: true, content: { 'application/json': { schema: ref('IngestBatch') } } } } },
    },
    components: {
      securitySchemes: { ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      schemas: {
        Error: obj({ success: { type: 'boolean', enum: [false] }, error: S, fieldErrors: { type: 'object', additionalProperties: { type: 'string' } } }, ['success', 'error']),
        Tag: tag, Message: message, ConversationMessage: convMsg,
        ActionSummary: obj(summaryProps),
        ConversationSearchItem: obj({ ...summaryProps, threadId: S, easyId: SN, contributors: SN }),
        ActionDetail: detail,
        CustomFieldValue: obj({ fieldName: str(1), displayName: S, fieldType: { type: 'string', enum: ['text', 'number', 'boolean', 'date', 'select', 'multi_select'] }, value: { nullable: true }, provenance: { type: 'object' } }, ['fieldName', 'displayName', 'fieldType', 'value']),
        Metrics: metrics, Workload: workload,
        AgentEntry: obj({ agentId: S, metrics: { allOf: [ref('Metrics'), obj({ totalActionsWithResponse: N })] }, workload: ref('Workload') }),
        QueueEntry: obj({ queueId: SN, queueName: SN, metrics: { allOf: [ref('Metrics'), obj({ averageSentimentScore: N })] }, workload: ref('Workload') }),
        ModerationSubmission: submission, Hit: hit, Decision: decision, ModerationAck: ack, ModerationError: modErr, IngestBatch: ingest,
      },
    },
  };
}

export function swaggerHtml() {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Customer-Conversation Analytics API - Swagger UI</title>
<link rel="stylesheet" href="https://unpkg.com/swagger-ui-dist@5/swagger-ui.css"></head>
<body><div id="swagger-ui"><noscript>Swagger UI needs JavaScript. The OpenAPI JSON is at <a href="/docs/json">/docs/json</a>.</noscript></div>
<script src="https://unpkg.com/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/docs/json', dom_id: '#swagger-ui', persistAuthorization: true });</script>
</body></html>`;
}
