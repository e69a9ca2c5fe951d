/**
 * Where delivered replies are kept (see `deliver-reply.ts`): per organization data and row, the reply
 * messages and, for a seeded row, its own messages frozen before the first reply changed the columns
 * they are derived from. The view reads it, and it imports nothing of the view: the entries' type is
 * conversation-entry.ts's.
 */

import type { ConversationEntryJson } from './conversation-entry.ts';
import type { OrgData } from './state.ts';

export interface RowReplies {
  /** A seeded row's messages as derived before the first reply; null for ingested rows (stored). */
  readonly base: readonly ConversationEntryJson[] | null;
  readonly replies: ConversationEntryJson[];
}

export const overlays = new WeakMap<OrgData, Map<number, RowReplies>>();

/** The row's reply overlay, or undefined when no reply was delivered to it. */
export function overlayOf(org: OrgData, row: number): RowReplies | undefined {
  return overlays.get(org)?.get(row);
}

export function addCounts(org: OrgData, row: number, replies: number): void {
  const table = org.table;
  table.msgTotal[row] = (table.msgTotal[row] ?? 0) + replies;
  table.msgAgent[row] = (table.msgAgent[row] ?? 0) + replies;
}

/**
 * Called after ingestion rebuilt an ingested row's columns from its stored record: the replies
 * delivered to it count again.
 */
export function recountReplies(org: OrgData, row: number): void {
  const overlay = overlayOf(org, row);
  const first = overlay?.replies[0];
  if (overlay === undefined || first === undefined) return;
  addCounts(org, row, overlay.replies.length);
  const table = org.table;
  const createdAt = table.createdAt[row] ?? 0;
  const replySec = Math.max(0, Math.floor((Date.parse(first.timestamp) - createdAt) / 1000));
  const ownSec = table.responseSec[row] ?? -1;
  if (ownSec < 0 || replySec < ownSec) table.responseSec[row] = replySec;
}

/** The messages a view shows for the row: its own (frozen for seeded rows) then the replies. */
export function withReplies(
  org: OrgData,
  row: number,
  own: () => ConversationEntryJson[],
): ConversationEntryJson[] {
  const overlay = overlayOf(org, row);
  if (overlay === undefined) return own();
  return [...(overlay.base ?? own()), ...overlay.replies];
}
