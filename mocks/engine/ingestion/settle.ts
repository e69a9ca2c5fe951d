/**
 * Applies the processing that is due: INSIGHTS threads become (or update) actions of the data
 * slice; STATS_ONLY records only count in the ingestion statistics (`ingestionStats`).
 */
import { upsertIngestedAction } from '../records/ingest.ts';
import type { DataState } from '../records/state.ts';
import { takeDueThreads } from './process.ts';
import type { IngestionState, ProcessingLevel } from './state.ts';
import { threadToAction } from './to-action.ts';

export interface SettleReport {
  /** Action ids created or updated, in processing order. */
  readonly upserted: readonly string[];
  /** STATS_ONLY threads processed (counted, not listed). */
  readonly statsOnlyThreads: number;
}

/**
 * Processes every batch due at the ingestion clock's current time. Cheap when nothing is due; the
 * engine calls it before handling a request, so a read sees what the clock says is processed.
 *
 * @example
 * settleIngestion(state.ingestion, state.data); // { upserted: ['ing_…'], statsOnlyThreads: 0 }
 */
export function settleIngestion(ingestion: IngestionState, data: DataState): SettleReport {
  if (ingestion.pending.length === 0) return { upserted: [], statsOnlyThreads: 0 };
  const upserted: string[] = [];
  let statsOnlyThreads = 0;
  for (const thread of takeDueThreads(ingestion, ingestion.clock.now())) {
    if (thread.processingLevel === 'STATS_ONLY') {
      statsOnlyThreads += 1;
      continue;
    }
    upserted.push(upsertIngestedAction(data, thread.organizationId, threadToAction(thread)).actionId);
  }
  return { upserted, statsOnlyThreads };
}

/**
 * Asks for a `settleIngestion` once the batch just taken is due, so that with a real-time engine
 * clock the actions appear about `latencyMs` after the 202 without any further request. The timer
 * only pokes: what is processed is still decided by the engine clock (a frozen clock that has not
 * reached the due time processes nothing). Unref'd, so it never keeps a process alive.
 */
export function scheduleSettle(ingestion: IngestionState, data: DataState): void {
  if (ingestion.latencyMs === 0) return;
  const poke = (): void => {
    try {
      settleIngestion(ingestion, data);
    } catch {
      // Not expected for contract-valid input (timestamps are normalised, action ids prefixed). A throw
      // here would kill the process, with no request to answer with a 500; the batch is dropped instead.
    }
  };
  const timer: unknown = setTimeout(poke, ingestion.latencyMs);
  if (typeof timer === 'object' && timer !== null && 'unref' in timer && typeof timer.unref === 'function') {
    timer.unref();
  }
}

export interface IngestionSourceStats {
  readonly organizationId: string;
  readonly platform: string;
  readonly serverId: string;
  readonly processingLevel: ProcessingLevel;
  /** Distinct records stored (by identity). */
  readonly records: number;
  /** Distinct authors among them. */
  readonly authors: number;
  /** Of the records, those processed already (the rest wait for the clock). */
  readonly processed: number;
}

/**
 * Statistics of what was ingested, per organization, source (platform, serverId) and processing
 * level: where STATS_ONLY records count. Served by `GET /__mock/ingestion/stats`.
 */
export function ingestionStats(ingestion: IngestionState, organizationId?: string): IngestionSourceStats[] {
  const groups = new Map<string, { stats: Omit<IngestionSourceStats, 'authors'>; authors: Set<string> }>();
  for (const stored of ingestion.records.values()) {
    const { identity, origin } = stored;
    if (organizationId !== undefined && identity.organizationId !== organizationId) continue;
    const key = JSON.stringify([
      identity.organizationId,
      identity.platform,
      identity.serverId,
      origin.processingLevel,
    ]);
    const processed = stored.processedRevision === stored.revision ? 1 : 0;
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, {
        stats: { ...identity, processingLevel: origin.processingLevel, records: 1, processed },
        authors: new Set([stored.record.authorId]),
      });
    } else {
      group.stats = {
        ...group.stats,
        records: group.stats.records + 1,
        processed: group.stats.processed + processed,
      };
      group.authors.add(stored.record.authorId);
    }
  }
  return [...groups.values()].map(({ stats, authors }) => ({
    organizationId: stats.organizationId,
    platform: stats.platform,
    serverId: stats.serverId,
    processingLevel: stats.processingLevel,
    records: stats.records,
    authors: authors.size,
    processed: stats.processed,
  }));
}
