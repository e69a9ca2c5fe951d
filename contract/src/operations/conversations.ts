/** Conversation search (section 4.13). */
import * as ex from '../examples.ts';
import { int, str } from '../schema.ts';
import { err, type Located } from './shared.ts';

export const conversationOperations: readonly Located[] = [
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
];
