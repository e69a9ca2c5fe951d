/** Tag, sentiment and engagement analytics (sections 4.8 to 4.12). */
import * as ex from '../examples.ts';
import type { ParameterSpec } from '../operation.ts';
import { bool, num, str } from '../schema.ts';
import { type Located, windowedReport } from './shared.ts';

const respondedOnly: ParameterSpec = {
  name: 'respondedOnly',
  in: 'query',
  description: 'Count responded actions only.',
  schema: bool(),
};

export const analyticsOperations: readonly Located[] = [
  windowedReport({
    path: '/v0/analytics/tags',
    operationId: 'getTagAnalytics',
    summary: 'Tag analytics',
    description: 'Summary, breakdown and volume per tag, with offset pagination.',
    tag: 'Analytics',
    schema: 'TagAnalyticsResponse',
    example: ex.tagAnalytics,
    successDescription: 'Tag analytics.',
    parameters: [
      respondedOnly,
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
  }),
  windowedReport({
    path: '/v0/analytics/tags/volume',
    operationId: 'getTagVolume',
    summary: 'Tag volume over time',
    description: 'Volume rows for the top tags or the listed tag ids.',
    tag: 'Analytics',
    schema: 'TagVolumeResponse',
    example: ex.tagVolume,
    successDescription: 'Tag volume.',
    parameters: [
      respondedOnly,
      {
        name: 'topTagsLimit',
        in: 'query',
        description: 'How many top tags.',
        schema: num(),
        examples: { lastWeek: 2 },
      },
      { name: 'tagIds', in: 'query', description: 'Comma-separated tag IDs.', schema: str() },
    ],
  }),
  windowedReport({
    path: '/v0/analytics/sentiment',
    operationId: 'getSentimentByDay',
    summary: 'Sentiment by day',
    description: 'Daily counts per sentiment label.',
    tag: 'Analytics',
    schema: 'SentimentByDayResponse',
    example: ex.sentimentByDay,
    successDescription: 'Daily rows.',
  }),
  windowedReport({
    path: '/v0/analytics/sentiment/by-tag',
    operationId: 'getSentimentByTag',
    summary: 'Sentiment by tag',
    description: 'Per-tag counts per sentiment label.',
    tag: 'Analytics',
    schema: 'SentimentByTagResponse',
    example: ex.sentimentByTag,
    successDescription: 'Per-tag rows.',
  }),
  windowedReport({
    path: '/v0/analytics/engagement',
    operationId: 'getEngagement',
    summary: 'Engagement analytics',
    description: 'Messages-per-user percentiles, weekly growth trends and the conversion funnel.',
    tag: 'Analytics',
    schema: 'EngagementResponse',
    example: ex.engagement,
    successDescription: 'Engagement.',
    parameters: [
      {
        name: 'platforms',
        in: 'query',
        description: 'Comma-separated source platform values.',
        schema: str(),
        examples: { lastWeek: 'DISCORD' },
      },
    ],
  }),
];
