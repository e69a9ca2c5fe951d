/**
 * The ingestion slice of the engine state: every record ever taken, by identity (organization,
 * platform, serverId, externalId: spec 2.8), and the batches still waiting to be processed.
 */
import type { Clock } from '../types.ts';

/** `instant`: processed at intake. A number: processed that many ms (engine clock) after the 202. */
export type IngestionLatencyOption = 'instant' | number;

/** Default processing delay: half a second after the 202. */
export const DEFAULT_INGESTION_LATENCY_MS = 500;

export type ProcessingLevel = 'INSIGHTS' | 'STATS_ONLY';

/** One record of an ingestion batch, as the contract's `IngestionRecord` describes it. */
export interface IngestionRecordInput {
  readonly externalId: string;
  readonly threadExternalId?: string;
  readonly parentExternalId?: string;
  readonly authorId: string;
  readonly authorName: string;
  readonly title?: string;
  readonly body: string;
  readonly score?: number;
  readonly createdAt: string;
  readonly url?: string;
  readonly recordType: string;
  readonly customFields?: { readonly [name: string]: unknown };
}

/** What a record keeps of its batch envelope (the latest write wins). */
export interface RecordOrigin {
  readonly serverName: string;
  readonly channelId: string | null;
  readonly channelName: string | null;
  readonly processingLevel: ProcessingLevel;
  readonly sourceSystem: string | null;
  readonly sourceId: string | null;
}

export interface RecordIdentity {
  readonly organizationId: string;
  readonly platform: string;
  readonly serverId: string;
  readonly externalId: string;
}

export interface StoredRecord {
  readonly key: string;
  readonly identity: RecordIdentity;
  record: IngestionRecordInput;
  origin: RecordOrigin;
  /** Engine time of the first intake of this identity; keeps the record's place in its thread. */
  readonly firstReceivedAt: number;
  /** Arrival order among all records (first intake), a tie-breaker for equal timestamps. */
  readonly sequence: number;
  receivedAt: number;
  /** Bumped on each write; processing is done when processedRevision catches up. */
  revision: number;
  processedRevision: number;
  /** The thread this record was last processed into (a retry may move it to another thread). */
  processedThread: string | null;
}

export interface PendingBatch {
  readonly dueAt: number;
  readonly keys: readonly string[];
}

export interface IngestionState {
  readonly clock: Clock;
  /** ms after intake; 0 for instant. */
  readonly latencyMs: number;
  readonly records: Map<string, StoredRecord>;
  /**
   * Record keys by the thread each record now belongs to: processing a batch rebuilds only the
   * threads it touched, so reading them must not cost a scan of every record (replaying a long log
   * would then be quadratic).
   */
  readonly threads: Map<string, Set<string>>;
  /** Oldest first; dueAt never decreases because the clock does not go back. */
  readonly pending: PendingBatch[];
  sequence: number;
}

export interface IngestionStateOptions {
  readonly clock: Clock;
  /** Default 500 ms. */
  readonly latency?: IngestionLatencyOption;
}

/**
 * Creates an empty ingestion slice.
 *
 * @example
 * const ingestion = createIngestionState({ clock, latency: 'instant' });
 */
export function createIngestionState(options: IngestionStateOptions): IngestionState {
  const latency = options.latency ?? DEFAULT_INGESTION_LATENCY_MS;
  const latencyMs = latency === 'instant' ? 0 : latency;
  if (!Number.isFinite(latencyMs) || latencyMs < 0) {
    throw new RangeError(
      `ingestion latency must be 'instant' or a number of ms >= 0; got ${String(latency)}`,
    );
  }
  return {
    clock: options.clock,
    latencyMs,
    records: new Map(),
    threads: new Map(),
    pending: [],
    sequence: 0,
  };
}

/** The map key of an identity: a JSON array, so no separator can collide with an id's characters. */
export function identityKey(identity: RecordIdentity): string {
  return JSON.stringify([identity.organizationId, identity.platform, identity.serverId, identity.externalId]);
}

/**
 * `identityKey` for the records of one batch (one organization, platform and server): the same
 * string, with the part the records share written once per batch instead of once per record.
 */
export function identityKeysOf(
  organizationId: string,
  platform: string,
  serverId: string,
): (externalId: string) => string {
  const shared = `${JSON.stringify([organizationId, platform, serverId]).slice(0, -1)},`;
  return (externalId) => `${shared}${JSON.stringify(externalId)}]`;
}
