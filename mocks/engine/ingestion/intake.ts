/**
 * Ingestion intake (spec 4.17): store every record of a valid batch by identity, synchronously, and
 * queue the batch for processing on the engine clock. A record whose identity (organization,
 * platform, serverId, externalId) is already stored is updated in place: a retry never duplicates.
 */

import { threadIdOf, threadKeyOf } from './process.ts';
import {
  type IngestionRecordInput,
  type IngestionState,
  identityKeysOf,
  type ProcessingLevel,
  type RecordOrigin,
  type StoredRecord,
} from './state.ts';

/** A batch as the contract's `IngestionBatch` describes it (after validation). */
export interface IngestionBatchInput {
  readonly platform: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly channelId?: string;
  readonly channelName?: string;
  readonly processingLevel?: ProcessingLevel;
  readonly source?: { readonly system: string; readonly sourceId?: string };
  readonly records: readonly IngestionRecordInput[];
}

export interface IngestReceipt {
  /** Records taken: every record of the batch (a repeated identity inside it updates the earlier one). */
  readonly accepted: number;
  /** Of those, records whose identity was new. */
  readonly created: number;
  /** Of those, records that updated an identity already stored. */
  readonly updated: number;
}

/**
 * Takes a validated batch for an organization. Never awaits: concurrent batches cannot interleave
 * inside one intake, so each record is counted once and stored once.
 *
 * @example
 * ingestBatch(state, 'org_1', { platform: 'DISCORD', serverId: '1', serverName: 'Guild', records })
 * // { accepted: records.length, created: ..., updated: ... }
 */
export function ingestBatch(
  state: IngestionState,
  organizationId: string,
  batch: IngestionBatchInput,
): IngestReceipt {
  const now = state.clock.now();
  const origin: RecordOrigin = {
    serverName: batch.serverName,
    channelId: batch.channelId ?? null,
    channelName: batch.channelName ?? null,
    processingLevel: batch.processingLevel ?? 'INSIGHTS',
    sourceSystem: batch.source?.system ?? null,
    sourceId: batch.source?.sourceId ?? null,
  };
  const keys: string[] = [];
  const keyOf = identityKeysOf(organizationId, batch.platform, batch.serverId);
  let created = 0;
  for (const record of batch.records) {
    const identity = {
      organizationId,
      platform: batch.platform,
      serverId: batch.serverId,
      externalId: record.externalId,
    };
    const key = keyOf(record.externalId);
    const existing = state.records.get(key);
    if (existing === undefined) {
      created += 1;
      state.sequence += 1;
      const stored: StoredRecord = {
        key,
        identity,
        record,
        origin,
        firstReceivedAt: now,
        sequence: state.sequence,
        receivedAt: now,
        revision: 1,
        processedRevision: 0,
        processedThread: null,
      };
      state.records.set(key, stored);
      indexThread(state, threadKeyOf(stored), key);
    } else {
      // The thread key is the identity (unchanged here), the thread id and the processing level: a
      // retry that changes neither stays in its thread, and its key need not be written twice.
      const moves =
        threadIdOf(existing) !== (record.threadExternalId ?? record.externalId) ||
        existing.origin.processingLevel !== origin.processingLevel;
      const before = moves ? threadKeyOf(existing) : '';
      existing.record = record;
      existing.origin = origin;
      existing.receivedAt = now;
      existing.revision += 1;
      if (moves) {
        state.threads.get(before)?.delete(key);
        indexThread(state, threadKeyOf(existing), key);
      }
    }
    keys.push(key);
  }
  state.pending.push({ dueAt: now + state.latencyMs, keys });
  return { accepted: batch.records.length, created, updated: batch.records.length - created };
}

/**
 * Reads a request body that passed contract validation into the typed batch, copying only the known
 * fields (records keep their own copy, so later mutation of the request object changes nothing).
 * Returns the name of the first offending field if the body is not a batch after all.
 */
export function readBatch(
  body: unknown,
): { ok: true; batch: IngestionBatchInput } | { ok: false; field: string } {
  if (!isRecord(body)) return { ok: false, field: '(root)' };
  const { platform, serverId, serverName, channelId, channelName, processingLevel, source, records } = body;
  if (typeof platform !== 'string') return { ok: false, field: 'platform' };
  if (typeof serverId !== 'string') return { ok: false, field: 'serverId' };
  if (typeof serverName !== 'string') return { ok: false, field: 'serverName' };
  if (!Array.isArray(records)) return { ok: false, field: 'records' };
  const level = processingLevel === 'STATS_ONLY' ? 'STATS_ONLY' : 'INSIGHTS';
  const taken: IngestionRecordInput[] = [];
  for (const [index, raw] of records.entries()) {
    const record = readRecord(raw);
    if (typeof record === 'string') return { ok: false, field: `records[${index}].${record}` };
    taken.push(record);
  }
  const sourceSystem =
    isRecord(source) && typeof source['system'] === 'string' ? source['system'] : undefined;
  const sourceId =
    isRecord(source) && typeof source['sourceId'] === 'string' ? source['sourceId'] : undefined;
  return {
    ok: true,
    batch: {
      platform,
      serverId,
      serverName,
      ...(typeof channelId === 'string' ? { channelId } : {}),
      ...(typeof channelName === 'string' ? { channelName } : {}),
      processingLevel: level,
      ...(sourceSystem === undefined
        ? {}
        : { source: { system: sourceSystem, ...(sourceId === undefined ? {} : { sourceId }) } }),
      records: taken,
    },
  };
}

/** The record, or the name of its first field that is not what the contract promised. */
function readRecord(raw: unknown): IngestionRecordInput | string {
  if (!isRecord(raw)) return '(record)';
  const required = ['externalId', 'authorId', 'authorName', 'body', 'createdAt', 'recordType'] as const;
  for (const name of required) if (typeof raw[name] !== 'string') return name;
  const optional = ['threadExternalId', 'parentExternalId', 'title', 'url'] as const;
  for (const name of optional) if (raw[name] !== undefined && typeof raw[name] !== 'string') return name;
  if (raw['score'] !== undefined && typeof raw['score'] !== 'number') return 'score';
  if (raw['customFields'] !== undefined && !isRecord(raw['customFields'])) return 'customFields';
  const text = (name: string): string => String(raw[name]);
  const record: IngestionRecordInput = {
    externalId: text('externalId'),
    authorId: text('authorId'),
    authorName: text('authorName'),
    body: text('body'),
    createdAt: text('createdAt'),
    recordType: text('recordType'),
    ...(raw['threadExternalId'] === undefined ? {} : { threadExternalId: text('threadExternalId') }),
    ...(raw['parentExternalId'] === undefined ? {} : { parentExternalId: text('parentExternalId') }),
    ...(raw['title'] === undefined ? {} : { title: text('title') }),
    ...(raw['url'] === undefined ? {} : { url: text('url') }),
    ...(typeof raw['score'] === 'number' ? { score: raw['score'] } : {}),
    ...(isRecord(raw['customFields']) ? { customFields: structuredClone(raw['customFields']) } : {}),
  };
  return record;
}

function isRecord(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function indexThread(state: IngestionState, thread: string, key: string): void {
  const members = state.threads.get(thread);
  if (members === undefined) state.threads.set(thread, new Set([key]));
  else members.add(key);
}
