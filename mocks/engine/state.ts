/**
 * The engine state: one object composed from the slices' own factories. Two engines never share it;
 * `reset` builds a new one from the same options.
 */
import { generateDataset } from '../../fixtures/index.ts';
import { type AuthState, createAuthState, type KeyValues } from './auth/index.ts';
import type { MockClock } from './clock.ts';
import { type DataBaseline, emptyDataset } from './data-file/data-baseline.ts';
import { missingPart } from './errors.ts';
import { createIngestionState, type IngestionState, type IngestionStateOptions } from './ingestion/index.ts';
import {
  createModerationState,
  type ModerationState,
  type ModerationStateOptions,
} from './moderation/index.ts';
import { createDataState, type DataState } from './records/index.ts';
import { createRepliesState, type RepliesState } from './replies/state.ts';
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

/** The options the state is built from: the state's share of the normalised options (`options.ts`). */
export interface StateOptions {
  readonly seed: number | string;
  readonly actions: number;
  /** The generated set (or not) and the data files: what start-up and reset load. */
  readonly data: DataBaseline;
  /** The key values the engine has seen: kept across resets, never in the state's bytes (`KeyValues`). */
  readonly keyValues: KeyValues;
  readonly clock: MockClock;
  readonly searchCap: number;
  readonly rememberAnswers: boolean;
  readonly adminToken: string | null;
  readonly moderation: Omit<ModerationStateOptions, 'clock'>;
  readonly ingestion: Omit<IngestionStateOptions, 'clock'>;
}

/** Checks and applies every file of the baseline to a freshly built state (throws `DataFileError`). */
export type BaselineLoader = (state: EngineState, baseline: DataBaseline, anchor: number) => void;

/**
 * Builds the state of a fresh engine: the seeded data set anchored at the clock's current time, then
 * the data files through the data-file part's loader (an engine without it refuses files).
 */
export function createEngineState(
  options: StateOptions,
  loadBaseline: BaselineLoader | undefined,
  idEpoch?: string,
): EngineState {
  if (options.data.files.length > 0 && loadBaseline === undefined)
    throw new Error(missingPart('Data files', 'dataFiles'));
  const clock = options.clock;
  const dataset = options.data.generated
    ? generateDataset({ seed: options.seed, actions: options.actions, anchor: clock.now() })
    : emptyDataset(options.seed, clock.now());
  const organizations = new Map(dataset.organizations.map((org) => [org.id, org]));
  const state: EngineState = {
    organizations,
    keys: createAuthState(dataset.keys, options.seed, options.keyValues),
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
  loadBaseline?.(state, options.data, dataset.anchor);
  return state;
}
