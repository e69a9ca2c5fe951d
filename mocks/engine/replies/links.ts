/**
 * Issuing confirmation links through the command log. A link is the token of a `reply.review` command:
 * signed before the command (Web Crypto is asynchronous, applying a command is not) and set by applying
 * it, so every replica reading the log and a process replaying its state file know the same link, and
 * the first `reply.review` of a request in the log is the only link it ever has.
 *
 * Two kinds of request get one: a draft at review_reply (it moves to awaiting_approval), and a request
 * loaded from a data file already awaiting approval (loading is synchronous, so it has none yet), at its
 * first review_reply or admin read.
 */
import type { ReplyRequest } from './model.ts';
import type { RepliesState } from './state.ts';
import { approvalToken } from './tokens.ts';

/** The `reply.review` command (`mocks/engine/commands/replies.ts`), as plain data. */
export interface ReviewCommand {
  readonly type: 'reply.review';
  readonly organizationId: string;
  readonly requestId: string;
  /** The serial the token was signed with (the engine's links issued so far, plus one). */
  readonly serial: number;
  readonly token: string;
}

/** Makes one `reply.review` through the engine's store; resolves the request as the log left it. */
export type ReviewExecutor = (command: ReviewCommand) => Promise<ReplyRequest | null>;

/** A request awaiting approval without a link: one loaded from a data file that nobody reviewed or read yet. */
export function lacksLink(request: ReplyRequest): boolean {
  return request.state === 'awaiting_approval' && request.approvalToken === null;
}

/**
 * The `reply.review` command of `request`, its token signed under the next serial. Two replicas may
 * sign different tokens for one request at once: applying keeps the first in the log and ignores the
 * other, on every replica alike.
 */
export async function reviewCommand(replies: RepliesState, request: ReplyRequest): Promise<ReviewCommand> {
  const serial = replies.tokensIssued + 1;
  return {
    type: 'reply.review',
    organizationId: request.organizationId,
    requestId: request.requestId,
    serial,
    token: await approvalToken(replies.signer, serial, request.organizationId, request.requestId),
  };
}

/**
 * Issues, one command each, the missing link of every request loaded from a data file that still awaits
 * approval (of `organizationId`, or of `requestId` there, when given): what the admin reads do before
 * showing page paths. Requests past approval leave the index without a link (none is needed any more).
 */
export async function issueMissingApprovalLinks(
  replies: RepliesState,
  execute: ReviewExecutor,
  only: { readonly organizationId?: string; readonly requestId?: string } = {},
): Promise<void> {
  for (const request of [...replies.linkless]) {
    if (!lacksLink(request)) {
      replies.linkless.delete(request);
      continue;
    }
    if (only.organizationId !== undefined && request.organizationId !== only.organizationId) continue;
    if (only.requestId !== undefined && request.requestId !== only.requestId) continue;
    await execute(await reviewCommand(replies, request));
  }
}
