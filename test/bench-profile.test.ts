/**
 * bench/profile.ts, given the directory `node --cpu-prof-dir` wrote, reads the busiest profile: under
 * `--import tsx` the loader worker writes one too, nearly all idle, and reading that one printed
 * tables of nothing. One-line tsx frames are told apart by column and named by their caller.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readProfile, summarise } from '../bench/profile.ts';

const frame = (
  id: number,
  functionName: string,
  url: string,
  columnNumber: number,
  children: number[] = [],
) => ({
  id,
  callFrame: { functionName, url, lineNumber: 0, columnNumber },
  children,
});

const dir = mkdtempSync(join(tmpdir(), 'cca-profile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The main thread: a named function calling an arrow of the same file, which does the work.
const main = {
  nodes: [
    frame(1, '(root)', '', 0, [2, 5]),
    frame(2, 'report', 'file:///work/main/mocks/x.ts', 10, [3]),
    frame(3, 'forEach', 'file:///work/main/mocks/q.ts', 5, [4]),
    frame(4, '', 'file:///work/main/mocks/x.ts', 99),
    frame(5, '(idle)', '', 0),
  ],
  samples: [4, 4, 4, 5],
  timeDeltas: [1000, 1000, 1000, 1000],
};
// The loader worker: longer, but idle.
const worker = {
  nodes: [frame(1, '(root)', '', 0, [2]), frame(2, '(idle)', '', 0)],
  samples: [2, 2, 2, 2, 2, 2, 2, 2],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};
writeFileSync(join(dir, 'CPU.1.0.001.cpuprofile'), JSON.stringify(main));
writeFileSync(join(dir, 'CPU.1.1.002.cpuprofile'), JSON.stringify(worker));

describe('bench/profile.ts', () => {
  it('reads the busiest profile of a directory, not the longest or the last', () => {
    expect(readProfile(dir).file).toBe(join(dir, 'CPU.1.0.001.cpuprofile'));
  });

  it('labels an anonymous one-line frame by its column and its caller of the same file', () => {
    const text = summarise(readProfile(dir).profile, 5);
    expect(text).toContain('(anonymous) mocks/x.ts:1:100 (in report)');
    expect(text).toMatch(/75\.0%\s+3 ms {2}\(anonymous\) mocks\/x\.ts:1:100/);
  });
});
