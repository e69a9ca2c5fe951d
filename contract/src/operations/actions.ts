/** The action list and action detail (sections 4.1, 4.2). */
import * as ex from '../examples.ts';
import { bool, int, str } from '../schema.ts';
import { err, type Located, malformedWindow, unreadable, window } from './shared.ts';

export const actionOperations: readonly Located[] = [
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
      // No date examples: Swagger UI pre-fills the first example of every parameter, and a fixed
      // date goes stale (its window empties); without from/to the first call lists the past week.
      ...window(),
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
        // One example only: with an example on filter too, Swagger UI would pre-fill both, and the first
        // Execute would be the 400 of LIST-FULLFILTER-WITH-FILTER-400 (that answer keeps its example).
        examples: { withConversation: 'status=OPEN' },
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
        examples: { found: '1187533000000001195', notFound: '9007199254740993000' },
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
];
