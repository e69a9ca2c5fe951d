/**
 * The 17 REST operations of spec sections 4.1 to 4.17, in the spec's order.
 */
import * as ex from './examples.ts';
import type { OperationSpec, ParameterSpec, ResponseSpec } from './operation.ts';
import type { Json } from './schema.ts';
import { bool, int, num, str } from './schema.ts';

const ISO_DATE_OR_TIMESTAMP =
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}(:?\\d{2})?)?)?$';

const dateParam = (
  name: 'from' | 'to',
  examples?: Record<string, Json>,
  invalidExamples?: Record<string, Json>,
): ParameterSpec => ({
  name,
  in: 'query',
  description:
    name === 'from'
      ? 'Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC.'
      : 'Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date).',
  schema: str({ pattern: ISO_DATE_OR_TIMESTAMP }),
  ...(examples ? { examples } : {}),
  ...(invalidExamples ? { invalidExamples } : {}),
});

const window = (from?: Record<string, Json>, to?: Record<string, Json>): ParameterSpec[] => [
  dateParam('from', from, { malformedWindow: 'last tuesday' }),
  dateParam('to', to),
];

const lastWeek = { lastWeek: '2026-11-13' };
const lastWeekEnd = { lastWeek: '2026-11-20' };

const err = (error: string): Json => ({ success: false, error });

const UNDECLARED_400 =
  'The per-endpoint table of section 7 does not list 400 for this operation; how a malformed query parameter is answered is not shown. The cca-kit mock answers 400 with the general error body.';

const badQuery = (examples: Record<string, Json>): ResponseSpec => ({
  description: 'A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp).',
  schema: 'ErrorBody',
  examples,
  gap: UNDECLARED_400,
});

const malformedWindow = {
  malformedWindow: err('query parameter from must be an ISO 8601 date or timestamp'),
};
const malformedWindowParams = (): ParameterSpec[] => window(lastWeek, lastWeekEnd);

/** Transport-level answers for operations with a body; the spec lists neither status. */
const bodyTransportErrors = (schema: string): Record<number, ResponseSpec> => ({
  413: {
    description: 'The body is larger than the server accepts.',
    schema,
    examples: { bodyTooLarge: err('Request body exceeds the limit of 1048576 bytes') },
    gap: 'Request body size limits are not shown (section 8). The cca-kit mock accepts up to 1 MiB.',
  },
  415: {
    description: 'The body is not sent as application/json.',
    schema,
    examples: { wrongContentType: err('Content-Type must be application/json (got text/plain)') },
    gap: 'All bodies are JSON (section 4); the status for another content type is not shown. The mock answers 415.',
  },
});

const malformedJson = err('Request body is not valid JSON: Unexpected end of JSON input');
const badPathEncoding = err('Path segment is not valid percent-encoding: %E0%A4%A');

/** A request that cannot be read at all: a body that is not JSON, a path segment that is not valid %-encoding. */
const unreadable = (schema: string, withBody: boolean): ResponseSpec => ({
  description: withBody
    ? 'The request cannot be read: the body is not JSON, or a path segment is not valid percent-encoding.'
    : 'The request cannot be read: a path segment is not valid percent-encoding.',
  schema,
  examples: withBody ? { malformedJson, badPathEncoding } : { badPathEncoding },
  gap: 'The per-endpoint table of section 7 does not list 400 for this operation; how an unreadable request is answered is not shown. The cca-kit mock answers 400 with the general error body.',
});

const NO_AD_POLICY_GAP =
  'The spec says only that moderation requests of an organization not in ad_policy mode are refused; the status is not shown. The mock answers 403 (a permission of the organization, like a missing scope) with supported: ["ad_policy"].';
const MODERATION_STATUS_GAP =
  'Which of 400 and 422 carries MODERATION_INPUT_INCOMPLETE and which MODERATION_INPUT_INVALID is not shown. The mock answers 400 for a missing required field and 422 for a present but invalid value.';

const changedSubmission: Json = { ...ex.moderationSubmission, title: 'Winter jackets, 40% off this week' };

const submissionWithout = (key: string): Json =>
  Object.fromEntries(Object.entries(ex.moderationSubmission).filter(([k]) => k !== key));

