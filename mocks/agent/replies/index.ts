/**
 * Replies that a person approves (spec 3 and 4.18 rules 1-4): the three reply tools and the
 * confirmation page, over the engine's replies slice (`mocks/engine/replies/`: the lifecycle on the
 * engine clock, the admin (test tooling) operations), re-exported here for the agent's users.
 * See docs/agent-replies.md.
 *
 * @example
 * import { replyPages, replyTools } from './replies/index.ts';
 * const review = replyTools.find((t) => t.name === 'review_reply');
 * const answer = await review?.handle(ctx, { requestId }); // { ok: false, failure: { kind: 'approval_required', approvalUrl } }
 */
export {
  type Actor,
  type AdminReplyView,
  adminView,
  advanceReply,
  approvalUrlOf,
  approveReply,
  createRepliesState,
  DELIVERY_MS,
  type DeliveryOutcome,
  decide,
  findReply,
  forceOutcome,
  forceReplyOutcome,
  IllegalReplyMove,
  isAllowedMove,
  listReplies,
  MAX_TEXT_CODE_POINTS,
  moveTo,
  PHASE_OF,
  QUEUE_REVIEW_MS,
  REPLY_MOVES,
  REPLY_PAGE_PREFIX,
  REPLY_STATES,
  type RepliesState,
  ReplyAdminError,
  type ReplyMove,
  type ReplyRequest,
  type ReplyState,
  type ReplyView,
  rejectReply,
  settleReplies,
  stepReply,
  TERMINAL_STATES,
  viewOf,
} from '../../engine/replies/index.ts';
export { MAX_FORM_BYTES, replyPages } from './page.ts';
export { replyTools } from './tools.ts';
