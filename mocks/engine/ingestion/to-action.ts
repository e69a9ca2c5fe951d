/**
 * From an ingested thread to the action the records slice stores (docs/write-side.md has the table).
 * Identifiers pass through as strings, untouched: record externalId → message id, parentExternalId →
 * parentMessageId, authorId → userId and message authorId, threadExternalId → the conversation's root.
 */
import { PLATFORMS, type Platform } from '../../../fixtures/generate/types.ts';
import { fnv1a64 } from '../moderation/canonical.ts';
import type { IngestedActionInput, IngestedMessage } from '../records/ingest-types.ts';
import type { IngestedThread, ThreadMessage } from './process.ts';

/** Longest title taken from a record body when the root record has no title. */
export const TITLE_FROM_BODY_MAX = 120;

/**
 * The action id of a thread: `ing_` and 16 hex digits of FNV-1a 64 over (platform, serverId,
 * threadExternalId), so the same thread always maps to the same action and never to a seeded id.
 *
 * @example
 * ingestedActionId({ platform: 'DISCORD', serverId: '1', threadExternalId: '42' }) // 'ing_…'
 */
export function ingestedActionId(
  thread: Pick<IngestedThread, 'platform' | 'serverId' | 'threadExternalId'>,
): string {
  return `ing_${fnv1a64(JSON.stringify([thread.platform, thread.serverId, thread.threadExternalId]))}`;
}

/** The records slice's input for an INSIGHTS thread. */
export function threadToAction(thread: IngestedThread): IngestedActionInput {
  const root = thread.root;
  const messages = thread.messages.map((message) => toMessage(message, thread.firstReceivedAt));
  const customFields: Record<string, unknown> = {};
  for (const message of thread.messages) Object.assign(customFields, message.customFields);
  return {
    actionId: ingestedActionId(thread),
    platform: platformOf(thread.platform),
    serverId: thread.serverId,
    serverName: thread.serverName,
    ...(thread.channelName === null ? {} : { channelName: thread.channelName }),
    recordType: root.recordType,
    title: root.title ?? titleFromBody(root.message),
    summary: root.message,
    status: 'OPEN',
    isPublicPost: root.url !== null,
    sourceURL: root.url,
    createdAt: timestampOf(root.timestamp, thread.firstReceivedAt),
    user: {
      userId: root.authorId,
      name: root.author,
      username: root.author,
      email: null,
      followerCount: null,
    },
    messages,
    conversation: messages,
    customFields,
    rootMessageText: root.message,
  };
}

function toMessage(message: ThreadMessage, fallback: number): IngestedMessage {
  return {
    id: message.id,
    timestamp: timestampOf(message.timestamp, fallback),
    author: message.author,
    authorId: message.authorId,
    authorType: message.authorType,
    message: message.message,
    mediaUrls: message.mediaUrls,
    parentMessageId: message.parentMessageId,
  };
}

/** The record's createdAt when it parses as a date; otherwise the engine time the thread was taken. */
function timestampOf(createdAt: string, fallback: number): string | number {
  return Number.isFinite(Date.parse(createdAt)) ? createdAt : fallback;
}

function titleFromBody(body: string): string {
  const firstLine = body.split('\n', 1)[0] ?? '';
  return firstLine.length > TITLE_FROM_BODY_MAX
    ? `${firstLine.slice(0, TITLE_FROM_BODY_MAX - 1)}…`
    : firstLine;
}

/** The contract has validated the platform; the fallback only keeps the types honest. */
function platformOf(value: string): Platform {
  return PLATFORMS.find((platform) => platform === value) ?? 'CUSTOM_FORM';
}
