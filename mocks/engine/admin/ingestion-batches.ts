/**
 * `GET /__mock/ingestion/batches[?organizationId=]`: the ingestion batches the journal saw accepted,
 * newest first, and what became of each record: still waiting for processing, an action (with its
 * id), counted only (STATS_ONLY), or no longer stored (after a reset or a data file replace). The
 * batches come from the request journal, so the ingestion slice keeps no history for the dashboard.
 */
import { type IngestionState, identityKey, ingestedActionId, threadIdOf } from '../ingestion/index.ts';
import type { JournalSummary } from '../journal/index.ts';
import { installedJournal } from './journal.ts';
import { type AdminRoute, ok } from './route.ts';

export type RecordFate =
  | { readonly externalId: string; readonly fate: 'pending'; readonly dueAt: string | null }
  | { readonly externalId: string; readonly fate: 'action'; readonly actionId: string }
  | { readonly externalId: string; readonly fate: 'stats-only' }
  | { readonly externalId: string; readonly fate: 'not-stored' };

export interface BatchView {
  /** The journal entry of the request that brought the batch. */
  readonly seq: number;
  readonly at: string;
  readonly organizationId: string;
  readonly platform: string;
  readonly serverId: string;
  readonly processingLevel: string;
  /** Null when the journal kept only part of the body (a batch larger than its body limit). */
  readonly records: readonly RecordFate[] | null;
}

interface BatchBody {
  readonly platform?: unknown;
  readonly serverId?: unknown;
  readonly processingLevel?: unknown;
  readonly records?: unknown;
}

function fateOf(
  state: IngestionState,
  organizationId: string,
  platform: string,
  serverId: string,
  externalId: string,
): RecordFate {
  const stored = state.records.get(identityKey({ organizationId, platform, serverId, externalId }));
  if (stored === undefined) return { externalId, fate: 'not-stored' };
  if (stored.processedRevision < stored.revision) {
    const due = state.pending.find((batch) => batch.keys.includes(stored.key))?.dueAt;
    return { externalId, fate: 'pending', dueAt: due === undefined ? null : new Date(due).toISOString() };
  }
  if (stored.origin.processingLevel === 'STATS_ONLY') return { externalId, fate: 'stats-only' };
  return {
    externalId,
    fate: 'action',
    actionId: ingestedActionId({ platform, serverId, threadExternalId: threadIdOf(stored) }),
  };
}

function batchOf(
  summary: JournalSummary,
  text: string | null,
  truncated: boolean,
  state: IngestionState,
): BatchView | undefined {
  if (summary.organizationId === null || text === null) return undefined;
  let body: BatchBody;
  try {
    body = truncated ? {} : (JSON.parse(text) as BatchBody);
  } catch {
    return undefined;
  }
  const platform = typeof body.platform === 'string' ? body.platform : '';
  const serverId = typeof body.serverId === 'string' ? body.serverId : '';
  const organizationId = summary.organizationId;
  const records = Array.isArray(body.records)
    ? body.records.flatMap((record: unknown) => {
        const id = (record as { externalId?: unknown } | null)?.externalId;
        return typeof id === 'string' ? [fateOf(state, organizationId, platform, serverId, id)] : [];
      })
    : null;
  return {
    seq: summary.seq,
    at: summary.at,
    organizationId,
    platform,
    serverId,
    processingLevel: typeof body.processingLevel === 'string' ? body.processingLevel : 'INSIGHTS',
    records: truncated ? null : records,
  };
}

export const ingestionBatchAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/ingestion/batches',
    summary:
      'Accepted ingestion batches (from the request journal), newest first, and what became of each record: pending, action, stats-only, not-stored',
    handle: ({ api, state, query }) => {
      const journal = installedJournal(api);
      const organizationId = query.get('organizationId') ?? undefined;
      const batches: BatchView[] = [];
      for (const summary of journal.list({
        operation: 'ingestRecords',
        status: '2xx',
        ...(organizationId === undefined ? {} : { organizationId }),
      })) {
        const entry = journal.get(summary.seq);
        if (entry === undefined) continue;
        const batch = batchOf(
          summary,
          entry.request.body.text,
          entry.request.body.truncated,
          state.ingestion,
        );
        if (batch !== undefined) batches.push(batch);
      }
      return ok({ batches: batches.reverse(), pendingBatches: state.ingestion.pending.length });
    },
  },
];
