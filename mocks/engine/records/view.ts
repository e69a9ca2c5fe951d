/**
 * Turns a stored row into the records of spec sections 2.1 to 2.3: the action summary (list and
 * search items), the conversation search item and the action detail. Seeded rows derive their
 * strings from the row's seed; ingested rows read their stored record.
 */
import { PLATFORM_INFO } from '../../../fixtures/generate/catalog.ts';
import {
  commentsOf,
  csatFeedbackOf,
  customerOf,
  customFieldValuesOf,
  type DerivedMessage,
  isoDuration,
  messagesOf,
  platformOf,
  rootMessageTextOf,
  summaryOf,
  titleOf,
} from '../../../fixtures/generate/derive.ts';
import { NULL_INDEX, NULL_SCORE } from '../../../fixtures/generate/table.ts';
import {
  type CustomerRecord,
  MODERATION_VALUES,
  type Platform,
  SENTIMENTS,
  STATUSES,
  type TagRecord,
} from '../../../fixtures/generate/types.ts';
import type { ConversationEntryJson } from './conversation-entry.ts';
import type { IngestedAction, IngestedMessage } from './ingest-types.ts';
import { withReplies } from './reply-overlay.ts';
import { actionIdOfRow, type OrgData } from './state.ts';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null || Number.isNaN(ms) ? null : iso(ms));

export interface TagJson {
  readonly value: string;
  readonly group: string;
}

const tagJson = (tag: TagRecord | undefined): TagJson[] =>
  tag ? [{ value: tag.value, group: tag.group }] : [];

export function tagsJson(org: OrgData, row: number, closing: boolean): TagJson[] {
  const list = closing ? org.catalog.closingTags : org.catalog.tags;
  return org.table.tagsOf(row, closing).flatMap((k) => tagJson(list[k]));
}

export function customerOfRow(org: OrgData, row: number): CustomerRecord {
  const ingested = org.ingested.get(row);
  if (ingested !== undefined) return ingested.user;
  return customerOf(platformOf(org.table, row), org.table.customer[row] ?? 0);
}

export function serverNameOfRow(org: OrgData, row: number): string {
  const ingested = org.ingested.get(row);
  if (ingested !== undefined) return ingested.serverName;
  return PLATFORM_INFO[platformOf(org.table, row)].server(org.catalog.brand);
}

export function channelNameOfRow(org: OrgData, row: number): string {
  const ingested = org.ingested.get(row);
  if (ingested !== undefined) return ingested.channelName ?? '';
  return PLATFORM_INFO[platformOf(org.table, row)].channels[org.table.channel[row] ?? 0] ?? '';
}

/** Custom-field values of the action: seeded or ingested ones, overlaid by API writes (null clears). */
export function customFieldsOfRow(org: OrgData, row: number): Record<string, unknown> {
  const ingested = org.ingested.get(row);
  const base: Record<string, unknown> = ingested
    ? { ...(ingested.customFields ?? {}) }
    : customFieldValuesOf(org.catalog, org.table, row);
  const written = org.customValues.get(row);
  if (written !== undefined) {
    for (const [name, stored] of written) {
      if (stored.value === null) delete base[name];
      else base[name] = stored.value;
    }
  }
  return base;
}

function secOffset(org: OrgData, row: number, column: Int32Array): number | null {
  const sec = column[row] ?? -1;
  return sec < 0 ? null : (org.table.createdAt[row] ?? 0) + sec * 1000;
}

