/**
 * Admin routes of the agent replies (test tooling, not part of the service; see docs/agent-replies.md).
 * They stand in for the person and for the service's delivery, so a client can exercise every
 * outcome, including "an uncertain delivery is not retried automatically":
 *
 * | route | operation |
 * |---|---|
 * | `GET /__mock/replies[?organizationId=]` | every reply request, with its state, page path and planned outcome |
 * | `GET /__mock/replies/{organizationId}/{requestId}` | one request |
 * | `POST /__mock/replies/{organizationId}/{requestId}/approve` | awaiting_approval → queued (as the person) |
 * | `POST /__mock/replies/{organizationId}/{requestId}/reject` | awaiting_approval → rejected (as the person) |
 * | `POST /__mock/replies/{organizationId}/{requestId}/advance` | the next clock step now (queued → delivering → outcome) |
 * | `POST /__mock/replies/{organizationId}/{requestId}/outcome` `{outcome}` | force `failed`, `unknown` (or `delivered`) |
 */

import { errors, isAdminError } from '../errors.ts';
import {
  type AdminEngine,
  adminView,
  findReply,
  issueMissingApprovalLinks,
  listReplies,
  ReplyAdminError,
} from '../replies/index.ts';
import { isOutcomeUnknown, isStoreUnavailable } from '../store/types.ts';
import { type AdminContext, type AdminResult, type AdminRoute, ok } from './route.ts';

type ReplyOperation = (engine: AdminEngine, org: string, requestId: string) => unknown;

/** Runs a typed operation on the route's request; a refusal becomes a 400/404/409 admin error. */
function onRequest(ctx: AdminContext, operation: ReplyOperation): AdminResult {
  try {
    return ok({ reply: operation(ctx, ctx.params['organizationId'] ?? '', ctx.params['requestId'] ?? '') });
  } catch (cause) {
    if (cause instanceof ReplyAdminError) return errors.adminBadRequest(cause.message, cause.status);
    throw cause;
  }
}

/** Makes one `reply.admin` command on the route's request; a refusal becomes a 400/404/409 admin error. */
async function commandOn(
  ctx: AdminContext,
  operation: 'approve' | 'reject' | 'advance' | 'outcome',
  outcome?: unknown,
): Promise<AdminResult> {
  try {
    const reply = await ctx.execute({
      type: 'reply.admin',
      operation,
      organizationId: ctx.params['organizationId'] ?? '',
      requestId: ctx.params['requestId'] ?? '',
      ...(operation === 'outcome' ? { outcome } : {}),
    });
    return ok({ reply });
  } catch (cause) {
    if (cause instanceof ReplyAdminError) return errors.adminBadRequest(cause.message, cause.status);
    throw cause;
  }
}

/**
 * Issues the missing links of the data file's requests the read shows, through the log (`reply.review`
 * commands), so the page path it answers is the one every replica knows. A read still answers when that
 * write cannot be made (the shared store is unreachable, or the engine lacks the agent's writes, as a
 * page's MSW engine does): those requests show no page path yet, and the next read tries again.
 */
async function issueLinksFor(
  ctx: AdminContext,
  only: { readonly organizationId?: string; readonly requestId?: string },
): Promise<void> {
  try {
    await issueMissingApprovalLinks(ctx.state.replies, (command) => ctx.execute(command), only);
  } catch (cause) {
    if (!isStoreUnavailable(cause) && !isOutcomeUnknown(cause) && !isAdminError(cause)) throw cause;
  }
}

const ONE = '/__mock/replies/{organizationId}/{requestId}';

export const repliesAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/replies',
    summary:
      'Agent reply requests (optionally ?organizationId=) with state, history, page path and planned outcome',
    handle: async (ctx) => {
      const organizationId = ctx.query.get('organizationId') ?? undefined;
      await issueLinksFor(ctx, organizationId === undefined ? {} : { organizationId });
      return ok({ replies: listReplies(ctx, organizationId) });
    },
  },
  {
    method: 'GET',
    path: ONE,
    summary: 'One agent reply request',
    handle: async (ctx) => {
      await issueLinksFor(ctx, {
        organizationId: ctx.params['organizationId'] ?? '',
        requestId: ctx.params['requestId'] ?? '',
      });
      return onRequest(ctx, (engine, org, id) => adminView(findReply(engine, org, id)));
    },
  },
  {
    method: 'POST',
    path: `${ONE}/approve`,
    summary: 'Approve a reply request awaiting approval, as the person would (test tooling)',
    handle: (ctx) => commandOn(ctx, 'approve'),
  },
  {
    method: 'POST',
    path: `${ONE}/reject`,
    summary: 'Reject a reply request awaiting approval, as the person would (test tooling)',
    handle: (ctx) => commandOn(ctx, 'reject'),
  },
  {
    method: 'POST',
    path: `${ONE}/advance`,
    summary:
      "Take a reply request's next clock step now: queued → delivering → delivered (or the forced outcome)",
    handle: (ctx) => commandOn(ctx, 'advance'),
  },
  {
    method: 'POST',
    path: `${ONE}/outcome`,
    summary: 'Force the delivery outcome of a reply request: {"outcome": "failed" | "unknown" | "delivered"}',
    handle: (ctx) => {
      const body = ctx.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        return errors.adminBadRequest(
          'the request body must be a JSON object like {"outcome": "unknown"}',
          400,
        );
      return commandOn(ctx, 'outcome', (body as { readonly outcome?: unknown }).outcome);
    },
  },
];
