import { settleIngestion } from '../../engine/ingestion/index.ts';
import {
  approvalUrlOf,
  lacksLink,
  MAX_REQUESTS_PER_ORGANIZATION,
  type RepliesState,
  type ReplyRequest,
  type ReplyView,
  reviewCommand,
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

async function prepare(ctx: AgentContext, args: Record<string, unknown>): Promise<Outcome<ReplyView>> {
  const parsed = preparedInputOf(args);
  if (!parsed.ok) return parsed;
  const { requestId, input } = parsed.value;
  // The draft is the engine's `reply.prepare` command: log order decides which of two prepares is first.
  const prepared = await ctx.engine.execute({
    type: 'reply.prepare',
    organizationId: ctx.identity.organizationId,
    requestId,
    input,
    keyName: ctx.identity.keyName,
  });
  switch (prepared.kind) {
    case 'created':
      return succeed(viewOf(prepared.request, ctx.publicOrigin));
    case 'exists': {
      const before = prepared.request;
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
    case 'no_action':
      return fail({
        kind: 'not_found',
        code: 'NOT_FOUND',
        field: '/actionId',
        message: `No action ${JSON.stringify(input.actionId)} in this organization (ids are compared byte for byte, as REST shows them)`,
      });
    case 'private':
      return fail({
        kind: 'invalid_input',
        code: 'INVALID_INPUT',
        field: '/isPublicReply',
        message: `Action ${input.actionId} is private (isPublicPost false): a public reply is not possible; omit isPublicReply or set it to false`,
      });
    case 'full':
      return fail({
        kind: 'invalid_input',
        code: 'INVALID_INPUT',
        field: '/requestId',
        message: `This organization has ${MAX_REQUESTS_PER_ORGANIZATION} reply requests, the mock's limit; reset the mock`,
      });
  }
}

async function review(ctx: AgentContext, args: Record<string, unknown>): Promise<Outcome<never>> {
  const requestId = requestIdOnly(args, 'review_reply');
  if (!requestId.ok) return requestId;
  const replies = settled(ctx);
  const found = existing(ctx, replies, requestId.value);
  if (!found.ok) return found;
  let request = found.value;
  if (request.state === 'unknown') return fail(unknownDeliveryFailure(request.requestId));
  // A draft, or a data file's request awaiting approval without a link yet: the link is the token of a
  // `reply.review` command, signed before it (a failure of Web Crypto leaves the request as it was).
  // The first one in the log is the link on every replica; a second review keeps it.
  if (request.state === 'draft' || lacksLink(request)) {
    request = (await ctx.engine.execute(await reviewCommand(replies, request))) ?? request;
  }
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
