/**
 * Replays logged commands in steps that give the event loop back, so a port opened during start-up
 * can answer its 503 (with the progress) while a long log is applied.
 */
import type { LoggedCommand } from '../commands/types.ts';
import type { ApplyEntry, LoadProgress } from './types.ts';

const STEP_MS = 50;

/** Applies `total` entries (an array, or lines parsed as they are read). */
export async function replayInSteps(
  entries: Iterable<LoggedCommand>,
  total: number,
  apply: ApplyEntry,
  progress?: LoadProgress,
): Promise<void> {
  if (progress !== undefined) {
    progress.phase = 'replay';
    progress.applied = 0;
    progress.total = total;
  }
  let stepStarted = performance.now();
  let index = 0;
  for (const entry of entries) {
    apply(entry);
    if ((index & 255) === 255 && performance.now() - stepStarted > STEP_MS) {
      if (progress !== undefined) progress.applied = index + 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
      stepStarted = performance.now();
    }
    index += 1;
  }
  if (progress !== undefined) progress.applied = total;
}
