/**
 * Processing after the 202, on the engine clock. Nothing runs in the background: `takeDueThreads`
 * is called with the current time (before a read, or by the admin flush) and returns, for every batch
 * whose delay has passed, the threads its records belong to, rebuilt from every stored record of the
 * thread. Rebuilding whole threads makes processing idempotent: a retry rebuilds the same action.
 */
import type { IngestionState, ProcessingLevel, StoredRecord } from './state.ts';

/** One ingested record as a message of its thread (spec 2.3 `conversation[]`, plus the record's extras). */
export interface ThreadMessage {
  /** The record's externalId, byte for byte. */
  readonly id: string;
  readonly timestamp: string;
  readonly author: string;
  readonly authorId: string;
  readonly authorType: 'USER';
  readonly message: string;
  /** The parent record's externalId, byte for byte, or null. */
  readonly parentMessageId: string | null;
  readonly mediaUrls: readonly string[];
  readonly title: string | null;
  readonly url: string | null;
  readonly score: number | null;
  readonly recordType: string;
  readonly customFields: { readonly [name: string]: unknown };
}

/** All records of one thread of one source, in conversation order: what becomes one action. */
export interface IngestedThread {
  readonly organizationId: string;
  readonly platform: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly channelId: string | null;
  readonly channelName: string | null;
  /** `threadExternalId` shared by the records, or the root record's own externalId. */
  readonly threadExternalId: string;
  readonly processingLevel: ProcessingLevel;
  readonly sourceSystem: string | null;
  /** The thread's root: the record whose externalId is the thread id, else the earliest one. */
  readonly root: ThreadMessage;
  readonly messages: readonly ThreadMessage[];
  /** Engine time the thread's first record was taken. */
  readonly firstReceivedAt: number;
}

/** The thread a record belongs to: its `threadExternalId`, or itself. */
export function threadIdOf(stored: StoredRecord): string {
  return stored.record.threadExternalId ?? stored.record.externalId;
}

export function threadKeyOf(stored: StoredRecord): string {
  const { organizationId, platform, serverId } = stored.identity;
  return JSON.stringify([
    organizationId,
    platform,
    serverId,
    threadIdOf(stored),
    stored.origin.processingLevel,
  ]);
}

/**
 * Removes the batches due at `now` from the queue and returns the threads they touched (each once),
 * in the order their first record was taken.
 */
export function takeDueThreads(state: IngestionState, now: number): IngestedThread[] {
  const touched = new Set<string>();
  while (state.pending.length > 0 && (state.pending[0]?.dueAt ?? Number.POSITIVE_INFINITY) <= now) {
    const batch = state.pending.shift();
    for (const key of batch?.keys ?? []) {
      const stored = state.records.get(key);
      if (stored === undefined || stored.processedRevision === stored.revision) continue;
      const thread = threadKeyOf(stored);
      // A retry that moved the record to another thread rebuilds the thread it left, too.
      if (stored.processedThread !== null) touched.add(stored.processedThread);
      stored.processedRevision = stored.revision;
      stored.processedThread = thread;
      touched.add(thread);
    }
  }
  if (touched.size === 0) return [];
  const groups = new Map<string, StoredRecord[]>();
  for (const thread of touched) {
    const members: StoredRecord[] = [];
    for (const key of state.threads.get(thread) ?? []) {
      const stored = state.records.get(key);
      if (stored !== undefined) members.push(stored);
    }
    if (members.length > 0) groups.set(thread, members);
  }
  // Ties keep the order of the threads' first stored records, as a scan of every record gave.
  const first = (records: StoredRecord[]): number => Math.min(...records.map((r) => r.sequence));
  return [...groups.values()]
    .sort((a, b) => first(a) - first(b))
    .map(threadOf)
    .sort((a, b) => a.firstReceivedAt - b.firstReceivedAt);
}

/** True when a batch is still waiting (the clock has not reached its due time). */
export function hasPending(state: IngestionState): boolean {
  return state.pending.length > 0;
}

function threadOf(records: StoredRecord[]): IngestedThread {
  // Each createdAt parsed once, not once per comparison.
  const ordered = records
    .map((stored) => ({ stored, at: Date.parse(stored.record.createdAt) }))
    .sort(compareRecords)
    .map(({ stored }) => stored);
  const first = ordered[0];
  if (first === undefined) throw new Error('a thread has at least one record');
  const threadExternalId = threadIdOf(first);
  const rootRecord = ordered.find((stored) => stored.record.externalId === threadExternalId) ?? first;
  const latest = ordered.reduce((a, b) => (b.receivedAt > a.receivedAt ? b : a));
  return {
    organizationId: first.identity.organizationId,
    platform: first.identity.platform,
    serverId: first.identity.serverId,
    serverName: latest.origin.serverName,
    channelId: latest.origin.channelId,
    channelName: latest.origin.channelName,
    threadExternalId,
    processingLevel: first.origin.processingLevel,
    sourceSystem: latest.origin.sourceSystem,
    root: messageOf(rootRecord),
    messages: ordered.map(messageOf),
    firstReceivedAt: Math.min(...ordered.map((stored) => stored.firstReceivedAt)),
  };
}

/** Conversation order: by createdAt (`at`, parsed) when both parse as dates, else by arrival. */
function compareRecords(
  a: { readonly stored: StoredRecord; readonly at: number },
  b: { readonly stored: StoredRecord; readonly at: number },
): number {
  if (Number.isFinite(a.at) && Number.isFinite(b.at) && a.at !== b.at) return a.at - b.at;
  return a.stored.sequence - b.stored.sequence;
}

function messageOf(stored: StoredRecord): ThreadMessage {
  const record = stored.record;
  return {
    id: record.externalId,
    timestamp: record.createdAt,
    author: record.authorName,
    authorId: record.authorId,
    authorType: 'USER',
    message: record.body,
    parentMessageId: record.parentExternalId ?? null,
    mediaUrls: [],
    title: record.title ?? null,
    url: record.url ?? null,
    score: record.score ?? null,
    recordType: record.recordType,
    customFields: record.customFields ?? {},
  };
}
