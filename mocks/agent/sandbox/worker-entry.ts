/**
 * Where the sandbox worker's code is (`worker.js` compiled beside this module, or `worker.ts` in a
 * source checkout) and how to start it: `mocks/engine/worker-entry.ts`.
 */
import { type WorkerEntry, workerEntryBeside } from '../../engine/worker-entry.ts';

export type { WorkerEntry } from '../../engine/worker-entry.ts';

let cached: WorkerEntry | undefined;

export function workerEntry(): WorkerEntry {
  cached ??= workerEntryBeside(
    new URL('./worker.js', import.meta.url),
    new URL('./worker.ts', import.meta.url),
  );
  return cached;
}
