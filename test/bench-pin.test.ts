import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultPinning, pinnedCommand, pinProcess, TASKSET } from '../bench/lib/pin.ts';

describe('bench CPU pinning', () => {
  it('puts the servers on the last CPU and the generator on the first, and pins nothing without two CPUs or taskset', () => {
    expect(defaultPinning(2, true)).toEqual({ server: '1', generator: '0' });
    expect(defaultPinning(8, true)).toEqual({ server: '7', generator: '0' });
    expect(defaultPinning(1, true)).toBeNull();
    expect(defaultPinning(4, false)).toBeNull();
  });

  it('wraps a command in taskset only when given CPUs', () => {
    expect(pinnedCommand('/usr/bin/wrk', ['-t1'], '0')).toEqual([
      TASKSET,
      ['-c', '0', '/usr/bin/wrk', '-t1'],
    ]);
    expect(pinnedCommand('/usr/bin/wrk', ['-t1'], undefined)).toEqual(['/usr/bin/wrk', ['-t1']]);
  });

  it('refuses a pid that is no process id by name', () => {
    expect(() => pinProcess(0, '0')).toThrow(/cannot pin process 0/);
    expect(() => pinProcess(Number.NaN, '0')).toThrow(/cannot pin process NaN/);
  });

  // taskset is util-linux's, part of every Debian install the tests run on.
  it('moves every thread of a running process onto the CPU it is given', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const last = String(availableParallelism() - 1);
      pinProcess(child.pid ?? 0, last);
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      expect(/Cpus_allowed_list:\s*(\S+)/.exec(status)?.[1]).toBe(last);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
