/** Reading another process's memory from /proc (Linux). */
import { readFileSync } from 'node:fs';

/** Resident set size of a process in MiB, or null when /proc is not readable. */
export function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match?.[1] === undefined ? null : Number.parseInt(match[1], 10) / 1024;
  } catch {
    return null;
  }
}
