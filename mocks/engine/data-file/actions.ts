/**
 * A data file's action as the records slice's full record (the path ingested actions take), so the
 * list, detail, search, analytics, agent and queue figures derive from it as from any other row.
 */
import { FLAG_INGESTED } from '../../../fixtures/generate/table.ts';
import type { Platform } from '../../../fixtures/generate/types.ts';
import { rowChanged } from '../records/answer-cache.ts';
import {
  type DataState,
  findRow,
  type IngestedActionInput,
  type IngestedMessage,
  orgData,
  upsertIngestedAction,
} from '../records/index.ts';
import { timestampOrThrow } from './time.ts';
import type { DataFileAction, DataFileMessage } from './types.ts';

function message(m: DataFileMessage, anchor: number, threaded: boolean): IngestedMessage {
  return {
    id: m.id,
    timestamp: timestampOrThrow(m.timestamp, anchor),
    author: m.author,
    authorId: m.authorId ?? null,
    authorType: m.authorType,
    message: m.message,
    mediaUrls: m.mediaUrls ?? [],
    ...(threaded ? { parentMessageId: m.parentMessageId ?? null } : {}),
  };
}

const optionalTime = (value: string | null | undefined, anchor: number): number | null | undefined =>
  value === undefined ? undefined : value === null ? null : timestampOrThrow(value, anchor);

/** The records slice's input for a (checked) data-file action; defaults fill what the file leaves out. */
export function toActionInput(action: DataFileAction, anchor: number): IngestedActionInput {
  const conversation = action.conversation?.map((m) => message(m, anchor, true));
  const messages =
    action.messages !== undefined
      ? action.messages.map((m) => message(m, anchor, false))
      : (action.conversation ?? []).map((m) => message(m, anchor, false));
  const updatedAt = optionalTime(action.updatedAt, anchor);
  const serverName = action.serverName ?? action.platform;
  return {
    actionId: action.actionId,
    platform: action.platform as Platform,
    serverId: action.serverId ?? serverName,
    serverName,
    channelName: action.channelName ?? '',
    recordType: action.recordType ?? null,
    title: action.title,
    summary: action.summary ?? action.title,
    status: action.status ?? 'OPEN',
    isPublicPost: action.isPublicPost ?? false,
    sourceURL: action.sourceURL ?? null,
    createdAt: timestampOrThrow(action.createdAt, anchor),
    ...(updatedAt === undefined ? {} : { updatedAt }),
    user: {
      userId: action.user.userId,
      name: action.user.name,
      username: action.user.username,
      email: action.user.email ?? null,
      followerCount: action.user.followerCount ?? null,
    },
    messages,
    ...(conversation === undefined ? {} : { conversation }),
    customFields: { ...(action.customFields ?? {}) },
    ...(action.rootMessageText === undefined ? {} : { rootMessageText: action.rootMessageText }),
    sentiment:
      action.sentiment == null ? null : { label: action.sentiment, score: action.sentimentScore ?? 0 },
    extras: {
      queueId: action.queue ?? null,
      initialQueueId: action.initialQueue === undefined ? (action.queue ?? null) : action.initialQueue,
      assigneeUserId: action.assignee ?? null,
      tagIds: action.tags ?? [],
      closingTagIds: action.closingTags ?? [],
      claimedAt: optionalTime(action.claimTime, anchor) ?? null,
      closedAt: optionalTime(action.closeTime, anchor) ?? null,
      csat: action.csatScore == null ? null : Number.parseInt(action.csatScore, 10),
      csatFeedback: action.csatFeedback ?? null,
      estimatedCsat: action.estimatedCSAT ?? null,
      moderation: action.moderation ?? null,
      ...(action.scores === undefined ? {} : { scores: action.scores }),
      comments: action.comments ?? [],
    },
  };
}

/**
 * Puts an action in its organization. The file wins on an id clash: a seeded action with the same
 * id leaves the window indexes (so no read shows it any more) and the file's record takes the id.
 */
export function loadAction(data: DataState, action: DataFileAction, anchor: number): void {
  const org = orgData(data, action.organizationId);
  const row = findRow(org, action.actionId);
  if (row >= 0 && !org.ingested.has(row)) {
    org.byCreated.remove(row, org.table.createdAt[row] ?? 0);
    const updated = org.table.updatedAt[row] ?? Number.NaN;
    if (!Number.isNaN(updated)) org.byUpdated.remove(row, updated);
    // The flag makes findRow skip the seeded derivation of this row; its id now names the file's record.
    org.table.flags[row] = (org.table.flags[row] ?? 0) | FLAG_INGESTED;
    rowChanged(org, row);
  }
  upsertIngestedAction(data, action.organizationId, toActionInput(action, anchor));
}
