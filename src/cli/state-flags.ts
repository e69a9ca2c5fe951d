/**
 * `--state-file` and `--state` of `cca-kit mock`: open the store before the engine exists (its origin
 * sets the clock), then build the engine on it. The Redis client is imported only when asked for.
 */
import type { EngineOptions } from '../../mocks/engine/options.ts';
import type { PersistentEngine } from '../../mocks/engine/store/open.ts';
import type { LoadProgress } from '../../mocks/engine/store/types.ts';
import { UsageError } from './io.ts';

export interface OpenedState extends PersistentEngine {
  /** One line for the start-up message. */
  readonly summary: string;
}

/** Commands between snapshots: `CCA_MOCK_SNAPSHOT_EVERY` (0: never; a reset still compacts). */
export function snapshotEveryOf(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const every = Number(raw);
  if (!Number.isInteger(every) || every < 0)
    throw new UsageError(`CCA_MOCK_SNAPSHOT_EVERY must be a whole number >= 0 (got ${JSON.stringify(raw)})`);
  return every;
}

/** Where a snapshot's image is captured: `CCA_MOCK_COMPACTION` (`replica`, the default, or `inline`). */
export function compactionCaptureOf(raw: string | undefined): 'replica' | 'inline' {
  if (raw === undefined || raw.trim() === '') return 'replica';
  if (raw === 'replica' || raw === 'inline') return raw;
  throw new UsageError(`CCA_MOCK_COMPACTION must be replica or inline (got ${JSON.stringify(raw)})`);
}

/** Undefined when neither flag is given: the engine stays in memory. */
export async function openPersistentState(
  file: string | undefined,
  url: string | undefined,
  options: EngineOptions & { readonly clock: 'real' | 'frozen' },
  progress?: LoadProgress,
  snapshotEvery?: number,
  /** `inline`: a snapshot's image is captured on the event loop, never by a replica in a worker. */
  capture: 'replica' | 'inline' = 'replica',
): Promise<OpenedState | undefined> {
  if (file !== undefined && url !== undefined)
    throw new UsageError('--state-file and --state are alternatives: give one of them');
  if (file === undefined && url === undefined) return undefined;
  const inline = capture === 'inline';
  const { createPersistentEngine } = await import('../../mocks/engine/store/open.ts');
  if (file !== undefined) {
    if (file === '') throw new UsageError('--state-file needs a file path');
    const { openStateFile } = await import('../../mocks/engine/store/file.ts');
    const opened = await createPersistentEngine(
      options,
      (describe, proposal, replica) =>
        openStateFile(file, describe, proposal, {
          ...(snapshotEvery === undefined ? {} : { snapshotEvery }),
          ...(inline ? {} : { replica }),
        }),
      progress,
    );
    const health = await opened.store.health();
    const from =
      health.snapshot === null || health.snapshot === undefined
        ? ''
        : `snapshot at ${health.snapshot.position}, `;
    return {
      ...opened,
      summary: `file ${file} (${from}${health.position} writes in all; concurrent writes share a flush, flushes overlap)`,
    };
  }
  const { openRedisStore, parseRedisLocation } = await import('../../mocks/engine/store/redis.ts');
  const location = parseRedisLocation(url ?? '');
  if (typeof location === 'string') throw new UsageError(location);
  const opened = await createPersistentEngine(
    options,
    (describe, proposal, replica) =>
      openRedisStore(location, describe, proposal, {
        ...(snapshotEvery === undefined ? {} : { snapshotEvery }),
        ...(inline ? {} : { replica }),
      }),
    progress,
  );
  const health = await opened.store.health();
  return {
    ...opened,
    summary: `redis ${location.display} stream ${location.prefix}:log (${health.position} writes applied)`,
  };
}