export const operations: readonly (OperationSpec & { method: string; path: string })[] = [
  {
    method: 'get',
    path: '/v0/action/list',
    operationId: 'listActions',
    summary: 'List actions in a date window',
    description:
      'Lists actions newest first. Without fullFilter the list defaults to the past seven days and to responded actions. There is no numbered page input: continue by moving timestamp windows and deduplicating on actionId. fullFilter must not be combined with filter or filterJson (400).',
    tag: 'Actions',
    scope: 'read',
    parameters: [
      ...window({ firstPage: '2026-11-13' }, { firstPage: '2026-11-20' }),
      {
        name: 'pageSize',
        in: 'query',
        description: 'Page size, 1..500.',
        schema: int({ minimum: 1, maximum: 500, default: 50 }),
        examples: { firstPage: 50 },
        invalidExamples: { invalidPageSize: 501 },
      },
      {
        name: 'filter',
        in: 'query',
        description: 'Legacy filter; only the responded flag is read.',
        schema: str(),
        examples: { fullFilterWithFilter: 'responded=true' },
      },
      {
        name: 'filterJson',
        in: 'query',
        description: 'Legacy JSON filter; only the responded flag is read.',
        schema: str(),
      },
      {
        name: 'fullFilter',
        in: 'query',
        description:
          'Full Operations DSL, at most 10000 characters. Must not be combined with filter or filterJson. Adds no responded default.',
        schema: str({ maxLength: 10000 }),
        examples: { fullFilterWithFilter: 'platform=TWITTER+status=OPEN', withConversation: 'status=OPEN' },
        gap: 'The DSL grammar is not shown beyond key=value terms joined with +, all of which must hold.',
      },
      {
        name: 'includeFullConversation',
        in: 'query',
        description: 'Fill conversationJson.',
        schema: bool({ default: false }),
        examples: { withConversation: true },
      },
      {
        name: 'sortBy',
        in: 'query',
        description: 'Selects both the date field used by from/to and the newest-first order.',
        schema: { type: 'string', enum: ['createdAt', 'updatedAt'], default: 'createdAt' },
      },
    ],
    success: {
      status: 200,
      description: 'A page of action summary records.',
      schema: 'ActionListResponse',
      examples: {
        firstPage: { data: [ex.actionSummary], totalRecords: 1, currentPage: 1, pageSize: 50, totalPages: 1 },
        withConversation: {
          data: [ex.actionSummaryWithConversation],
          totalRecords: 1,
          currentPage: 1,
          pageSize: 50,
          totalPages: 1,
        },
      },
    },
    errors: {
      400: {
        description:
          'Bad request: a parameter is out of range or malformed, or fullFilter is combined with filter.',
        schema: 'ErrorBody',
        examples: {
          invalidPageSize: err('query parameter pageSize must be <= 500 (got 501)'),
          fullFilterWithFilter: err('fullFilter must not be combined with filter or filterJson'),
          ...malformedWindow,
        },
      },
    },
  },
  {
    method: 'get',
    path: '/v0/action/{id}',
    operationId: 'getAction',
    summary: 'Read one action with its conversation',
    description: 'The action detail record. Another organization’s action is not found.',
    tag: 'Actions',
    scope: 'read',
    parameters: [
      {
        name: 'id',
        in: 'path',
        description: 'Action identifier, a string preserved exactly.',
        schema: str({ minLength: 1 }),
        examples: { found: '9007199254740993123', notFound: '9007199254740993000' },
      },
    ],
    success: {
      status: 200,
      description: 'The action.',
      schema: 'ActionDetail',
      examples: { found: ex.actionDetail },
    },
    errors: {
      400: unreadable('ErrorBody', false),
      404: {
        description: 'No action with this id in the key’s organization.',
        schema: 'ErrorBody',
        examples: { notFound: err('Action 9007199254740993000 not found') },
      },
    },
  },
  {
    method: 'get',
    path: '/v0/actions/{actionId}/custom-fields',
    operationId: 'getCustomFields',
    summary: 'Read the custom field values of an action',
    description: 'Registered custom fields with their stored values and provenance.',
    tag: 'Custom fields',
    scope: 'read',
    parameters: [
      {
        name: 'actionId',
        in: 'path',
        description: 'Action identifier.',
        schema: str({ minLength: 1 }),
        examples: { found: '9007199254740993123', notFound: '9007199254740993000' },
      },
    ],
    success: {
      status: 200,
      description: 'Custom field values.',
      schema: 'CustomFieldsResponse',
      examples: {
        found: {
          actionId: '9007199254740993123',
          fields: [
            {
              fieldName: 'orderNumber',
              displayName: 'Order number',
              fieldType: 'text',
              value: 'A-100234',
              provenance: {
                origin: 'api',
                confidence: 0.9,
                rationale: 'Read from the receipt',
                updatedAt: '2026-11-19T15:20:45.000Z',
              },
            },
            { fieldName: 'refundAmount', displayName: 'Refund amount', fieldType: 'number', value: 129.0 },
          ],
        },
      },
    },
    errors: {
      400: unreadable('CustomFieldErrorBody', false),
      404: {
        description: 'No action with this id in the key’s organization.',
        schema: 'CustomFieldErrorBody',
        examples: { notFound: err('Action 9007199254740993000 not found') },
      },
    },
  },
  {
    method: 'patch',
    path: '/v0/actions/{actionId}/custom-fields',
    operationId: 'updateCustomFields',
    summary: 'Write custom field values on an action',
    description:
      'Values must match the registered field types; unknown field names and wrong types give 422 with fieldErrors.',
    tag: 'Custom fields',
    scope: 'write',
    parameters: [
      {
        name: 'actionId',
        in: 'path',
        description: 'Action identifier.',
        schema: str({ minLength: 1 }),
        examples: {
          updated: '9007199254740993123',
          wrongType: '9007199254740993123',
          notFound: '9007199254740993000',
        },
      },
    ],
    body: {
      schema: 'CustomFieldsUpdateRequest',
      description: 'At least one field value.',
      examples: {
        updated: {
          fields: [
            {
              fieldName: 'orderNumber',
              value: 'A-100235',
              confidence: 0.9,
              rationale: 'Corrected from the invoice',
            },
          ],
        },
        wrongType: { fields: [{ fieldName: 'refundAmount', value: 'a lot' }] },
        notFound: { fields: [{ fieldName: 'orderNumber', value: 'A-1' }] },
      },
    },
    success: {
      status: 200,
      description: 'The values written.',
      schema: 'CustomFieldsUpdateResponse',
      examples: {
        updated: {
          actionId: '9007199254740993123',
          updated: [{ fieldName: 'orderNumber', value: 'A-100235' }],
        },
      },
    },
    errors: {
      404: {
        description: 'No action with this id in the key’s organization.',
        schema: 'CustomFieldErrorBody',
        examples: { notFound: err('Action 9007199254740993000 not found') },
      },
      400: unreadable('CustomFieldErrorBody', true),
      422: {
        description: 'Validation failed; fieldErrors maps each field name to its message.',
        schema: 'CustomFieldErrorBody',
        examples: {
          wrongType: {
            success: false,
            error: 'Custom field validation failed',
            fieldErrors: { refundAmount: 'refundAmount is a number field; got a string' },
          },
        },
      },
      ...bodyTransportErrors('CustomFieldErrorBody'),
    },
  },
  {
    method: 'get',
    path: '/v0/agents',
    operationId: 'listAgents',
    summary: 'List agents with their metrics',
    description: 'Agent list entries with metrics and workload for the window.',
    tag: 'Agents',
    scope: 'read',
    parameters: malformedWindowParams(),
    success: {
      status: 200,
      description: 'Agents.',
      schema: 'AgentListResponse',
      examples: { lastWeek: ex.agentList },
    },
    errors: { 400: badQuery(malformedWindow) },
  },
  {
    method: 'get',
    path: '/v0/agents/{id}',
    operationId: 'getAgent',
    summary: 'Read one agent',
    description: 'Aggregated metrics, current workload and queues of one agent.',
    tag: 'Agents',
    scope: 'read',
    parameters: [
      ...window(lastWeek, lastWeekEnd),
      {
        name: 'id',
        in: 'path',
        description: 'Agent identifier.',
        schema: str({ minLength: 1 }),
        examples: { lastWeek: '000417', notFound: 'agent-unknown' },
      },
    ],
    success: {
      status: 200,
      description: 'The agent.',
      schema: 'AgentDetailResponse',
      examples: { lastWeek: ex.agentDetail },
    },
    errors: {
      400: badQuery(malformedWindow),
      404: {
        description: 'No agent with this id in the key’s organization.',
        schema: 'ErrorBody',
        examples: { notFound: err('Agent agent-unknown not found') },
      },
    },
  },
  {
    method: 'get',
    path: '/v0/queues',
    operationId: 'listQueues',
    summary: 'List queues with their metrics',
    description:
      'Queue entries (a null queueId stands for no queue) with metrics and workload for the window.',
    tag: 'Queues',
    scope: 'read',
    parameters: malformedWindowParams(),
    success: {
      status: 200,
      description: 'Queues.',
      schema: 'QueueListResponse',
      examples: { lastWeek: ex.queueList },
    },
    errors: { 400: badQuery(malformedWindow) },
  },
  {
    method: 'get',
    path: '/v0/analytics/tags',
    operationId: 'getTagAnalytics',
    summary: 'Tag analytics',
    description: 'Summary, breakdown and volume per tag, with offset pagination.',
    tag: 'Analytics',
    scope: 'read',
    parameters: [
      ...window(lastWeek, lastWeekEnd),
      { name: 'respondedOnly', in: 'query', description: 'Count responded actions only.', schema: bool() },
      {
        name: 'limit',
        in: 'query',
        description: 'Page size of the tag lists.',
        schema: num(),
        examples: { lastWeek: 50 },
        gap: 'The default tag-analytics limit and its bounds are not shown (section 8).',
      },
      {
        name: 'offset',
        in: 'query',
        description: 'Offset into the tag lists.',
        schema: num(),
        examples: { lastWeek: 0 },
      },
      { name: 'search', in: 'query', description: 'Text search over tags.', schema: str() },
    ],
    success: {
      status: 200,
      description: 'Tag analytics.',
      schema: 'TagAnalyticsResponse',
      examples: { lastWeek: ex.tagAnalytics },
    },
    errors: { 400: badQuery(malformedWindow) },
  },
  {
    method: 'get',
    path: '/v0/analytics/tags/volume',
    operationId: 'getTagVolume',
    summary: 'Tag volume over time',
    description: 'Volume rows for the top tags or the listed tag ids.',
    tag: 'Analytics',
    scope: 'read',
    parameters: [
      ...window(lastWeek, lastWeekEnd),
      { name: 'respondedOnly', in: 'query', description: 'Count responded actions only.', schema: bool() },
      {
        name: 'topTagsLimit',
        in: 'query',
        description: 'How many top tags.',
        schema: num(),
        examples: { lastWeek: 2 },
      },
      { name: 'tagIds', in: 'query', description: 'Comma-separated tag IDs.', schema: str() },
    ],
    success: {
      status: 200,
      description: 'Tag volume.',
      schema: 'TagVolumeResponse',
      examples: { lastWeek: ex.tagVolume },
    },
    errors: { 400: badQuery(malformedWindow) },
  },
  {
    method: 'get',
    path: '/v0/analytics/sentiment',
    operationId: 'getSentimentByDay',
    summary: 'Sentiment by day',
    description: 'Daily counts per sentiment label.',
    tag: 'Analytics',
    scope: 'read',
    parameters: malformedWindowParams(),
    success: {
      status: 200,
      description: 'Daily rows.',
      schema: 'SentimentByDayResponse',
      examples: { lastWeek: ex.sentimentByDay },
    },
    errors: { 400: badQuery(malformedWindow) },
  },
  {
    method: 'get',
    path: '/v0/analytics/sentiment/by-tag',
    operationId: 'getSentimentByTag',
    summary: 'Sentiment by tag',
    description: 'Per-tag counts per sentiment label.',
    tag: 'Analytics',
    scope: 'read',
    parameters: malformedWindowParams(),
    success: {
      status: 200,
      description: 'Per-tag rows.',
      schema: 'SentimentByTagResponse',
      examples: { lastWeek: ex.sentimentByTag },
    },
    errors: { 400: badQuery(malformedWindow) },
  },
  {
    method: 'get',
    path: '/v0/analytics/engagement',
    operationId: 'getEngagement',
    summary: 'Engagement analytics',
    description: 'Messages-per-user percentiles, weekly growth trends and the conversion funnel.',
    tag: 'Analytics',
    scope: 'read',
    parameters: [
      ...window(lastWeek, lastWeekEnd),
      {
        name: 'platforms',
        in: 'query',
        description: 'Comma-separated source platform values.',
        schema: str(),
        examples: { lastWeek: 'DISCORD' },
      },
    ],
    success: {
      status: 200,
      description: 'Engagement.',
      schema: 'EngagementResponse',
      examples: { lastWeek: ex.engagement },
    },
    errors: { 400: badQuery(malformedWindow) },
  },
  {
    method: 'get',
    path: '/v0/conversations/search',
    operationId: 'searchConversations',
    summary: 'Search conversations',
    description:
      'Numbered pages of conversation search items. When totalRecordsCapped is true the count stopped at a cap and is not exact.',
    tag: 'Conversations',
    scope: 'read',
    parameters: [
      {
        name: 'filter',
        in: 'query',
        description: 'Filter DSL text: key=value terms joined with +, all of which must hold.',
        schema: str(),
        examples: { openTwitter: 'platform=TWITTER+status=OPEN' },
        gap: 'The DSL grammar is not shown beyond key=value terms joined with +.',
      },
      {
        name: 'page',
        in: 'query',
        description: 'Page number, 1..10000.',
        schema: int({ minimum: 1, maximum: 10000, default: 1 }),
        examples: { openTwitter: 1 },
        invalidExamples: { invalidPage: 10001 },
      },
      {
        name: 'pageSize',
        in: 'query',
        description: 'Page size, 1..100.',
        schema: int({ minimum: 1, maximum: 100, default: 50 }),
        examples: { openTwitter: 50 },
        invalidExamples: { invalidPageSize: 101 },
      },
    ],
    success: {
      status: 200,
      description: 'A page of conversation search items.',
      schema: 'ConversationSearchResponse',
      examples: {
        openTwitter: {
          success: true,
          data: [ex.searchItem],
          totalRecords: 1,
          totalRecordsCapped: false,
          currentPage: 1,
          pageSize: 50,
          totalPages: 1,
        },
      },
    },
    errors: {
      400: {
        description: 'Bad request: a parameter is out of range or the filter is malformed.',
        schema: 'ErrorBody',
        examples: {
          invalidPage: err('query parameter page must be <= 10000 (got 10001)'),
          invalidPageSize: err('query parameter pageSize must be <= 100 (got 101)'),
        },
      },
    },
  },
  {
    method: 'post',
    path: '/v0/moderation/cases',
    operationId: 'submitModerationCase',
    summary: 'Submit one moderation case',
    description:
      'Accepts one ad for advertising-policy evaluation (asynchronous: 202 acknowledges acceptance, not completion). Requires an organization in ad_policy moderation mode. The whole request is validated before any work is enqueued. An exact resubmission (same externalId, same content) is a duplicate; the same externalId with different content is a 409.',
    tag: 'Moderation',
    scope: 'write',
    adPolicy: true,
    body: {
      schema: 'ModerationSubmission',
      description: 'The moderation submission.',
      examples: {
        accepted: ex.moderationSubmission,
        duplicate: ex.moderationSubmission,
        changedContent: changedSubmission,
      },
      invalidExamples: {
        missingTitle: submissionWithout('title'),
        invalidMediaUrl: {
          ...ex.moderationSubmission,
          media: [{ url: 'ftp://cdn.northwind.example/ads/winter-1.jpg', type: 'image', position: 1 }],
        },
      },
    },
    success: {
      status: 202,
      description: 'Accepted (or an exact duplicate); analysis is pending.',
      schema: 'ModerationAck',
      examples: { accepted: ex.moderationAck, duplicate: ex.moderationDuplicateAck },
    },
    errors: {
      400: {
        description:
          'A required field is missing (code MODERATION_INPUT_INCOMPLETE with missingFields), or the body is not JSON.',
        schema: 'ModerationErrorBody',
        gap: MODERATION_STATUS_GAP,
        examples: {
          missingTitle: {
            success: false,
            error: 'Moderation input is incomplete',
            message: 'Required fields are missing: title',
            code: 'MODERATION_INPUT_INCOMPLETE',
            missingFields: ['title'],
          },
          malformedJson,
        },
      },
      403: {
        description:
          'The key lacks the write scope, or the organization is not in ad_policy moderation mode (then supported lists the modes that allow moderation).',
        schema: 'ModerationErrorBody',
        gap: NO_AD_POLICY_GAP,
        examples: {
          wrongScope: err('Forbidden: this API key lacks the write scope'),
          moderationNotEnabled: {
            success: false,
            error: 'Moderation is not available for this organization',
            message: 'Moderation intake requires the ad_policy moderation mode',
            supported: ['ad_policy'],
          },
        },
      },
      409: {
        description: 'The externalId exists with different content (immutable identifier conflict).',
        schema: 'ModerationErrorBody',
        examples: {
          changedContent: {
            success: false,
            error: 'Conflict: externalId ad-2026-000981 already exists with different content',
          },
        },
      },
      422: {
        description:
          'A present field has an invalid value (code MODERATION_INPUT_INVALID with invalidFields).',
        schema: 'ModerationErrorBody',
        gap: MODERATION_STATUS_GAP,
        examples: {
          invalidMediaUrl: {
            success: false,
            error: 'Moderation input is invalid',
            message: 'media[0].url must be an absolute http or https URL',
            code: 'MODERATION_INPUT_INVALID',
            invalidFields: ['media[0].url'],
          },
        },
      },
      ...bodyTransportErrors('ModerationErrorBody'),
    },
  },
  {
    method: 'post',
    path: '/v0/moderation/cases/batch',
    operationId: 'submitModerationBatch',
    summary: 'Submit a batch of moderation cases',
    description:
      'Accepts 1..100 submissions. One result per input, in input order; a conflicting or invalid item is rejected without blocking the valid items.',
    tag: 'Moderation',
    scope: 'write',
    adPolicy: true,
    body: {
      schema: 'ModerationBatchRequest',
      description: 'The submissions.',
      examples: {
        mixedBatch: { cases: [ex.moderationSubmission, changedSubmission] },
      },
      invalidExamples: { emptyBatch: { cases: [] } },
    },
    success: {
      status: 202,
      description: 'One result per input, in input order.',
      schema: 'ModerationBatchResponse',
      examples: {
        mixedBatch: {
          results: [
            ex.moderationAck,
            {
              externalId: 'ad-2026-000981',
              caseId: 'case_01JD6ZK3Q8R4',
              status: 'rejected',
              errors: ['externalId ad-2026-000981 already exists with different content'],
              message: 'Conflict: the externalId is immutable and its content differs',
            },
          ],
        },
      },
    },
    errors: {
      400: {
        description: 'cases is missing, not an array, or outside 1..100 items; or the body is not JSON.',
        schema: 'ModerationErrorBody',
        examples: {
          emptyBatch: err('cases must contain 1..100 submissions (got 0)'),
          malformedJson,
        },
      },
      403: {
        description:
          'The key lacks the write scope, or the organization is not in ad_policy moderation mode (then supported lists the modes that allow moderation).',
        schema: 'ModerationErrorBody',
        gap: NO_AD_POLICY_GAP,
        examples: {
          wrongScope: err('Forbidden: this API key lacks the write scope'),
          moderationNotEnabled: {
            success: false,
            error: 'Moderation is not available for this organization',
            supported: ['ad_policy'],
          },
        },
      },
      ...bodyTransportErrors('ModerationErrorBody'),
    },
  },
  {
    method: 'get',
    path: '/v0/moderation/cases/{caseId}',
    operationId: 'getModerationCase',
    summary: 'Read a moderation case',
    description:
      'Reports only the evaluation of the currently active policy workflow; the decision appears only once analysisStatus is completed.',
    tag: 'Moderation',
    scope: 'read',
    parameters: [
      {
        name: 'caseId',
        in: 'path',
        description: 'Case identifier.',
        schema: str({ minLength: 1 }),
        examples: { completed: 'case_01JD6ZK3Q8R4', pending: 'case_01JD6ZK3Q8R4', notFound: 'case_unknown' },
      },
    ],
    success: {
      status: 200,
      description: 'The case status.',
      schema: 'ModerationCaseStatus',
      examples: {
        completed: {
          caseId: 'case_01JD6ZK3Q8R4',
          externalId: 'ad-2026-000981',
          analysisStatus: 'completed',
          evaluationId: 'eval_01JD6ZK3Q8R5',
          decision: ex.moderationDecision,
        },
        pending: {
          caseId: 'case_01JD6ZK3Q8R4',
          externalId: 'ad-2026-000981',
          analysisStatus: 'pending',
          evaluationId: 'eval_01JD6ZK3Q8R5',
        },
      },
    },
    errors: {
      400: unreadable('ModerationErrorBody', false),
      404: {
        description: 'No case with this id in the key’s organization.',
        schema: 'ModerationErrorBody',
        examples: { notFound: err('Moderation case case_unknown not found') },
      },
    },
  },
  {
    method: 'post',
    path: '/v0/ingest/records',
    operationId: 'ingestRecords',
    summary: 'Ingest normalized records',
    description:
      'Accepts 1..500 records (asynchronous: 202 acknowledges acceptance; processing continues). Record identity is organization, platform, serverId and externalId: a retry with the same externalId updates, never duplicates.',
    tag: 'Ingestion',
    scope: 'ingest',
    body: {
      schema: 'IngestionBatch',
      description: 'The batch.',
      examples: {
        accepted: {
          platform: 'DISCORD',
          serverId: '000981234567890123456789',
          serverName: 'Northwind Community',
          channelId: '1180000000000000042',
          channelName: 'support',
          processingLevel: 'INSIGHTS',
          source: { system: 'community-export', sourceId: 'export-2026-11-20' },
          records: [
            {
              externalId: '1234567890123456789012345',
              threadExternalId: '1234567890123456789012345',
              authorId: '000733',
              authorName: 'Sam Rivera',
              title: 'Jacket zipper broke',
              body: 'The zipper on my winter jacket broke after two days.',
              score: 1,
              createdAt: '2026-11-20T08:00:00.000Z',
              url: 'https://discord.example/channels/000981234567890123456789/1180000000000000042/1234567890123456789012345',
              recordType: 'MESSAGE',
              customFields: { orderNumber: 'A-200001' },
            },
            {
              externalId: '1234567890123456789012346',
              threadExternalId: '1234567890123456789012345',
              parentExternalId: '1234567890123456789012345',
              authorId: '9007199254740993001',
              authorName: 'Northwind Support',
              body: 'Sorry to hear that, Sam! Please send us your order number.',
              createdAt: '2026-11-20T08:05:00.000Z',
              recordType: 'MESSAGE',
            },
          ],
        },
      },
      invalidExamples: {
        scoreOutOfRange: {
          platform: 'DISCORD',
          serverId: '000981234567890123456789',
          serverName: 'Northwind Community',
          records: [
            {
              externalId: '1234567890123456789012347',
              authorId: '000733',
              authorName: 'Sam Rivera',
              body: 'Five stars!',
              score: 7,
              createdAt: '2026-11-20T08:10:00.000Z',
              recordType: 'REVIEW',
            },
          ],
        },
      },
    },
    success: {
      status: 202,
      description: 'Accepted; processing continues asynchronously.',
      schema: 'IngestionAccepted',
      examples: { accepted: { status: 'accepted', accepted: 2 } },
    },
    errors: {
      400: unreadable('ErrorBody', true),
      422: {
        description: 'Validation failed; the message names the field.',
        schema: 'ErrorBody',
        examples: { scoreOutOfRange: err('records[0].score must be <= 5 (got 7)') },
      },
      ...bodyTransportErrors('ErrorBody'),
    },
  },
];
