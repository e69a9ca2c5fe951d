/**
 * User-defined data for the mock: the data file format (contract/data.schema.json), its validation,
 * loading, export and a typed builder for tests. See docs/data-format.md.
 *
 * @example
 * import { scenario } from 'cca-kit/mock';
 * const engine = createEngine({ data: scenario().organization('org_demo').action({ title: 'Refund' }).build() });
 */
export { createDataAdmin, type DataAdmin, type DataLoadOutcome } from './admin-ops.ts';
export { applyDataFile, existingStateOf } from './apply.ts';
export {
  type ActionDraft,
  agentSays,
  type MessageDraft,
  type ModerationCaseDraft,
  type ReplyRequestDraft,
  ScenarioBuilder,
  scenario,
  userSays,
} from './builder.ts';
export { DataBaseline } from './data-baseline.ts';
export { exportDataFile } from './export.ts';
export { type ExistingState, NOTHING_EXISTS } from './references.ts';
export { dataFileSchema } from './schema.ts';
export { resolveTimestamp } from './time.ts';
export type * from './types.ts';
export {
  checkDataFile,
  type DataFileCheck,
  DataFileError,
  formatProblems,
  isDataFileError,
  MAX_DATA_FILE_BYTES,
  parseDataFile,
} from './validate.ts';