/** Spec 2.1, all keys. `conversationJson` is filled only when asked for. */
export function actionSummary(
  org: OrgData,
  row: number,
  includeConversation: boolean,
): Record<string, unknown> {
  const t = org.table;
  const ingested = org.ingested.get(row);
  const platform: Platform = ingested?.platform ?? platformOf(t, row);
  const actionId = actionIdOfRow(org, row);
  const customer = customerOfRow(org, row);
  const agent = org.catalog.agents[t.assignee[row] ?? NULL_INDEX];
  const queue = org.catalog.queues[t.queue[row] ?? NULL_INDEX];
  const initialQueue = org.catalog.queues[t.initialQueue[row] ?? NULL_INDEX];
  const isPublic = t.hasFlag(row, 1);
  const createdAt = t.createdAt[row] ?? 0;
  const responseAt = secOffset(org, row, t.responseSec);
  const claimAt = secOffset(org, row, t.claimSec);
  const closeAt = secOffset(org, row, t.closeSec);
  const score = t.sentimentScore[row] ?? NULL_SCORE;
  const csat = t.csat[row] ?? -1;
  const estimated = t.estimatedCsat[row] ?? -1;
  const serverName = serverNameOfRow(org, row);
  const channelName = channelNameOfRow(org, row);
  const sourceURL = ingested
    ? ingested.sourceURL
    : isPublic
      ? PLATFORM_INFO[platform].url(serverName, channelName, actionId, customer.username)
      : null;
  const closeSec = t.closeSec[row] ?? -1;
  const claimSec = t.claimSec[row] ?? -1;
  return {
    actionId,
    actionTitle: ingested ? ingested.title : titleOf(org.catalog, t, row),
    actionSummary: ingested ? ingested.summary : summaryOf(org.catalog, t, row),
    status: ingested?.status ?? STATUSES[t.status[row] ?? 0] ?? 'OPEN',
    platform,
    recordType: ingested ? ingested.recordType : (org.recordTypes[t.recordType[row] ?? 0] ?? null),
    isPublicPost: ingested ? ingested.isPublicPost : isPublic,
    serviceURL: `https://app.cca.example/${encodeURIComponent(org.catalog.organization.id)}/actions/${encodeURIComponent(actionId)}`,
    sourceURL,
    queue: queue?.name ?? null,
    initialQueue: initialQueue?.name ?? null,
    sentiment: SENTIMENTS[t.sentiment[row] ?? NULL_INDEX] ?? null,
    sentimentScore: score === NULL_SCORE ? null : score / 1000,
    moderation: MODERATION_VALUES[t.moderation[row] ?? NULL_INDEX] ?? null,
    assigneeName: agent?.name ?? null,
    assigneeEmail: agent?.email ?? null,
    assigneeUserId: agent?.userId ?? null,
    assigneeRole: agent?.role ?? null,
    userName: customer.name,
    userUsername: customer.username,
    userId: customer.userId,
    userEmail: customer.email,
    userFollowerCount: customer.followerCount,
    createdAt: iso(createdAt),
    updatedAt: isoOrNull(t.updatedAt[row] ?? Number.NaN),
    initialMessageTime: ingested ? isoOrNull(firstMessageTime(ingested)) : iso(createdAt),
    initialResponseTime: isoOrNull(responseAt),
    closeTime: isoOrNull(closeAt),
    claimTime: isoOrNull(claimAt),
    firstResponseTime: (t.responseSec[row] ?? -1) < 0 ? null : isoDuration(t.responseSec[row] ?? 0),
    handleTime: closeSec < 0 ? null : isoDuration(closeSec - Math.max(claimSec, 0)),
    serverName,
    channelName,
    csatScore: csat < 1 ? null : String(csat),
    csatFeedback: ingested ? (ingested.extras?.csatFeedback ?? null) : csatFeedbackOf(t, row),
    estimatedCSAT: estimated < 0 ? null : estimated / 100,
    totalMessages: t.msgTotal[row] ?? 0,
    totalUserMessages: t.msgUser[row] ?? 0,
    totalAgentMessages: t.msgAgent[row] ?? 0,
    tags: tagsJson(org, row, false),
    closingTags: tagsJson(org, row, true),
    customFields: customFieldsOfRow(org, row),
    rootMessageText: rootMessageText(org, row, ingested),
    conversationJson: includeConversation ? JSON.stringify(conversationOf(org, row)) : null,
  };
}

function firstMessageTime(action: IngestedAction): number | null {
  const first = action.messages[0] ?? action.conversation?.[0];
  if (first === undefined) return action.createdAtMs;
  return typeof first.timestamp === 'number' ? first.timestamp : Date.parse(first.timestamp);
}

function rootMessageText(org: OrgData, row: number, ingested: IngestedAction | undefined): string | null {
  if (ingested === undefined) return rootMessageTextOf(org.catalog, org.table, row);
  if (ingested.rootMessageText !== undefined) return ingested.rootMessageText;
  return (ingested.messages[0] ?? ingested.conversation?.[0])?.message ?? null;
}

const stamp = (value: string | number): string => {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? iso(ms) : String(value);
};

function entryOfIngested(m: IngestedMessage): ConversationEntryJson {
  return {
    id: m.id,
    timestamp: stamp(m.timestamp),
    author: m.author,
    authorId: m.authorId,
    authorType: m.authorType,
    message: m.message,
    parentMessageId: m.parentMessageId ?? null,
    mediaUrls: m.mediaUrls ?? [],
  };
}

