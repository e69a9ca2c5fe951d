/**
 * The moves of a reply request. Nothing runs in the background: a queued or delivering request records
 * when the clock moves it on (`nextAt`), and `settleReplies` applies every move that is due; tool
 * calls, the confirmation page, the admin routes and every REST request settle first (like the
 * moderation scheduler), so advancing the engine clock is all it takes.
 *
 * Delivery adds the reply as an AGENT message of the action (`mocks/engine/records/deliver-reply.ts`), at the
 * engine time the delivery step ended. A `failed` or `unknown` outcome adds nothing, and nothing ever
 * moves a request out of them: an uncertain delivery is never retried (spec 4.18 rule 2).
 */

import { deliverReply } from '../records/deliver-reply.ts';
import { type DataState, findRow, orgData } from '../records/index.ts';
import {
  type Actor,
  DELIVERY_MS,
  type DeliveryOutcome,
  isAllowedMove,
  QUEUE_REVIEW_MS,
  type ReplyRequest,
  type ReplyState,
  TERMINAL_STATES,
} from './model.ts';
import type { RepliesState } from './state.ts';

/** A move the lifecycle does not have: a bug in the caller, never a client's mistake. */
export class IllegalReplyMove extends Error {
  override readonly name = 'IllegalReplyMove';
}

/** Moves `request` to `to`, recording who and when; refuses any move not in `REPLY_MOVES`. */
export function moveTo(request: ReplyRequest, to: ReplyState, at: number, by: Actor): void {
  if (!isAllowedMove(request.state, to, by)) {
    throw new IllegalReplyMove(`reply ${request.requestId}: ${request.state} → ${to} by ${by} is not a move`);
  }
  request.history.push({ from: request.state, to, at, by });
  request.state = to;
}

/** The person's (or the admin's) decision on a request awaiting approval. */
export function decide(
  replies: RepliesState,
  request: ReplyRequest,
  decision: 'approve' | 'reject',
  now: number,
  by: 'person' | 'admin',
): void {
  if (decision === 'reject') {
    moveTo(request, 'rejected', now, by);
    return;
  }
  moveTo(request, 'queued', now, by);
  request.nextAt = now + QUEUE_REVIEW_MS;
  replies.inFlight.add(request);
}

/** One clock step of a queued or delivering request, at `at` (its due time, or now for admin advance). */
function stepOnce(
  replies: RepliesState,
  data: DataState,
  request: ReplyRequest,
  at: number,
  by: Actor,
): void {
  if (request.state === 'queued') {
    moveTo(request, 'delivering', at, by);
    request.nextAt = at + DELIVERY_MS;
    return;
  }
  if (request.state !== 'delivering') return;
  const outcome = deliveryOutcome(data, request);
  if (outcome === 'delivered') {
    const org = orgData(data, request.organizationId);
    const messageId = `reply-${request.requestId}`;
    deliverReply(org, findRow(org, request.input.actionId), {
      messageId,
      author: request.preparedBy,
      text: request.input.text,
      deliveredAt: at,
    });
    request.messageId = messageId;
  }
  moveTo(request, outcome, at, by);
  request.nextAt = null;
  replies.inFlight.delete(request);
}

/** The planned outcome, or `failed` when the action is not there any more. */
function deliveryOutcome(data: DataState, request: ReplyRequest): DeliveryOutcome {
  if (request.plannedOutcome !== 'delivered') return request.plannedOutcome;
  const org = orgData(data, request.organizationId);
  return findRow(org, request.input.actionId) < 0 ? 'failed' : 'delivered';
}

/**
 * Applies every clock move due at `now`, each at its own due time and earliest first across requests
 * (two replies to one action are appended in the order they were delivered). Cheap when nothing is due:
 * one pass over the requests in flight.
 */
export function settleReplies(replies: RepliesState, data: DataState, now: number): void {
  const due: ReplyRequest[] = [];
  for (const request of replies.inFlight)
    if (request.nextAt !== null && request.nextAt <= now) due.push(request);
  if (due.length === 0) return;
  // Earliest last, so the next one is a pop; a request whose next step is due too goes back in order.
  const later = (a: ReplyRequest, b: ReplyRequest): number => (b.nextAt ?? 0) - (a.nextAt ?? 0);
  due.reverse().sort(later); // stable: among equal times, the first approved is delivered first
  for (let request = due.pop(); request !== undefined; request = due.pop()) {
    stepOnce(replies, data, request, request.nextAt ?? now, 'clock');
    const next = request.nextAt;
    if (next === null || next > now) continue;
    let at = due.length;
    while (at > 0 && later(due[at - 1] as ReplyRequest, request) > 0) at--;
    due.splice(at, 0, request);
  }
}

/** Admin advance: the next clock step of a queued or delivering request, now. False when it has none. */
export function advanceReply(
  replies: RepliesState,
  data: DataState,
  request: ReplyRequest,
  now: number,
): boolean {
  if (request.state !== 'queued' && request.state !== 'delivering') return false;
  stepOnce(replies, data, request, now, 'admin');
  return true;
}

/**
 * Admin: the outcome the delivery step ends with. Refused (false) once the request is settled. A
 * request already delivering ends at once with it; an earlier one keeps it for later.
 */
export function forceOutcome(
  replies: RepliesState,
  data: DataState,
  request: ReplyRequest,
  outcome: DeliveryOutcome,
  now: number,
): boolean {
  if (TERMINAL_STATES.has(request.state)) return false;
  request.plannedOutcome = outcome;
  if (request.state === 'delivering') stepOnce(replies, data, request, now, 'admin');
  return true;
}
