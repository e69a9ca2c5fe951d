/**
 * What a client reads to learn whether a write of unknown outcome was applied (the answer lost when
 * the shared store went away): one sentence per command, naming the route that shows its effect, or
 * saying that resending is itself the read where the spec makes it one (moderation's duplicate
 * acknowledgement).
 */
import type { Command } from './types.ts';

const seg = (value: string): string => encodeURIComponent(value);

/**
 * @example
 * readBeforeRetry({ type: 'keys.revoke', keyId: 'key_0123456789abcdef' })
 * // 'GET /__mock/keys: the key with id key_0123456789abcdef shows status "revoked" if it was applied'
 */
export function readBeforeRetry(command: Command): string {
  switch (command.type) {
    case 'customFields.update':
      return `GET /v0/actions/${seg(command.actionId)}/custom-fields: the written values show there if it was applied`;
    case 'moderation.submit':
    case 'moderation.submitBatch':
      return 'POST the same submission again once the store answers: the same content is acknowledged as a duplicate with its caseId if it was applied, and never makes a second case (spec section 3)';
    case 'moderation.step':
      return `GET /v0/moderation/cases/${seg(command.caseId)}: its analysisStatus shows whether it moved`;
    case 'moderation.policy.activate':
    case 'moderation.policy.deactivate':
      return `GET /__mock/organizations/${seg(command.organizationId)}/policy: the policy workflow shows whether it changed`;
    case 'ingestion.batch':
      return `GET /__mock/ingestion/batches?organizationId=${seg(command.organizationId)}: the batch is listed if it was taken`;
    case 'keys.create':
      return `GET /__mock/keys?organizationId=${seg(command.input.organizationId)}: a new key is listed if it was created`;
    case 'keys.revoke':
      return `GET /__mock/keys: the key with id ${command.keyId} shows status "revoked" if it was applied`;
    case 'organization.moderationMode':
      return 'GET /__mock/organizations: the moderation mode shows whether it changed';
    case 'clock.advance':
    case 'clock.set':
      return 'GET /__mock/clock: the clock shows whether it moved';
    case 'data.merge':
    case 'data.replace':
      return 'GET /__mock/data: the loaded records show there if it was applied';
    case 'reset':
      return 'GET /__mock/data: the state shows whether it went back to the seed and data files';
    case 'reply.prepare':
    case 'reply.review':
    case 'reply.decide':
    case 'reply.admin':
      return `GET /__mock/replies/${seg(command.organizationId)}/${seg(command.requestId)}: the reply request shows its state (open_reply on the agent interface)`;
    case 'savedSearch.create':
    case 'savedSearch.update':
    case 'savedSearch.delete':
      return 'the agent operation config.savedSearch.list: the saved searches show whether it was applied';
  }
}
