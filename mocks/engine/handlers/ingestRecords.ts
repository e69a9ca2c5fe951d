/**
 * POST /v0/ingest/records (spec 4.17). Scope (`ingest`) and body validation (422 naming the field) are
 * the pipeline's. Every record is stored by identity at once; processing into actions follows on the
 * engine clock (immediately with `latency: 'instant'`). The write is the `ingestion.batch` command.
 */

import { readBatch } from '../ingestion/intake.ts';
import type { IngestionState } from '../ingestion/state.ts';
import type { DataState } from '../records/state.ts';
import type { Handler } from './context.ts';

export const ingestRecords: Handler<{
  readonly ingestion: IngestionState;
  readonly data: DataState;
}> = async (ctx) => {
  const read = readBatch(ctx.body);
  if (!read.ok) {
    return {
      status: 422,
      body: { success: false, error: `Invalid ingestion batch: ${read.field} is invalid` },
    };
  }
  const receipt = await ctx.execute({
    type: 'ingestion.batch',
    organizationId: ctx.organization.id,
    batch: read.batch,
  });
  return { status: 202, body: { status: 'accepted', accepted: receipt.accepted } };
};
