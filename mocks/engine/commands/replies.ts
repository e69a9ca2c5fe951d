/**
 * The reply commands (spec 4.18): prepare, review (the link is signed before the command, since Web
 * Crypto is asynchronous and applying is not; the same command issues the missing link of a data file's
 * request awaiting approval, see `../replies/links.ts`), a person's decision on the confirmation page,
 * and the test tooling's approve/reject/advance/outcome. The agent's tools and page answer from the
 * outcomes.
 */

import { settleIngestion } from '../ingestion/index.ts';
import { getActionRecord } from '../records/index.ts';
import {
  type AdminReplyView,
  approveReply,
  decide,
  draftReplyRequest,
  forceReplyOutcome,
  lacksLink,
  MAX_REQUESTS_PER_ORGANIZATION,
  moveTo,
  type PreparedInput,
  type ReplyRequest,
  type ReviewCommand,
  rejectReply,
  requestsOf,
  settleReplies,
  stepReply,
} from '../replies/index.ts';
import type { EngineState } from '../state.ts';
import type { CommandTarget } from './target.ts';

export type ReplyCommand =
  | {
      readonly type: 'reply.prepare';
      readonly organizationId: string;
      readonly requestId: string;
      readonly input: PreparedInput;
      readonly keyName: string;
    }
  | ReviewCommand
  | {
      readonly type: 'reply.decide';
      readonly organizationId: string;
      readonly requestId: string;
      readonly decision: 'approve' | 'reject';
    }
  | {
      readonly type: 'reply.admin';
      readonly operation: 'approve' | 'reject' | 'advance' | 'outcome';
      readonly organizationId: string;
      readonly requestId: string;
      readonly outcome?: unknown;
    };

export type PrepareOutcome =
  | { readonly kind: 'created' | 'exists'; readonly request: ReplyRequest }
  | { readonly kind: 'no_action' | 'private' | 'full' };

export interface ReplyOutcomes {
  'reply.prepare': PrepareOutcome;
  /** The request after the review (null when it does not exist); its link is the first one issued. */
  'reply.review': ReplyRequest | null;
  /** Whether the person's decision was taken (false: the request was not awaiting approval). */
  'reply.decide': { readonly decided: boolean; readonly request: ReplyRequest | null };
  'reply.admin': AdminReplyView;
}

/** Every clock move due now (ingestion first, so a new action is found). */
function settled(state: EngineState, now: number): void {
  settleIngestion(state.ingestion, state.data);
  settleReplies(state.replies, state.data, now);
}

const requestOf = (state: EngineState, organizationId: string, requestId: string) =>
  state.replies.byOrganization.get(organizationId)?.get(requestId) ?? null;

export const replyAppliers = {
  'reply.prepare': ({ state, clock }: CommandTarget, c: Extract<ReplyCommand, { type: 'reply.prepare' }>) => {
    const now = clock.now();
    settled(state, now);
    const requests = requestsOf(state.replies, c.organizationId);
    const before = requests.get(c.requestId);
    if (before !== undefined) return { kind: 'exists', request: before } as const;
    const action = getActionRecord(state.data, c.organizationId, c.input.actionId);
    if (action === undefined) return { kind: 'no_action' } as const;
    if (c.input.isPublicReply === true && action['isPublicPost'] !== true)
      return { kind: 'private' } as const;
    if (requests.size >= MAX_REQUESTS_PER_ORGANIZATION) return { kind: 'full' } as const;
    const request = draftReplyRequest(action, {
      organizationId: c.organizationId,
      requestId: c.requestId,
      input: c.input,
      preparedBy: c.keyName,
      plannedOutcome: 'delivered',
      at: now,
    });
    requests.set(c.requestId, request);
    return { kind: 'created', request } as const;
  },
  'reply.review': ({ state, clock }: CommandTarget, c: ReviewCommand) => {
    const now = clock.now();
    settled(state, now);
    const request = requestOf(state, c.organizationId, c.requestId);
    if (request === null) return null;
    // A draft gets its link and moves on; a data file's request awaiting approval gets its link. Any
    // other request keeps what it has: a link is issued once, by the first of these in the log.
    const draft = request.state === 'draft';
    if (!draft && !lacksLink(request)) return request;
    const replies = state.replies;
    replies.tokensIssued = Math.max(replies.tokensIssued, c.serial);
    request.approvalToken = c.token;
    replies.byToken.set(c.token, request);
    replies.linkless.delete(request);
    if (draft) moveTo(request, 'awaiting_approval', now, 'agent');
    return request;
  },
  'reply.decide': ({ state, clock }: CommandTarget, c: Extract<ReplyCommand, { type: 'reply.decide' }>) => {
    const now = clock.now();
    settleReplies(state.replies, state.data, now);
    const request = requestOf(state, c.organizationId, c.requestId);
    if (request === null || request.state !== 'awaiting_approval') return { decided: false, request };
    decide(state.replies, request, c.decision, now, 'person');
    return { decided: true, request };
  },
  'reply.admin': (target: CommandTarget, c: Extract<ReplyCommand, { type: 'reply.admin' }>) => {
    switch (c.operation) {
      case 'approve':
        return approveReply(target, c.organizationId, c.requestId);
      case 'reject':
        return rejectReply(target, c.organizationId, c.requestId);
      case 'advance':
        return stepReply(target, c.organizationId, c.requestId);
      case 'outcome':
        return forceReplyOutcome(target, c.organizationId, c.requestId, c.outcome);
    }
  },
} as const;