function entryOfDerived(m: DerivedMessage): ConversationEntryJson {
  return {
    id: m.id,
    timestamp: iso(m.timestamp),
    author: m.author,
    authorId: m.authorId,
    authorType: m.authorType,
    message: m.message,
    parentMessageId: m.parentMessageId,
    mediaUrls: m.mediaUrls,
  };
}

/**
 * The conversation of an action as `ConversationEntry` items: the threaded conversation when there
 * is one, else the messages with `parentMessageId` null. This is what `conversationJson` serialises.
 */
export function conversationOf(org: OrgData, row: number): ConversationEntryJson[] {
  return withReplies(org, row, () => {
    const ingested = org.ingested.get(row);
    if (ingested !== undefined) return (ingested.conversation ?? ingested.messages).map(entryOfIngested);
    const threaded = org.table.hasFlag(row, 2);
    return messagesOf(org.catalog, org.table, row, org.anchor).map((m) =>
      entryOfDerived(threaded ? m : { ...m, parentMessageId: null }),
    );
  });
}

function messageJson(entry: ConversationEntryJson): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: entry.id,
    timestamp: entry.timestamp,
    author: entry.author,
  };
  if (entry.authorId !== null) out['authorId'] = entry.authorId;
  out['authorType'] = entry.authorType;
  out['message'] = entry.message;
  out['mediaUrls'] = entry.mediaUrls;
  return out;
}

/** Spec 2.2: the detail record, with `conversation` only for threaded actions. */
export function actionDetail(org: OrgData, row: number): Record<string, unknown> {
  const s = actionSummary(org, row, false);
  const ingested = org.ingested.get(row);
  const threaded = org.table.hasFlag(row, 2);
  const entries = ingested
    ? withReplies(org, row, () => ingested.messages.map(entryOfIngested))
    : conversationOf(org, row);
  const detail: Record<string, unknown> = {
    user: {
      name: s['userName'],
      username: s['userUsername'],
      userId: s['userId'],
      email: s['userEmail'],
      followerCount: s['userFollowerCount'],
    },
    actionId: s['actionId'],
    actionTitle: s['actionTitle'],
    actionSummary: s['actionSummary'],
    platform: s['platform'],
    recordType: s['recordType'],
    isPublicPost: s['isPublicPost'],
    sentiment: s['sentiment'],
    sentimentScore: s['sentimentScore'],
    queue: s['queue'],
    initialQueue: s['initialQueue'],
    status: s['status'],
    createdAt: s['createdAt'],
    serviceURL: s['serviceURL'],
    sourceURL: s['sourceURL'],
    updatedAt: s['updatedAt'],
    initialMessageTime: s['initialMessageTime'],
    initialResponseTime: s['initialResponseTime'],
    closeTime: s['closeTime'],
    firstResponseTime: s['firstResponseTime'],
    handleTime: s['handleTime'],
    claimTime: s['claimTime'],
    assignee: {
      name: s['assigneeName'],
      email: s['assigneeEmail'],
      userId: s['assigneeUserId'],
      role: s['assigneeRole'],
    },
    serverName: s['serverName'],
    channelName: s['channelName'],
    tags: s['tags'],
    closingTags: s['closingTags'],
    moderation: s['moderation'],
    comments: ingested ? (ingested.extras?.comments ?? []) : commentsOf(org.catalog, org.table, row),
    messages: entries.map(messageJson),
    rootMessageText: s['rootMessageText'],
    customFields: s['customFields'],
    csatScore: s['csatScore'],
    csatFeedback: s['csatFeedback'],
    estimatedCSAT: s['estimatedCSAT'],
    totalMessages: s['totalMessages'],
    totalUserMessages: s['totalUserMessages'],
    totalAgentMessages: s['totalAgentMessages'],
  };
  if (threaded) detail['conversation'] = conversationOf(org, row);
  return detail;
}

/** Spec 2.1 conversation search item: the summary plus threadId, easyId, contributors. */
export function searchItem(org: OrgData, row: number): Record<string, unknown> {
  const s = actionSummary(org, row, false);
  const entries = conversationOf(org, row);
  const names = [...new Set(entries.map((e) => `${e.author} (${e.authorType.toLowerCase()})`))];
  return {
    ...s,
    threadId: entries[0]?.id ?? String(s['actionId']),
    easyId: `${org.catalog.code}-${1000 + row}`,
    contributors: names.length === 0 ? null : names.join(', '),
  };
}
