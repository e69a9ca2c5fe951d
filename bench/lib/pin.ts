/**
 * CPU pinning for a comparison on a small machine: the servers on one core and the load generator on
 * another, so the two never take turns on one core and a round measures the server, not the scheduler.
 * On two cores, unpinned wrk and a Node server migrate between cores and steal each other's slices;
 * that alone moved a same-build A/A ratio between 0.73 and 1.51. Linux's taskset; off elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export const TASKSET = '/usr/bin/taskset';

export interface Pinning {
  /** The CPU list (taskset's `-c` form) the servers run on. */
  readonly server: string;
  /** The CPU list the load generator runs on. */
  readonly generator: string;
}

/** Servers on the last CPU, the generator on the first; null with one CPU or no taskset. */
export function defaultPinning(cpus = availableParallelism(), taskset = existsSync(TASKSET)): Pinning | null {
  if (!taskset || cpus < 2) return null;
  return { server: String(cpus - 1), generator: '0' };
}

/** Moves every thread of `pid` onto `cpus` (threads it starts later inherit it). */
export function pinProcess(pid: number, cpus: string): void {
  if (!Number.isSafeInteger(pid) || pid <= 0) throw new RangeError(`cannot pin process ${pid}`);
  execFileSync(TASKSET, ['-a', '-cp', cpus, String(pid)], { stdio: 'pipe' });
}

/** The command line that runs `command` on `cpus` (unchanged when `cpus` is undefined). */
export function pinnedCommand(
  command: string,
  args: readonly string[],
  cpus: string | undefined,
): [string, string[]] {
  return cpus === undefined ? [command, [...args]] : [TASKSET, ['-c', cpus, command, ...args]];
}
