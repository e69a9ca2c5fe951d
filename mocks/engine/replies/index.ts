/**
 * The replies slice of the engine (spec 3: "approval, queue review and delivery are separate states of
 * a reply request"): the reply request and its lifecycle, its state per organization, the moves the
 * clock makes, the confirmation tokens and the admin (test tooling) operations; a data file's reply
 * requests are read and written by `../data-file/replies.ts`.
 * The agent interface's reply tools and confirmation page (`mocks/agent/replies/`) sit on top of it.
 *
 * @example
 * import { createRepliesState, settleReplies } from './replies/index.ts';
 * const replies = createRepliesState({ seed: 42, adminToken: null });
 * settleReplies(replies, state.data, clock.now()); // applies every clock move due now
 */
export {
  type AdminEngine,
  type AdminReplyView,
  adminView,
  approveReply,
  findReply,
  forceReplyOutcome,
  listReplies,
  ReplyAdminError,
  rejectReply,
  stepReply,
} from './admin-ops.ts';
export {
  issueMissingApprovalLinks,
  lacksLink,
  type ReviewCommand,
  type ReviewExecutor,
  reviewCommand,
} from './links.ts';
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
  draftReplyRequest,
  isAllowedMove,
  MAX_ID_LENGTH,
  MAX_REQUESTS_PER_ORGANIZATION,
  MAX_TEXT_CODE_POINTS,
  PHASE_OF,
  type PreparedInput,
  QUEUE_REVIEW_MS,
  REPLY_MOVES,
  REPLY_STATES,
  type ReplyMove,
  type ReplyRequest,
  type ReplyState,
  TERMINAL_STATES,
} from './model.ts';
export { createRepliesState, type RepliesState, requestsOf } from './state.ts';
export { approvalToken, csrfToken, csrfValid, Signer, TOKEN_PATTERN } from './tokens.ts';
export {
  approvalUrlOf,
  REPLY_PAGE_PREFIX,
  type ReplyView,
  type UnknownDeliveryFailure,
  unknownDeliveryFailure,
  viewOf,
} from './view.ts';
