/**
 * Where the command log lives. The engine applies every write through one store (WireMock's `Stores`
 * is the model): in memory by default, a file (`--state-file`), or a Redis Stream shared by replicas
 * (`--state redis://`). A store appends a command to its log and applies it, with every entry before
 * it, in log order, through the `ApplyEntry` it was opened with; it never changes the state itself.
 */
import type { MockClock } from '../clock.ts';
import type { Applied, LoggedCommand } from '../commands/types.ts';
import type { EngineState } from '../state.ts';
import type { StateOrigin } from './origin.ts';

export type { Applied } from '../commands/types.ts';

/** Applies one logged command to the engine (never throws: a refusal is an outcome). */
export type ApplyEntry = (entry: LoggedCommand) => Applied;

/** The engine as a snapshot sees it: its state, its clock's offset and the last real time applied. */
export interface EngineImage {
  readonly state: EngineState;
  readonly clock: MockClock;
  readonly lastReal: number;
  /** What `advance`/`set`/`reset` added to the clock. */
  readonly clockOffset: number;
}

/** Lets a store take the engine's image (to write a snapshot) and put one back (to load it). */
export interface ImageAccess {
  take(): EngineImage;
  put(image: EngineImage): void;
}

/** How far start-up has got (the 503 a port answers until the state is loaded names it). */
export interface LoadProgress {
  phase: 'opening' | 'snapshot' | 'replay' | 'ready';
  /** Log entries applied so far, and how many there are to apply (null while unknown). */
  applied: number;
  total: number | null;
}

/** What a replica says of itself: the store's state as `GET /__mock/health` reports it. */
export type ReplicaStatus = 'starting' | 'ready' | 'behind' | 'diverged';

export type StoreKind = 'memory' | 'file' | 'redis';

/** What `GET /__mock/health` reports of the store. */
export interface StoreHealth {
  readonly store: StoreKind;
  /** Where the log is (file path, Redis URL without password); null in memory. */
  readonly location: string | null;
  /** Entries of the log this replica has applied (including those replayed at start). */
  readonly position: number;
  /** Entries in the log as last seen; null when it cannot be read now. */
  readonly logLength: number | null;
  /** `logLength - position`; null when unknown. */
  readonly lag: number | null;
  /** False while a shared store cannot be reached (writes answer 503, reads answer from local state). */
  readonly connected: boolean;
  readonly lastError: string | null;
  /** The identity of the log (created with it); null for a log from before epochs, or in memory. */
  readonly epoch?: string | null;
  /** Set when this replica stopped serving shared state: what it saw (restart it to rebuild). */
  readonly diverged?: string | null;
  /** The latest snapshot this replica wrote or loaded: its log position and when. */
  readonly snapshot?: { readonly position: number; readonly at: string } | null;
  /** A shared store: the id of the last entry applied. */
  readonly lastEntryId?: string;
  /** A file store: disk flushes made so far (fewer than writes when concurrent writes share one). */
  readonly flushes?: number;
  /**
   * Where a snapshot's image is captured. `replica` while a worker thread follows the log
   * (`compaction-replica.ts`), `replica loading` while it loads (a capture due then is made on the
   * event loop); `event loop` without one, or once it failed (`replicaFailure` says why).
   */
  readonly capture?: 'replica' | 'replica loading' | 'event loop';
  readonly replicaFailure?: string | null;
  /** Images captured on the event loop since the start (each held it for the whole capture). */
  readonly eventLoopCaptures?: number;
  /** A shared store: what reading the log's end before requests costs. */
  readonly catchUp?: { readonly reads: number; readonly meanMs: number; readonly maxMs: number };
}

export interface CommandStore {
  readonly kind: StoreKind;
  /**
   * True when `write` answers synchronously (memory, file): the typed admin API (`engine.admin`) can
   * then make writes without awaiting. A shared store needs `engine.execute`.
   */
  readonly synchronous: boolean;
  /**
   * Appends the command, applies the log up to it and returns its outcome. Throws
   * `StoreUnavailableError` when nothing was appended, `OutcomeUnknownError` when it may have been.
   */
  write(entry: LoggedCommand): Applied | Promise<Applied>;
  /**
   * Applies every entry appended before the call (a shared store reads its log's end); undefined when
   * nothing can have been appended elsewhere. An unreachable store leaves local state (no rejection);
   * it rejects only with a `StoreDivergedError`, once the replica lost its log's thread.
   */
  catchUp(): Promise<void> | undefined;
  health(): StoreHealth | Promise<StoreHealth>;
  close(): Promise<void>;
}

/** A store backend before it is bound to an engine: its origin is known, its log not yet applied. */
export interface PendingStore {
  readonly origin: StateOrigin;
  readonly notes: readonly string[];
  attach(
    apply: ApplyEntry,
    image: ImageAccess,
    progress?: LoadProgress,
  ): CommandStore | Promise<CommandStore>;
}

/** The store cannot take a write now: the engine answers 503 and nothing was changed. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code: string = 'STORE_UNAVAILABLE';
}

/**
 * The replica saw its log replaced or cut (another epoch, fewer entries than it applied, a position it
 * cannot read): it serves no shared state until restarted. Answered 503 naming what it saw.
 */
export class StoreDivergedError extends StoreUnavailableError {
  override readonly code = 'STORE_DIVERGED';
}

export const isStoreUnavailable = (value: unknown): value is StoreUnavailableError =>
  value instanceof StoreUnavailableError;

/**
 * The command reached the log, or may have (Redis took it and the answer was lost, or its read-back
 * failed): every replica applies what the log holds, so the client is told the outcome is unknown and
 * to read before retrying, never that nothing was changed.
 */
export class OutcomeUnknownError extends Error {
  override readonly name = 'OutcomeUnknownError';
  readonly code = 'OUTCOME_UNKNOWN';
  /** True when the command is known to be in the log (it will be applied); false when it may be. */
  readonly inLog: boolean;
  /** What the client reads to learn whether it was applied (`readBeforeRetry` of the command). */
  readonly read: string;
  constructor(message: string, inLog: boolean, read: string) {
    super(message);
    this.inLog = inLog;
    this.read = read;
  }
}

export const isOutcomeUnknown = (value: unknown): value is OutcomeUnknownError =>
  value instanceof OutcomeUnknownError;
