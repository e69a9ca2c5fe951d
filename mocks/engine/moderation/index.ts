/**
 * The moderation slice: intake (single and batch), the lifecycle on the engine clock, the decision
 * engine, the status read and the admin operations. See docs/write-side.md.
 */
export { type BatchResult, batchResultOf, submitBatch } from './batch.ts';
export {
  canonicalJson,
  contentFingerprint,
  fingerprintOfCanonical,
  fnv1a64,
  type JsonValue,
} from './canonical.ts';
export {
  AGE_RESTRICTED_TERMS,
  decide,
  FAIL_TRIGGER,
  FAILURE_CODE_FAIL_CLOSED,
  FAILURE_CODE_TIMEOUT,
  FLAGGED_MEDIA_MARKER,
  PROHIBITED_CLAIMS,
  TEXT_FIELDS,
} from './decide.ts';
export { type FieldLists, fieldLists, ROOT_FIELD, type SchemaIssue } from './fields.ts';
export { currentEvaluation, submitCase } from './intake.ts';
export { sampleSubmission } from './sample.ts';
export { DEFAULT_LATENCY, type Latency, type LatencyOption, normalizeLatency } from './scheduler.ts';
export {
  activeWorkflow,
  createModerationState,
  type ModerationState,
  type ModerationStateOptions,
} from './state.ts';
export {
  activatePolicy,
  type CaseSummary,
  deactivatePolicy,
  listCases,
  readCaseStatus,
  type StepResult,
  stepCase,
} from './status.ts';
export type * from './types.ts';
