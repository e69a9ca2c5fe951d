/**
 * The seam for the ingestion slice: ingested records become actions of the organization's store,
 * visible to the list, detail, search and analytics like seeded ones. Inserting keeps both window
 * indexes sorted.
 */

import {
  type ActionTable,
  CLOSING_TAG_SLOTS,
  FLAG_INGESTED,
  FLAG_PUBLIC,
  FLAG_THREADED,
  NULL_INDEX,
  TAG_SLOTS,
} from '../../../fixtures/generate/table.ts';
import { MODERATION_VALUES, PLATFORMS, SENTIMENTS, STATUSES } from '../../../fixtures/generate/types.ts';
import { rowChanged } from './answer-cache.ts';
import type { IngestedAction, IngestedActionInput, IngestedMessage, IngestOutcome } from './ingest-types.ts';
import { recountReplies } from './reply-overlay.ts';
import { type DataState, findRow, type OrgData, orgData, tieByActionId } from './state.ts';

/**
 * Adds a new ingested action. Throws when the id exists already (use `upsertIngestedAction` for retries).
 *
 * @example
 * addIngestedAction(state.data, 'org_acme', { actionId: 'ing_1', platform: 'SLACK', ... });
 */
export function addIngestedAction(
  state: DataState,
  organizationId: string,
  input: IngestedActionInput,
): IngestOutcome {
  const org = orgData(state, organizationId);
  if (findRow(org, input.actionId) >= 0)
    throw new Error(`action ${input.actionId} exists already in ${organizationId}`);
  return upsertIngestedAction(state, organizationId, input);
}

/** Adds or replaces an ingested action (same actionId: updated in place, never duplicated). */
export function upsertIngestedAction(
  state: DataState,
  organizationId: string,
  input: IngestedActionInput,
): IngestOutcome {
  const org = orgData(state, organizationId);
  const stored = normalise(input);
  const existing = findRow(org, input.actionId);
  if (existing >= 0 && !org.ingested.has(existing)) {
    throw new Error(`action id ${input.actionId} belongs to a seeded action of ${organizationId}`);
  }
  const tie = tieByActionId(org);
  let row = existing;
  if (row >= 0) {
    org.byCreated.remove(row, org.table.createdAt[row] ?? 0);
    const updated = org.table.updatedAt[row] ?? Number.NaN;
    if (!Number.isNaN(updated)) org.byUpdated.remove(row, updated);
  } else {
    row = org.table.addRow();
  }
  org.ingested.set(row, stored);
  rowChanged(org, row);
  org.ingestedIds.set(stored.actionId, row);
  fillColumns(org, org.table, row, stored);
  // Agent replies delivered to this action before the thread grew still count (reply-overlay.ts).
  recountReplies(org, row);
  const responded = org.table.responded(row);
  org.byCreated.insert(row, stored.createdAtMs, responded, tie);
  if (stored.updatedAtMs !== null) org.byUpdated.insert(row, stored.updatedAtMs, responded, tie);
  return { actionId: stored.actionId, created: existing < 0 };
}

function toMs(value: string | number, what: string): number {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`${what} is not a timestamp: ${String(value)}`);
  return ms;
}

function normalise(input: IngestedActionInput): IngestedAction {
  const createdAtMs = toMs(input.createdAt, 'createdAt');
  const messageTimes = input.messages.map((m) => toMs(m.timestamp, `message ${m.id} timestamp`));
  const latest = messageTimes.length > 0 ? Math.max(...messageTimes) : createdAtMs;
  const updatedAtMs =
    input.updatedAt === undefined
      ? latest > createdAtMs
        ? latest
        : null
      : input.updatedAt === null
        ? null
        : toMs(input.updatedAt, 'updatedAt');
  const { createdAt: _c, updatedAt: _u, ...rest } = input;
  return { ...rest, createdAtMs, updatedAtMs };
}

