/**
 * Admin operations of the ingestion slice, typed (attach them to `engine.admin`) and as `/__mock/`
 * routes:
 *
 * | route | operation |
 * |---|---|
 * | `GET /__mock/ingestion/stats[?organizationId=]` | records per source and processing level (STATS_ONLY counts here) |
 * | `POST /__mock/ingestion/flush` | process every batch that is due now (reads do this too) |
 */
import {
  type IngestionSourceStats,
  ingestionStats,
  type SettleReport,
  settleIngestion,
} from '../ingestion/index.ts';
import type { EngineState } from '../state.ts';
import { type AdminRoute, ok } from './route.ts';

/** What the ingestion admin acts on: the engine's current state (a getter survives reset). */
export interface IngestionAdminHost {
  readonly state: Pick<EngineState, 'ingestion' | 'data'>;
}

export interface IngestionAdmin {
  ingestionStats(organizationId?: string): readonly IngestionSourceStats[];
  /** Processes what is due at the engine clock's time; returns the actions created or updated. */
  flushIngestion(): SettleReport;
}

/**
 * @example
 * createIngestionAdmin(host).ingestionStats('org_acme');
 */
export function createIngestionAdmin(host: IngestionAdminHost): IngestionAdmin {
  return {
    ingestionStats: (organizationId) => ingestionStats(host.state.ingestion, organizationId),
    flushIngestion: () => settleIngestion(host.state.ingestion, host.state.data),
  };
}

export const ingestionAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/ingestion/stats',
    summary: 'Ingested records per organization, source and processing level (STATS_ONLY records count here)',
    handle: ({ state, query }) =>
      ok({
        sources: createIngestionAdmin({ state }).ingestionStats(query.get('organizationId') ?? undefined),
      }),
  },
  {
    method: 'POST',
    path: '/__mock/ingestion/flush',
    summary: 'Process every ingestion batch that is due at the engine clock now',
    handle: ({ state }) => ok(createIngestionAdmin({ state }).flushIngestion()),
  },
];
