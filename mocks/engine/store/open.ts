/**
 * Starts an engine on a persistent store: reads (or sets) the log's origin, refuses a log of another
 * origin, builds the state at the origin's time on a clock every replica shares, then replays the log.
 * Node only; `cca-kit mock --state-file` and `--state redis://` call it.
 */
import { MockClock } from '../clock.ts';
import { createEngine, type Engine } from '../engine.ts';
import { FULL_PARTS } from '../full-parts.ts';
import { type EngineOptions, normalizeOptions } from '../options.ts';
import type { ReplicaSetup } from './compaction-replica.ts';
import { describeOrigin, newOrigin, type StateOrigin } from './origin.ts';
import type { CommandStore, LoadProgress, PendingStore } from './types.ts';

export type { PendingStore } from './types.ts';

export interface PersistentEngine {
  readonly engine: Engine;
  readonly store: CommandStore;
  readonly origin: StateOrigin;
  readonly notes: readonly string[];
}

export type PersistentOptions = EngineOptions & { readonly clock?: 'real' | 'frozen' };

/**
 * The engine of a log's origin: its state built at the origin's time, on a clock that reads the same
 * on every replica at the same real time. A compaction replica builds its own the same way.
 */
export function engineOnOrigin(options: PersistentOptions, origin: StateOrigin): Engine {
  const mode = options.clock ?? 'real';
  const start = origin.clockStart;
  // now = start + (real - start) + offset: every replica's clock reads the same at the same real time.
  const clock = new MockClock({ start, running: mode === 'real', realStart: start });
  return createEngine({
    ...options,
    clock,
    origin: start,
    ...(origin.epoch === undefined ? {} : { idEpoch: origin.epoch }),
  });
}

/**
 * @example
 * const { engine } = await createPersistentEngine({ seed: 42, clock: 'real' }, (describe, proposal) =>
 *   openStateFile('sandbox.state', describe, proposal));
 */
export async function createPersistentEngine(
  options: PersistentOptions,
  open: (
    describe: ReturnType<typeof describeOrigin>,
    proposal: StateOrigin,
    /** What a compaction replica needs to build the same state in a worker (`compaction-replica.ts`). */
    replica: ReplicaSetup,
  ) => PendingStore | Promise<PendingStore>,
  progress: LoadProgress = { phase: 'opening', applied: 0, total: null },
): Promise<PersistentEngine> {
  const mode = options.clock ?? 'real';
  const describe = describeOrigin(normalizeOptions({ ...options, clock: 'frozen' }, FULL_PARTS), mode);
  // The interceptors observe requests (journal, chaos) and never shape the state a command builds.
  const { interceptors: _, ...stateOptions } = options;
  const pending = await open(describe, newOrigin(describe, Date.now()), { options: stateOptions });
  const engine = engineOnOrigin(options, pending.origin);
  const store = await engine.useStore((apply, image) => pending.attach(apply, image, progress));
  progress.phase = 'ready';
  return { engine, store, origin: pending.origin, notes: pending.notes };
}
