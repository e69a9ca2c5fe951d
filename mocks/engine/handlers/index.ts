/**
 * The handler registry: one handler per operationId, each in its own file named after the operation
 * (`./listActions.ts` exports `listActions`). The engine finds handlers here and nowhere else; the
 * record is total over the contract's operations, so a missing handler fails the type-check.
 *
 * To add one: `import { listActions } from './listActions.ts';` and add `listActions,` to the object.
 * The docs operations (`getOpenApiDocument`, `getSwaggerUi`) are answered by the engine itself.
 */
import type { OperationId } from '../../../src/contract/index.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';
import { getAction } from './getAction.ts';
import { getAgent } from './getAgent.ts';
import { getCustomFields } from './getCustomFields.ts';
import { getEngagement } from './getEngagement.ts';
import { getModerationCase } from './getModerationCase.ts';
import { getSentimentByDay } from './getSentimentByDay.ts';
import { getSentimentByTag } from './getSentimentByTag.ts';
import { getTagAnalytics } from './getTagAnalytics.ts';
import { getTagVolume } from './getTagVolume.ts';
import { ingestRecords } from './ingestRecords.ts';
import { listActions } from './listActions.ts';
import { listAgents } from './listAgents.ts';
import { listQueues } from './listQueues.ts';
import { searchConversations } from './searchConversations.ts';
import { submitModerationBatch } from './submitModerationBatch.ts';
import { submitModerationCase } from './submitModerationCase.ts';
import { updateCustomFields } from './updateCustomFields.ts';

export type EngineHandler = Handler<EngineState>;

/** Operations the engine answers itself, never through a handler. */
export type EngineAnsweredOperation = 'getOpenApiDocument' | 'getSwaggerUi';

/** Total over the contract's operations: a missing handler is a type error, not a runtime 501. */
export const handlers: Record<Exclude<OperationId, EngineAnsweredOperation>, EngineHandler> = {
  listActions,
  getAction,
  getCustomFields,
  updateCustomFields,
  listAgents,
  getAgent,
  listQueues,
  getTagAnalytics,
  getTagVolume,
  getSentimentByDay,
  getSentimentByTag,
  getEngagement,
  searchConversations,
  submitModerationCase,
  submitModerationBatch,
  getModerationCase,
  ingestRecords,
};
