/**
 * The engine state: one object composed from the slices' own factories. Two engines never share it;
 * `reset` builds a new one from the same options.
 */
import { generateDataset } from '../../fixtures/index.ts';
import { type AuthState, createAuthState } from './auth/index.ts';
import { createDataState, type DataState } from './data/index.ts';
import { type DataBaseline, emptyDataset } from './data-file/data-baseline.ts';
import { missingPart } from './errors.ts';
import { createIngestionState, type IngestionState } from './ingestion/index.ts';
import { createModerationState, type ModerationState } from './moderation/index.ts';
import type { NormalizedEngineOptions } from './options.ts';
import type { EngineParts } from './parts.ts';
import { createRepliesState, type RepliesState } from './replies/index.ts';
import { createSavedSearchState, type SavedSearchState } from './saved-searches/index.ts';
import type { Organization } from './types.ts';

export interface EngineState {
  /** Organizations by id; `moderationMode` is mutable through the admin API; data files add some. */
  readonly organizations: Map<string, Organization>;
  readonly keys: AuthState;
  readonly data: DataState;
  readonly moderation: ModerationState;
  readonly ingestion: IngestionState;
  /** Reply requests of the agent interface (`./replies/`). */
  readonly replies: RepliesState;
  /** Saved searches of the agent interface, per organization (`./saved-searches/`). */
  readonly savedSearches: SavedSearchState;
  /** What was loaded (generated set, data files): what reset returns to. Shared across resets. */
  readonly loaded: DataBaseline;
}

/**
 * Builds the state of a fresh engine: the seeded data set anchored at the clock's current time, then
 * the data files through the data-file part (an engine without it refuses files).
 */
export function createEngineState(
  options: NormalizedEngineOptions,
  parts: EngineParts,
  idEpoch?: string,
): EngineState {
  if (options.data.files.length > 0 && parts.dataFiles === undefined)
    throw new Error(missingPart('Data files', 'dataFiles'));
  const clock = options.clock;
  const dataset = options.data.generated
    ? generateDataset({ seed: options.seed, actions: options.actions, anchor: clock.now() })
    : emptyDataset(options.seed, clock.now());
  const organizations = new Map(dataset.organizations.map((org) => [org.id, org]));
  const state: EngineState = {
    organizations,
    keys: createAuthState(dataset.keys, options.seed),
    data: createDataState({
      clock,
      dataset,
      searchCap: options.searchCap,
      rememberAnswers: options.rememberAnswers,
    }),
    moderation: createModerationState({
      seed: idEpoch === undefined ? options.seed : `${String(options.seed)}~${idEpoch}`,
      ...options.moderation,
      clock,
    }),
    ingestion: createIngestionState({ ...options.ingestion, clock }),
    replies: createRepliesState({ seed: options.seed, adminToken: options.adminToken }),
    savedSearches: createSavedSearchState(),
    loaded: options.data,
  };
  parts.dataFiles?.loadBaseline(state, options.data, dataset.anchor);
  return state;
}
