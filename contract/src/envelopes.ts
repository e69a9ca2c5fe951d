/**
 * Response envelopes of section 4 and the error bodies of section 7.
 */
import { arr, bool, num, obj, optional, ref, type Schema, str } from './schema.ts';

const success: Schema = bool({ description: 'True on success.' });

const successEnvelope = (data: Schema, description: string): Schema =>
  obj({ success, data }, { description });

export const envelopeSchemas: Record<string, Schema> = {
  ActionListResponse: obj(
    {
      data: arr(ref('ActionSummary')),
      totalRecords: num(),
      currentPage: num(),
      pageSize: num(),
      totalPages: num(),
    },
    { description: 'Action list (section 4.1). There is no page input: move timestamp windows instead.' },
  ),
  ConversationSearchResponse: obj(
    {
      success,
      data: arr(ref('ConversationSearchItem')),
      totalRecords: num(),
      totalRecordsCapped: bool({ description: 'When true the count stopped at a cap and is not exact.' }),
      currentPage: num(),
      pageSize: num(),
      totalPages: num(),
    },
    { description: 'Conversation search (section 4.13).' },
  ),
  CustomFieldsResponse: obj(
    { actionId: str({ description: 'Action identifier.' }), fields: arr(ref('CustomFieldValue')) },
    { description: 'Custom fields of an action (section 4.3).' },
  ),
  CustomFieldsUpdateRequest: obj(
    { fields: arr(ref('CustomFieldWrite'), { minItems: 1 }) },
    { description: 'Custom field values to write (section 4.4); at least one.' },
  ),
  CustomFieldsUpdateResponse: obj(
    { actionId: str({ description: 'Action identifier.' }), updated: arr(ref('CustomFieldUpdated')) },
    { description: 'Written custom field values (section 4.4).' },
  ),
  AgentListResponse: successEnvelope(arr(ref('AgentEntry')), 'Agents (section 4.5).'),
  AgentDetailResponse: successEnvelope(ref('AgentDetail'), 'Agent detail (section 4.6).'),
  QueueListResponse: successEnvelope(arr(ref('QueueEntry')), 'Queues (section 4.7).'),
  TagAnalyticsResponse: successEnvelope(ref('TagAnalytics'), 'Tag analytics (section 4.8).'),
  TagVolumeResponse: successEnvelope(ref('TagVolume'), 'Tag volume (section 4.9).'),
  SentimentByDayResponse: successEnvelope(arr(ref('SentimentDayRow')), 'Sentiment by day (section 4.10).'),
  SentimentByTagResponse: successEnvelope(arr(ref('SentimentTagRow')), 'Sentiment by tag (section 4.11).'),
  EngagementResponse: successEnvelope(ref('Engagement'), 'Engagement analytics (section 4.12).'),
  ErrorBody: obj(
    {
      success: { type: 'boolean', const: false },
      error: str({ description: 'Error message. An uncaught server error says "Internal server error".' }),
    },
    { description: 'General REST error body (section 7).' },
  ),
  CustomFieldErrorBody: {
    description:
      'Custom-field error body (section 7): the general body plus fieldErrors on validation failure.',
    allOf: [
      ref('ErrorBody'),
      obj({
        fieldErrors: optional({
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Field name to validation message.',
        }),
      }),
    ],
  },
  ModerationErrorBody: {
    description: 'Moderation error body (section 7): the general body plus optional detail.',
    allOf: [
      ref('ErrorBody'),
      obj({
        message: optional(str()),
        code: optional({ type: 'string', enum: ['MODERATION_INPUT_INCOMPLETE', 'MODERATION_INPUT_INVALID'] }),
        missingFields: optional(arr(str())),
        invalidFields: optional(arr(str())),
        supported: optional(arr(str())),
      }),
    ],
  },
};
