/**
 * Reply requests of the agent interface in a data file: loading one in any state (its history is the
 * path of moves that leads there, so the lifecycle's rules hold for it like for a live one) and
 * exporting the current ones. A delivered request's message is carried by the request, not by the
 * action: the export leaves it out of the action's messages, and loading delivers it again.
 */

import { deliverReply } from '../records/deliver-reply.ts';
import { findRow, getActionRecord, orgData } from '../records/index.ts';
import { moveTo } from '../replies/machine.ts';
import {
  type Actor,
  DELIVERY_MS,
  draftReplyRequest,
  QUEUE_REVIEW_MS,
  type ReplyState,
  TERMINAL_STATES,
} from '../replies/model.ts';
import { requestsOf } from '../replies/state.ts';
import type { EngineState } from '../state.ts';
import { timestampOrThrow } from './time.ts';
import type { DataFile, DataFileReplyRequest } from './types.ts';

/** The moves from a fresh draft to each state, with who makes them. */
const PATH: Readonly<Record<ReplyState, readonly (readonly [ReplyState, Actor])[]>> = {
  draft: [],
  awaiting_approval: [['awaiting_approval', 'agent']],
  rejected: [
    ['awaiting_approval', 'agent'],
    ['rejected', 'person'],
  ],
  queued: [
    ['awaiting_approval', 'agent'],
    ['queued', 'person'],
  ],
  delivering: [
    ['awaiting_approval', 'agent'],
    ['queued', 'person'],
    ['delivering', 'clock'],
  ],
  delivered: [
    ['awaiting_approval', 'agent'],
    ['queued', 'person'],
    ['delivering', 'clock'],
    ['delivered', 'clock'],
  ],
  failed: [
    ['awaiting_approval', 'agent'],
    ['queued', 'person'],
    ['delivering', 'clock'],
    ['failed', 'clock'],
  ],
  unknown: [
    ['awaiting_approval', 'agent'],
    ['queued', 'person'],
    ['delivering', 'clock'],
    ['unknown', 'clock'],
  ],
};

export const DEFAULT_PREPARED_BY = 'data file';

const messageIdOf = (requestId: string): string => `reply-${requestId}`;

/** Loads the file's reply requests (after its actions); delivered ones in the order they were delivered. */
export function loadReplyRequests(state: EngineState, file: DataFile, anchor: number): void {
  const loaded = (file.replyRequests ?? []).map((entry) => {
    const createdAt = timestampOrThrow(entry.createdAt ?? entry.updatedAt ?? 'now', anchor);
    const updatedAt = entry.updatedAt === undefined ? createdAt : timestampOrThrow(entry.updatedAt, anchor);
    return { entry, createdAt, updatedAt };
  });
  loaded.sort((x, y) => x.updatedAt - y.updatedAt);
  for (const { entry, createdAt, updatedAt } of loaded) loadOne(state, entry, createdAt, updatedAt);
}

function loadOne(
  state: EngineState,
  entry: DataFileReplyRequest,
  createdAt: number,
  updatedAt: number,
): void {
  const action = getActionRecord(state.data, entry.organizationId, entry.actionId) ?? {};
  const input = {
    actionId: entry.actionId,
    text: entry.text,
    serverId: entry.serverId ?? null,
    isPublicReply: entry.isPublicReply ?? null,
  };
  // Its approval link is issued at the first review_reply (Web Crypto is asynchronous, loading is not).
  const request = draftReplyRequest(action, {
    organizationId: entry.organizationId,
    requestId: entry.requestId,
    input,
    preparedBy: entry.preparedBy ?? DEFAULT_PREPARED_BY,
    plannedOutcome: entry.plannedOutcome ?? 'delivered',
    at: createdAt,
  });
  const path = PATH[entry.state];
  path.forEach(([to, by], i) => {
    moveTo(request, to, i === path.length - 1 ? updatedAt : createdAt, by);
  });
  const replies = state.replies;
  if (request.state === 'awaiting_approval') replies.linkless.add(request);
  if (request.state === 'queued' || request.state === 'delivering') {
    request.nextAt = updatedAt + (request.state === 'queued' ? QUEUE_REVIEW_MS : DELIVERY_MS);
    replies.inFlight.add(request);
  }
  if (request.state === 'delivered') {
    const org = orgData(state.data, entry.organizationId);
    request.messageId = messageIdOf(entry.requestId);
    deliverReply(org, findRow(org, entry.actionId), {
      messageId: request.messageId,
      author: request.preparedBy,
      text: request.input.text,
      deliveredAt: updatedAt,
    });
  }
  requestsOf(replies, entry.organizationId).set(entry.requestId, request);
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Every reply request in the file format, by organization, then by the time of its last move (the order loading delivers them in). */
export function exportReplyRequests(state: EngineState): DataFileReplyRequest[] {
  const out: DataFileReplyRequest[] = [];
  for (const requests of state.replies.byOrganization.values()) {
    for (const request of requests.values()) {
      const first = request.history[0]?.at ?? 0;
      const last = request.history[request.history.length - 1]?.at ?? first;
      out.push({
        organizationId: request.organizationId,
        requestId: request.requestId,
        actionId: request.input.actionId,
        text: request.input.text,
        state: request.state,
        serverId: request.input.serverId,
        isPublicReply: request.input.isPublicReply,
        preparedBy: request.preparedBy,
        createdAt: iso(first),
        updatedAt: iso(last),
        ...(TERMINAL_STATES.has(request.state) ? {} : { plannedOutcome: request.plannedOutcome }),
      });
    }
  }
  // Stable: requests moved at the same time keep the order they were made in.
  return out.sort(
    (a, b) =>
      (a.organizationId < b.organizationId ? -1 : a.organizationId > b.organizationId ? 1 : 0) ||
      Date.parse(a.updatedAt ?? '') - Date.parse(b.updatedAt ?? ''),
  );
}

/** `JSON.stringify([organizationId, actionId, messageId])` of every delivered reply's message. */
export function deliveredReplyMessages(state: EngineState): Set<string> {
  const ids = new Set<string>();
  for (const requests of state.replies.byOrganization.values())
    for (const r of requests.values())
      if (r.messageId !== null) ids.add(JSON.stringify([r.organizationId, r.input.actionId, r.messageId]));
  return ids;
}
