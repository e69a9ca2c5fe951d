/** What the figures were measured on: CPU count, memory, Node version, load, date. */
import { cpus, loadavg, totalmem } from 'node:os';

export interface Machine {
  readonly date: string;
  readonly nproc: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  /** 1-minute load average when the section started. */
  readonly load1: number;
}

export function machine(): Machine {
  return {
    date: new Date().toISOString(),
    nproc: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    load1: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}
