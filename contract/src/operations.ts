/**
 * The 17 REST operations of spec sections 4.1 to 4.17, in the spec's order, one module per tag.
 */
import { actionOperations } from './operations/actions.ts';
import { agentQueueOperations } from './operations/agents-queues.ts';
import { analyticsOperations } from './operations/analytics.ts';
import { conversationOperations } from './operations/conversations.ts';
import { customFieldOperations } from './operations/custom-fields.ts';
import { ingestionOperations } from './operations/ingestion.ts';
import { moderationOperations } from './operations/moderation.ts';
import type { Located } from './operations/shared.ts';

export const operations: readonly Located[] = [
  ...actionOperations,
  ...customFieldOperations,
  ...agentQueueOperations,
  ...analyticsOperations,
  ...conversationOperations,
  ...moderationOperations,
  ...ingestionOperations,
];
