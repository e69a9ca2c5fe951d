/**
 * The replies' test tooling, typed (the `/__mock/replies` routes of `mocks/engine/admin/replies.ts`
 * are a thin JSON layer over it). It stands in for the person and for the service's delivery: approve
 * or reject a request awaiting approval, take the next clock step now, force the delivery outcome.
 * It is not part of the service; no MCP tool reaches it.
 */
import type { MockClock } from '../clock.ts';
import type { DataState } from '../records/index.ts';
import { advanceReply, decide, forceOutcome, settleReplies } from './machine.ts';
import type { DeliveryOutcome, ReplyRequest } from './model.ts';
import type { RepliesState } from './state.ts';
import { REPLY_PAGE_PREFIX, type ReplyView, viewOf } from './view.ts';

/** What the admin API shows: the request, plus its organization, the page path and the planned outcome. */
export interface AdminReplyView extends ReplyView {
  readonly organizationId: string;
  /** The confirmation page's path on the mock's origin once review_reply issued it (any state). */
  readonly approvalPath: string | null;
  readonly plannedOutcome: DeliveryOutcome;
  /** Epoch ms of the next clock move, or null. */
  readonly nextAt: number | null;
}

/** What the operations reach of an engine (an `Engine` or an admin route's context is one). */
export interface AdminEngine {
  readonly state: { readonly replies: RepliesState; readonly data: DataState };
  readonly clock: MockClock;
}

/** A refusal of the admin API: `status` is the HTTP status the route answers. */
export class ReplyAdminError extends Error {
  override readonly name = 'ReplyAdminError';
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export function adminView(request: ReplyRequest): AdminReplyView {
  return {
    ...viewOf(request, null),
    organizationId: request.organizationId,
    approvalPath: request.approvalToken === null ? null : `${REPLY_PAGE_PREFIX}${request.approvalToken}`,
    plannedOutcome: request.plannedOutcome,
    nextAt: request.nextAt,
  };
}

function settle(engine: AdminEngine): void {
  settleReplies(engine.state.replies, engine.state.data, engine.clock.now());
}

/** Every request (of one organization when given), oldest first, settled first. */
export function listReplies(engine: AdminEngine, organizationId?: string): AdminReplyView[] {
  settle(engine);
  const out: AdminReplyView[] = [];
  for (const [org, requests] of engine.state.replies.byOrganization) {
    if (organizationId !== undefined && org !== organizationId) continue;
    for (const request of requests.values()) out.push(adminView(request));
  }
  return out;
}

export function findReply(engine: AdminEngine, organizationId: string, requestId: string): ReplyRequest {
  settle(engine);
  const request = engine.state.replies.byOrganization.get(organizationId)?.get(requestId);
  if (request === undefined) {
    throw new ReplyAdminError(
      404,
      `No reply request ${JSON.stringify(requestId)} in organization ${JSON.stringify(organizationId)}`,
    );
  }
  return request;
}

function decideAsAdmin(
  engine: AdminEngine,
  organizationId: string,
  requestId: string,
  decision: 'approve' | 'reject',
): AdminReplyView {
  const request = findReply(engine, organizationId, requestId);
  if (request.state !== 'awaiting_approval') {
    throw new ReplyAdminError(
      409,
      `Reply request ${requestId} is ${request.state}, not awaiting_approval: only a request an agent sent to review (review_reply) can be decided`,
    );
  }
  decide(engine.state.replies, request, decision, engine.clock.now(), 'admin');
  return adminView(request);
}

/** Approves as the person would: awaiting_approval → queued. */
export const approveReply = (
  engine: AdminEngine,
  organizationId: string,
  requestId: string,
): AdminReplyView => decideAsAdmin(engine, organizationId, requestId, 'approve');

/** Rejects as the person would: awaiting_approval → rejected. */
export const rejectReply = (engine: AdminEngine, organizationId: string, requestId: string): AdminReplyView =>
  decideAsAdmin(engine, organizationId, requestId, 'reject');

/** The next clock step now: queued → delivering, or delivering → its outcome. */
export function stepReply(engine: AdminEngine, organizationId: string, requestId: string): AdminReplyView {
  const request = findReply(engine, organizationId, requestId);
  if (!advanceReply(engine.state.replies, engine.state.data, request, engine.clock.now())) {
    throw new ReplyAdminError(
      409,
      `Reply request ${requestId} is ${request.state}: only queued and delivering requests have a clock step`,
    );
  }
  return adminView(request);
}

const OUTCOMES: readonly DeliveryOutcome[] = ['delivered', 'failed', 'unknown'];

/** The outcome the delivery step ends with (at once when delivering). */
export function forceReplyOutcome(
  engine: AdminEngine,
  organizationId: string,
  requestId: string,
  outcome: unknown,
): AdminReplyView {
  if (typeof outcome !== 'string' || !(OUTCOMES as readonly string[]).includes(outcome)) {
    throw new ReplyAdminError(
      400,
      `outcome must be one of ${OUTCOMES.join(', ')} (got ${JSON.stringify(outcome) ?? 'nothing'})`,
    );
  }
  const request = findReply(engine, organizationId, requestId);
  const forced = forceOutcome(
    engine.state.replies,
    engine.state.data,
    request,
    outcome as DeliveryOutcome,
    engine.clock.now(),
  );
  if (!forced) {
    throw new ReplyAdminError(409, `Reply request ${requestId} is ${request.state}: its delivery is settled`);
  }
  return adminView(request);
}
