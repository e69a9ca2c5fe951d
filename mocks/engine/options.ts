/**
 * Engine options, normalised once into a complete object (defaults checked with `satisfies`) and
 * rejected at construction with a clear message when invalid.
 */

import type { ChoiceName, Choices } from '../../src/contract/choice-points.ts';
import type { Contract } from '../../src/contract/index.ts';
import { KeyValues } from './auth/index.ts';
import { DEFAULT_CHOICES } from './choices/defaults.ts';
import type { ChoicesOption } from './choices/index.ts';
import { MockClock, realTimeClock } from './clock.ts';
import { DataBaseline } from './data-file/data-baseline.ts';
import { withKeyHashes } from './data-file/key-hashes.ts';
import type { DataFile } from './data-file/types.ts';
import { missingPart } from './errors.ts';
import type { IngestionStateOptions } from './ingestion/index.ts';
import type { EngineInterceptor } from './interceptors.ts';
import type { ModerationStateOptions } from './moderation/index.ts';
import type { EngineParts } from './parts.ts';
import type { StateOptions } from './state.ts';

export interface EngineOptions {
  /** PRNG seed of the data set and of generated ids. Default 42. */
  readonly seed?: number | string;
  /** Number of seeded actions over all organizations. Default 2000. */
  readonly actions?: number;
  /**
   * Data files (docs/data-format.md), applied in order. Alone they replace the generated set; with an
   * explicit `seed` or `actions` the generated set lies under them (the files win on an id clash).
   * A file with any problem makes `createEngine` throw a `DataFileError` listing them.
   */
  readonly data?: DataFile | readonly DataFile[];
  /**
   * `'real'` (default): follows real time from start-up and can still be advanced or set.
   * `'frozen'`: stands still at start-up time until advanced or set. Or a `MockClock` of your own.
   */
  readonly clock?: 'real' | 'frozen' | MockClock;
  /** Validate every response against the contract; a mismatch becomes a 500 and is recorded. Default false. */
  readonly selfCheck?: boolean;
  /** Cap of conversation search's `totalRecords` (`totalRecordsCapped` beyond). Default 10000. */
  readonly searchCap?: number;
  /**
   * What the mock does where the spec leaves a deployment free to choose (`mocks/engine/choices/`,
   * docs/contract.md, "Where the spec is silent"). Unset points keep their defaults.
   */
  readonly choices?: ChoicesOption;
  /**
   * Remember the serialised answers of list, search and tag analytics per window range and parameters
   * until a row changes (`mocks/engine/records/answer-cache.ts`). Default true; false computes every read.
   */
  readonly rememberAnswers?: boolean;
  /** Largest accepted request body in bytes (413 beyond). Default 1 MiB. */
  readonly maxBodyBytes?: number;
  /** Token that opens the admin API to non-loopback clients (header `X-Mock-Admin-Token`). Default none. */
  readonly adminToken?: string | null;
  /** Passed to the moderation slice (latency, policy...). */
  readonly moderation?: Omit<ModerationStateOptions, 'clock'>;
  /** Passed to the ingestion slice (latency). */
  readonly ingestion?: Omit<IngestionStateOptions, 'clock'>;
  /** Where `/docs` loads the Swagger UI assets from. Default `/docs/` (served by the HTTP adapter). */
  readonly swaggerUiAssetsBase?: string;
  /** Observers of the pipeline (violation log, chaos modes). Default none. */
  readonly interceptors?: readonly EngineInterceptor[];
  /** Another contract (tests of the engine itself). Default: `contract/openapi.json`. */
  readonly contract?: Contract;
  /**
   * Real time (epoch ms) the first state is built at. A persistent store (`--state-file`, `--state`)
   * sets it to its log's origin so a restart or another replica builds the same state; default now.
   */
  readonly origin?: number;
  /**
   * A persistent log's epoch: mixed into the seed of generated ids (caseId, evaluationId, workflow
   * ids), so a log started again after a wipe never hands out an id the old one gave other content.
   */
  readonly idEpoch?: string;
}

/** Every option with its value: the state's (seed, actions, data, clock...) and the pipeline's. */
export interface NormalizedEngineOptions extends StateOptions {
  readonly selfCheck: boolean;
  /** Every choice point with its value (`totalRecordsCap` agrees with `searchCap`). */
  readonly choices: Choices;
  readonly maxBodyBytes: number;
  readonly swaggerUiAssetsBase: string;
  readonly interceptors: readonly EngineInterceptor[];
}