function fillColumns(org: OrgData, table: ActionTable, row: number, action: IngestedAction): void {
  const messages: readonly IngestedMessage[] =
    action.messages.length > 0 ? action.messages : (action.conversation ?? []);
  const count = (type: IngestedMessage['authorType']): number =>
    messages.filter((m) => m.authorType === type).length;
  const firstAgent = messages
    .filter((m) => m.authorType === 'AGENT')
    .map((m) => toMs(m.timestamp, 'message timestamp'))
    .sort((a, b) => a - b)[0];
  table.createdAt[row] = action.createdAtMs;
  table.updatedAt[row] = action.updatedAtMs ?? Number.NaN;
  table.seed[row] = 0;
  table.platform[row] = Math.max(0, PLATFORMS.indexOf(action.platform));
  table.status[row] = Math.max(0, STATUSES.indexOf(action.status ?? 'OPEN'));
  table.flags[row] =
    FLAG_INGESTED |
    (action.isPublicPost ? FLAG_PUBLIC : 0) |
    (action.conversation !== undefined ? FLAG_THREADED : 0);
  table.msgTotal[row] = messages.length;
  table.msgUser[row] = count('USER');
  table.msgAgent[row] = count('AGENT');
  table.responseSec[row] =
    firstAgent === undefined ? -1 : Math.max(0, Math.floor((firstAgent - action.createdAtMs) / 1000));
  table.recordType[row] = internRecordType(org, action.recordType ?? '');
  table.sentiment[row] = action.sentiment ? SENTIMENTS.indexOf(action.sentiment.label) : -1;
  table.sentimentScore[row] = action.sentiment
    ? Math.round(Math.max(-1, Math.min(1, action.sentiment.score)) * 1000)
    : -32768;
  fillExtras(org, table, row, action);
}

/** The columns only a user-defined action states (queue, assignee, tags, times, scores). */
function fillExtras(org: OrgData, table: ActionTable, row: number, action: IngestedAction): void {
  const extras = action.extras ?? {};
  const { catalog } = org;
  const indexOf = <T>(list: readonly T[], match: (item: T) => boolean): number => list.findIndex(match);
  const queue = (id: string | null | undefined): number =>
    id == null ? NULL_INDEX : indexOf(catalog.queues, (q) => q.id === id);
  table.queue[row] = queue(extras.queueId);
  table.initialQueue[row] = queue(
    extras.initialQueueId === undefined ? extras.queueId : extras.initialQueueId,
  );
  const agent = extras.assigneeUserId;
  table.assignee[row] = agent == null ? NULL_INDEX : indexOf(catalog.agents, (a) => a.userId === agent);
  const fillTags = (column: Int16Array, slots: number, ids: readonly string[], closing: boolean): void => {
    const list = closing ? catalog.closingTags : catalog.tags;
    for (let k = 0; k < slots; k++) {
      const id = ids[k];
      column[row * slots + k] = id === undefined ? NULL_INDEX : indexOf(list, (t) => t.id === id);
    }
  };
  fillTags(table.tags, TAG_SLOTS, extras.tagIds ?? [], false);
  fillTags(table.closingTags, CLOSING_TAG_SLOTS, extras.closingTagIds ?? [], true);
  const offset = (ms: number | null | undefined): number =>
    ms == null ? -1 : Math.max(0, Math.floor((ms - action.createdAtMs) / 1000));
  table.claimSec[row] = offset(extras.claimedAt);
  table.closeSec[row] = offset(extras.closedAt);
  table.csat[row] = extras.csat ?? -1;
  table.estimatedCsat[row] = extras.estimatedCsat == null ? -1 : Math.round(extras.estimatedCsat * 100);
  table.moderation[row] =
    extras.moderation == null ? NULL_INDEX : MODERATION_VALUES.indexOf(extras.moderation);
}

function internRecordType(org: OrgData, recordType: string): number {
  const known = org.recordTypeIndex.get(recordType);
  if (known !== undefined) return known;
  org.recordTypes.push(recordType);
  org.recordTypeIndex.set(recordType, org.recordTypes.length - 1);
  return org.recordTypes.length - 1;
}
