/**
 * Replies delivered through the agent interface (spec 4.18, `mocks/engine/replies/`), as AGENT messages
 * of the action they answer. An overlay on the row: the row's message columns count the replies (so
 * `responded`, `totalMessages`, `totalAgentMessages`, `initialResponseTime` and every analytics total
 * see them), and the view appends the reply messages after the action's own.
 *
 * A seeded row's messages are derived from its columns, so before the first reply changes the columns
 * the messages derived so far are frozen here; the view reads those instead of deriving again.
 *
 * Kept by organization data (a WeakMap, like the answer cache): `admin.reset()` builds new organization
 * data, so nothing delivered survives it.
 */
import { FLAG_INGESTED, FLAG_THREADED } from '../../../fixtures/generate/table.ts';
import { rowChanged } from './answer-cache.ts';
import type { ConversationEntryJson } from './conversation-entry.ts';
import { addCounts, overlays } from './reply-overlay.ts';
import { type OrgData, tieByActionId } from './state.ts';
import { conversationOf } from './view.ts';

/** A reply to deliver: its text and who posts it, at the time the delivery step ended. */
export interface DeliveredReplyInput {
  readonly messageId: string;
  readonly author: string;
  readonly text: string;
  /** Epoch ms on the engine clock. */
  readonly deliveredAt: number;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Adds `reply` as an AGENT message of the action in `row`: counts, first response, `updatedAt`, the
 * responded flag of both window indexes, then `rowChanged` (answers remembered so far are forgotten).
 *
 * @example
 * deliverReply(org, findRow(org, actionId), { messageId: 'reply-1', author: 'Support', text: 'Hi', deliveredAt: now });
 */
export function deliverReply(org: OrgData, row: number, reply: DeliveredReplyInput): ConversationEntryJson {
  const table = org.table;
  let byRow = overlays.get(org);
  if (byRow === undefined) {
    byRow = new Map();
    overlays.set(org, byRow);
  }
  let overlay = byRow.get(row);
  if (overlay === undefined) {
    const seeded = !table.hasFlag(row, FLAG_INGESTED);
    overlay = { base: seeded ? conversationOf(org, row) : null, replies: [] };
    byRow.set(row, overlay);
  }
  const root = (overlay.base ?? conversationOf(org, row))[0];
  const createdAt = table.createdAt[row] ?? 0;
  // First responses are kept in whole seconds after createdAt (initialResponseTime): a first reply is
  // dated on that grid (at most 999 ms before its delivery ended), so the two agree exactly.
  const first = (table.responseSec[row] ?? -1) < 0;
  const responseSec = Math.max(0, Math.floor((reply.deliveredAt - createdAt) / 1000));
  const at = first ? createdAt + responseSec * 1000 : reply.deliveredAt;
  const entry: ConversationEntryJson = {
    id: reply.messageId,
    timestamp: iso(at),
    author: reply.author,
    authorId: null,
    authorType: 'AGENT',
    message: reply.text,
    parentMessageId: table.hasFlag(row, FLAG_THREADED) ? (root?.id ?? null) : null,
    mediaUrls: [],
  };
  overlay.replies.push(entry);

  const wasResponded = table.responded(row);
  const updatedBefore = table.updatedAt[row] ?? Number.NaN;
  addCounts(org, row, 1);
  if (first) table.responseSec[row] = responseSec;
  const updatedAfter = Number.isNaN(updatedBefore) ? at : Math.max(updatedBefore, at);
  table.updatedAt[row] = updatedAfter;

  // The indexes keep a prefix count of responded rows and byUpdated is keyed by updatedAt: re-insert.
  const tie = tieByActionId(org);
  if (!wasResponded) {
    org.byCreated.remove(row, createdAt);
    org.byCreated.insert(row, createdAt, true, tie);
  }
  if (!Number.isNaN(updatedBefore)) org.byUpdated.remove(row, updatedBefore);
  org.byUpdated.insert(row, updatedAfter, true, tie);
  rowChanged(org, row);
  return entry;
}
