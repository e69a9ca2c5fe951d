/**
 * Replays logged commands in steps that give the event loop back, so a port opened during start-up
 * can answer its 503 (with the progress) while a long log is applied.
 */
import type { LoggedCommand } from '../commands/types.ts';
import type { ApplyEntry, LoadProgress } from './types.ts';

const STEP_MS = 50;

export async function replayInSteps(
  entries: readonly LoggedCommand[],
  apply: ApplyEntry,
  progress?: LoadProgress,
): Promise<void> {
  if (progress !== undefined) {
    progress.phase = 'replay';
    progress.applied = 0;
    progress.total = entries.length;
  }
  let stepStarted = performance.now();
  for (let index = 0; index < entries.length; index += 1) {
    apply(entries[index] as LoggedCommand);
    if ((index & 255) === 255 && performance.now() - stepStarted > STEP_MS) {
      if (progress !== undefined) progress.applied = index + 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
      stepStarted = performance.now();
    }
  }
  if (progress !== undefined) progress.applied = entries.length;
}
