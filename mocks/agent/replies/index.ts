/**
 * Replies that a person approves (spec 3 and 4.18 rules 1-4): the three reply tools, the
 * confirmation page, the lifecycle on the engine clock and the admin (test tooling) operations.
 * See docs/agent-replies.md.
 *
 * @example
 * import { replyPages, replyTools } from './replies/index.ts';
 * const review = replyTools.find((t) => t.name === 'review_reply');
 * const answer = await review?.handle(ctx, { requestId }); // { ok: false, failure: { kind: 'approval_required', approvalUrl } }
 */
export {
  type AdminReplyView,
  adminView,
  approveReply,
  findReply,
  forceReplyOutcome,
  listReplies,
  ReplyAdminError,
  rejectReply,
  stepReply,
} from './admin.ts';
export {
  advanceReply,
  decide,
  forceOutcome,
  IllegalReplyMove,
  moveTo,
  settleReplies,
} from './machine.ts';
export {
  type Actor,
  DELIVERY_MS,
  type DeliveryOutcome,
  isAllowedMove,
  MAX_TEXT_CODE_POINTS,
  PHASE_OF,
  QUEUE_REVIEW_MS,
  REPLY_MOVES,
  REPLY_STATES,
  type ReplyMove,
  type ReplyRequest,
  type ReplyState,
  TERMINAL_STATES,
} from './model.ts';
export { MAX_FORM_BYTES, replyPages } from './page.ts';
export { createRepliesState, type RepliesState } from './state.ts';
export { replyTools } from './tools.ts';
export { approvalUrlOf, REPLY_PAGE_PREFIX, type ReplyView, viewOf } from './view.ts';