export const ENGINE_DEFAULTS = {
  seed: 42,
  actions: 2000,
  selfCheck: false,
  searchCap: 10_000,
  rememberAnswers: true,
  maxBodyBytes: 1024 * 1024,
  adminToken: null,
  swaggerUiAssetsBase: '/docs/',
  choices: DEFAULT_CHOICES,
} as const satisfies Partial<NormalizedEngineOptions>;

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer (got ${value})`);
  return value;
}

/** The moderation latency each `moderationTimings` choice stands for (`default`: the option as given). */
const TIMINGS = {
  instant: 'instant',
  slow: { runningAfterMs: 10_000, completedAfterMs: 30_000 },
} as const;

/**
 * Folds the choices that act through other options (the search cap, the moderation latency) into
 * them; the same setting given twice with different values is refused.
 */
function withChoices(
  options: EngineOptions,
  parts: EngineParts,
): {
  choices: Choices;
  searchCap: number;
  moderation: Omit<ModerationStateOptions, 'clock'>;
} {
  const chosen = parts.choices?.normalize(options.choices) ?? defaultsOnly(options.choices);
  const capChosen = options.choices?.totalRecordsCap !== undefined;
  const cap = capChosen ? Number(chosen.totalRecordsCap) : (options.searchCap ?? ENGINE_DEFAULTS.searchCap);
  if (capChosen && options.searchCap !== undefined && options.searchCap !== cap)
    throw new RangeError(
      `searchCap ${options.searchCap} and choice totalRecordsCap=${chosen.totalRecordsCap} disagree; give one`,
    );
  const moderation = options.moderation ?? {};
  const timing = chosen.moderationTimings;
  if (timing !== 'default' && moderation.latency !== undefined)
    throw new RangeError(`moderation.latency and choice moderationTimings=${timing} disagree; give one`);
  return {
    choices: { ...chosen, totalRecordsCap: String(positiveInteger('searchCap', cap)) },
    searchCap: cap,
    moderation: timing === 'default' ? moderation : { ...moderation, latency: TIMINGS[timing] },
  };
}

/** Without the choices part only the defaults can be had: any other value names the opt-in. */
function defaultsOnly(option: ChoicesOption | undefined): Choices {
  for (const [name, value] of Object.entries(option ?? {})) {
    if (value !== undefined && value !== DEFAULT_CHOICES[name as ChoiceName])
      throw new RangeError(`${missingPart('Choices', 'choices')} (asked: ${name}=${value})`);
  }
  return DEFAULT_CHOICES;
}

/** The options with every default filled in; `parts` are the engine's optional parts (`parts.ts`). */
export function normalizeOptions(
  options: EngineOptions = {},
  parts: EngineParts = {},
): NormalizedEngineOptions {
  const actions = options.actions ?? ENGINE_DEFAULTS.actions;
  if (!Number.isSafeInteger(actions) || actions < 0) {
    throw new RangeError(`actions must be a non-negative integer (got ${actions})`);
  }
  const clockOption = options.clock ?? 'real';
  const clock =
    clockOption === 'real'
      ? realTimeClock()
      : clockOption === 'frozen'
        ? new MockClock({ start: realTimeClock().now() })
        : clockOption;
  if (!(clock instanceof MockClock)) throw new TypeError("clock must be 'real', 'frozen' or a MockClock");
  const adminToken = options.adminToken ?? ENGINE_DEFAULTS.adminToken;
  if (adminToken !== null && adminToken.length < 8)
    throw new RangeError('adminToken must have at least 8 characters');
  const files = options.data === undefined ? [] : Array.isArray(options.data) ? options.data : [options.data];
  const generated = options.data === undefined || options.seed !== undefined || options.actions !== undefined;
  const chosen = withChoices(options, parts);
  const keyValues = new KeyValues();
  return {
    seed: options.seed ?? ENGINE_DEFAULTS.seed,
    actions: generated ? actions : 0,
    // The baseline is part of the state (and so of a snapshot): its files hold key hashes, not values.
    data: new DataBaseline(
      generated,
      files.map((file) => withKeyHashes(file, keyValues) as DataFile),
    ),
    keyValues,
    clock,
    selfCheck: options.selfCheck ?? ENGINE_DEFAULTS.selfCheck,
    searchCap: chosen.searchCap,
    choices: chosen.choices,
    rememberAnswers: options.rememberAnswers ?? ENGINE_DEFAULTS.rememberAnswers,
    maxBodyBytes: positiveInteger('maxBodyBytes', options.maxBodyBytes ?? ENGINE_DEFAULTS.maxBodyBytes),
    adminToken,
    moderation: chosen.moderation,
    ingestion: options.ingestion ?? {},
    swaggerUiAssetsBase: options.swaggerUiAssetsBase ?? ENGINE_DEFAULTS.swaggerUiAssetsBase,
    interceptors: options.interceptors ?? [],
  };
}
