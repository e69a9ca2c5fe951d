/** The agent interface's writes as an engine part (`../parts.ts`): reply and saved-search commands. */
import type { AgentWritesPart } from '../parts.ts';
import { settleReplies } from '../replies/machine.ts';
import { replyAppliers } from './replies.ts';
import { savedSearchAppliers } from './saved-searches.ts';

export const agentWritesPart: AgentWritesPart = {
  settleReplies,
  appliers: { ...replyAppliers, ...savedSearchAppliers },
};
