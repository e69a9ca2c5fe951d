/**
 * The ingestion slice: intake by record identity, processing on the engine clock, and the mapping of
 * ingested threads to actions of the records slice. See docs/write-side.md.
 */
export { type IngestionBatchInput, type IngestReceipt, ingestBatch, readBatch } from './intake.ts';
export {
  hasPending,
  type IngestedThread,
  type ThreadMessage,
  takeDueThreads,
  threadIdOf,
} from './process.ts';
export {
  type IngestionSourceStats,
  ingestionStats,
  type SettleReport,
  scheduleSettle,
  settleIngestion,
} from './settle.ts';
export {
  createIngestionState,
  DEFAULT_INGESTION_LATENCY_MS,
  type IngestionLatencyOption,
  type IngestionRecordInput,
  type IngestionState,
  type IngestionStateOptions,
  identityKey,
  type ProcessingLevel,
  type RecordIdentity,
} from './state.ts';
export { ingestedActionId, TITLE_FROM_BODY_MAX, threadToAction } from './to-action.ts';
