/**
 * The three reply tools of spec 4.18: prepare_reply (one exact draft), review_reply (asks a person;
 * answers approval_required, never success) and open_reply (reads the request). No tool approves:
 * only a person on the confirmation page (or the test tooling under `/__mock/`) does.
 */
import { getActionRecord } from '../../engine/data/index.ts';
import { settleIngestion } from '../../engine/ingestion/index.ts';
import {
  approvalToken,
  approvalUrlOf,
  draftReplyRequest,
  issueApprovalLink,
  MAX_REQUESTS_PER_ORGANIZATION,
  moveTo,
  type RepliesState,
  type ReplyRequest,
  type ReplyView,
  requestsOf,
  settleReplies,
  unknownDeliveryFailure,
  viewOf,
} from '../../engine/replies/index.ts';
import {
  type AgentContext,
  type AgentFailure,
  type AgentTool,
  fail,
  type Outcome,
  succeed,
} from '../types.ts';
import { preparedInputOf, requestIdOnly, sameInput } from './input.ts';

/** The replies slice with every clock move due now applied (and due ingestion, so new actions are found). */
function settled(ctx: AgentContext): RepliesState {
  const state = ctx.engine.state;
  settleIngestion(state.ingestion, state.data);
  settleReplies(state.replies, state.data, ctx.engine.clock.now());
  return state.replies;
}

function existing(ctx: AgentContext, replies: RepliesState, requestId: string): Outcome<ReplyRequest> {
  const request = replies.byOrganization.get(ctx.identity.organizationId)?.get(requestId);
  if (request !== undefined) return succeed(request);
  return fail({
    kind: 'not_found',
    code: 'NOT_FOUND',
    field: '/requestId',
    message: `No reply request ${JSON.stringify(requestId)} in this organization; prepare it first with prepare_reply`,
  });
}

const conflict = (message: string): AgentFailure => ({
  kind: 'conflict',
  code: 'CONFLICT',
  field: '/requestId',
  message,
});

function prepare(ctx: AgentContext, args: Record<string, unknown>): Outcome<ReplyView> {
  const parsed = preparedInputOf(args);
  if (!parsed.ok) return parsed;
  const { requestId, input } = parsed.value;
  const replies = settled(ctx);
  const organizationId = ctx.identity.organizationId;
  const requests = requestsOf(replies, organizationId);
  const before = requests.get(requestId);
  if (before !== undefined) {
    if (!sameInput(before.input, input)) {
      return fail(
        conflict(
          `requestId ${requestId} was used already for a different reply (another action, text, serverId or isPublicReply); use a fresh UUID for a new reply, or read the existing one with open_reply`,
        ),
      );
    }
    if (before.state === 'unknown') return fail(unknownDeliveryFailure(requestId));
    return succeed(viewOf(before, ctx.publicOrigin));
  }
  const action = getActionRecord(ctx.engine.state.data, organizationId, input.actionId);
  if (action === undefined) {
    return fail({
      kind: 'not_found',
      code: 'NOT_FOUND',
      field: '/actionId',
      message: `No action ${JSON.stringify(input.actionId)} in this organization (ids are compared byte for byte, as REST shows them)`,
    });
  }
  const isPublicPost = action['isPublicPost'] === true;
  if (input.isPublicReply === true && !isPublicPost) {
    return fail({
      kind: 'invalid_input',
      code: 'INVALID_INPUT',
      field: '/isPublicReply',
      message: `Action ${input.actionId} is private (isPublicPost false): a public reply is not possible; omit isPublicReply or set it to false`,
    });
  }
  if (requests.size >= MAX_REQUESTS_PER_ORGANIZATION) {
    return fail({
      kind: 'invalid_input',
      code: 'INVALID_INPUT',
      field: '/requestId',
      message: `This organization has ${MAX_REQUESTS_PER_ORGANIZATION} reply requests, the mock's limit; reset the mock`,
    });
  }
  const request = draftReplyRequest(action, {
    organizationId,
    requestId,
    input,
    preparedBy: ctx.identity.keyName,
    plannedOutcome: 'delivered',
    at: ctx.engine.clock.now(),
  });
  requests.set(requestId, request);
  return succeed(viewOf(request, ctx.publicOrigin));
}

async function review(ctx: AgentContext, args: Record<string, unknown>): Promise<Outcome<never>> {
  const requestId = requestIdOnly(args, 'review_reply');
  if (!requestId.ok) return requestId;
  const replies = settled(ctx);
  const found = existing(ctx, replies, requestId.value);
  if (!found.ok) return found;
  const request = found.value;
  if (request.state === 'unknown') return fail(unknownDeliveryFailure(request.requestId));
  if (request.state === 'draft') {
    // The token is issued before the move, so a failure of Web Crypto leaves the draft as it was.
    const serial = ++replies.tokensIssued;
    const token = await approvalToken(replies.signer, serial, request.organizationId, request.requestId);
    if (request.state === 'draft') {
      request.approvalToken = token;
      replies.byToken.set(token, request);
      moveTo(request, 'awaiting_approval', ctx.engine.clock.now(), 'agent');
    }
  }
  // Loaded from a data file awaiting approval: its link is issued now.
  await issueApprovalLink(replies, request);
  if (request.state !== 'awaiting_approval' || request.approvalToken === null) {
    return fail(
      conflict(
        `Reply request ${request.requestId} is ${request.state}: it is past approval, nothing to review; read it with open_reply`,
      ),
    );
  }
  const approvalUrl = approvalUrlOf(ctx.publicOrigin, request.approvalToken);
  return fail({
    kind: 'approval_required',
    code: 'APPROVAL_REQUIRED',
    requestId: request.requestId,
    approvalUrl,
    message:
      approvalUrl === null
        ? `Reply request ${request.requestId} awaits a person's approval (no confirmation link in process). This is not a success: nothing is sent until a person approves.`
        : `Reply request ${request.requestId} awaits a person's approval at ${approvalUrl}. This is not a success: nothing is sent until a person approves there; check with open_reply.`,
  });
}

function open(ctx: AgentContext, args: Record<string, unknown>): Outcome<ReplyView> {
  const requestId = requestIdOnly(args, 'open_reply');
  if (!requestId.ok) return requestId;
  const replies = settled(ctx);
  const found = existing(ctx, replies, requestId.value);
  if (!found.ok) return found;
  return succeed(viewOf(found.value, ctx.publicOrigin));
}

/**
 * @example
 * const prepare = replyTools.find((t) => t.name === 'prepare_reply');
 * await prepare?.handle(ctx, { actionId, text: 'Thanks, fixed now.', requestId: crypto.randomUUID() });
 */
export const replyTools: readonly AgentTool[] = [
  { name: 'prepare_reply', handle: prepare },
  { name: 'review_reply', handle: review },
  { name: 'open_reply', handle: open },
];
