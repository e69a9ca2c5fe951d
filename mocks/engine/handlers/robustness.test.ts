import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../../../src/contract/index.ts';
import { call, contractIssues, testState } from '../../../test/support/engine-handlers.ts';
import { actionIdOfRow } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';
import { getAction } from './getAction.ts';
import { getAgent } from './getAgent.ts';
import { getCustomFields } from './getCustomFields.ts';
import { getEngagement } from './getEngagement.ts';
import { getSentimentByDay } from './getSentimentByDay.ts';
import { getSentimentByTag } from './getSentimentByTag.ts';
import { getTagAnalytics } from './getTagAnalytics.ts';
import { getTagVolume } from './getTagVolume.ts';
import { listActions } from './listActions.ts';
import { listAgents } from './listAgents.ts';
import { listQueues } from './listQueues.ts';
import { searchConversations } from './searchConversations.ts';
import { updateCustomFields } from './updateCustomFields.ts';

const state = testState({ actions: 600 });
const acme = state.data.orgs.get('org_acme');
if (acme === undefined) throw new Error('no org_acme');
const realId = actionIdOfRow(acme, 0);

const reads: [OperationId, Handler<EngineState>][] = [
  ['listActions', listActions],
  ['listAgents', listAgents],
  ['listQueues', listQueues],
  ['getTagAnalytics', getTagAnalytics],
  ['getTagVolume', getTagVolume],
  ['getSentimentByDay', getSentimentByDay],
  ['getSentimentByTag', getSentimentByTag],
  ['getEngagement', getEngagement],
  ['searchConversations', searchConversations],
];

const NAMES = [
  'from',
  'to',
  'pageSize',
  'page',
  'filter',
  'filterJson',
  'fullFilter',
  'sortBy',
  'includeFullConversation',
  'limit',
  'offset',
  'search',
  'respondedOnly',
  'topTagsLimit',
  'tagIds',
  'platforms',
];

const anyValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constantFrom(
    '2026-11-20',
    '2026-11-20T10:00:00Z',
    'responded=false',
    '{"responded":true}',
    'platform=DISCORD',
    '+',
    '=',
    ' ',
  ),
);

describe('the read handlers never crash, whatever the query', () => {
  it('MOCK-QUERY-INVALID-400: garbage queries get 200 or 400, and contract-valid bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...reads),
        fc.dictionary(fc.constantFrom(...NAMES), anyValue, { maxKeys: 5 }),
        async ([operationId, handler], query) => {
          const result = await call(state, operationId, handler, { query });
          expect([200, 400]).toContain(result.status);
          expect(contractIssues(operationId, result)).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('by-id routes answer 200 or 404 for any id; PATCH answers 200 or 422 for any JSON body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1 }), fc.jsonValue(), async (id, body) => {
        for (const [op, handler, pathParams] of [
          ['getAction', getAction, { id }],
          ['getCustomFields', getCustomFields, { actionId: id }],
          ['getAgent', getAgent, { id }],
        ] as const) {
          const result = await call(state, op, handler, { pathParams });
          expect([200, 404]).toContain(result.status);
          expect(contractIssues(op, result)).toEqual([]);
        }
        // Any JSON body against a real action: stored only when every item fits its field.
        const patch = await call(state, 'updateCustomFields', updateCustomFields, {
          pathParams: { actionId: realId },
          body,
        });
        expect([200, 422]).toContain(patch.status);
        expect(contractIssues('updateCustomFields', patch)).toEqual([]);
        const unknown = await call(state, 'updateCustomFields', updateCustomFields, {
          pathParams: { actionId: `${id}\u0000` },
          body,
        });
        expect(unknown.status).toBe(404);
      }),
      { numRuns: 200 },
    );
  });
});
