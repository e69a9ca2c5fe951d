/** What `cca-kit/msw` exports besides `createHandlers`, the same in node and in a browser build. */
export {
  type KeyFixture,
  SEEDED_KEYS,
  type SeededKeyQuery,
  seededKey,
  seededKeys,
} from '../../fixtures/seeded-keys.ts';
export type { FaultsAdmin } from '../engine/admin/api.ts';
export type { ChaosOptions } from '../engine/chaos/index.ts';
export { type FaultInput, FaultInputError, type FaultView } from '../engine/faults/index.ts';
export {
  createJournal,
  type Journal,
  type JournalEntry,
  type JournalFilter,
  type JournalOptions,
  type JournalSummary,
  journalOf,
} from '../engine/journal/index.ts';
export type { EngineOptions } from '../engine/options.ts';
export {
  type ExpectNoViolationsOptions,
  expectNoViolations,
  isViolationError,
  type Violation,
  ViolationError,
  type ViolationFilter,
  type ViolationIssue,
  type ViolationKind,
  type ViolationLogOptions,
  type ViolationSeverity,
  type ViolationSource,
} from '../engine/violations/index.ts';
export type { CreateHandlersOptions, MockAdmin, MockHandlers } from './create.ts';
export type { FeatureName, MswFeature } from './feature.ts';
