/**
 * The mutation bench keeps one Stryker incremental file per laws stamp, so that a law that changed
 * never lets Stryker answer with results of the laws before it.
 */
import { describe, expect, it } from 'vitest';
import { incrementalFileName, lawsStamp, staleIncrementalFiles } from '../bench/mutation/run.ts';

describe('mutation bench: incremental file per laws stamp', () => {
  it('names the file by the stamp, and the stamp by the cases per property and the suites run', () => {
    expect(incrementalFileName('0123abcd')).toBe('incremental-0123abcd.json');
    expect(lawsStamp(3)).not.toBe(lawsStamp(4));
    expect(lawsStamp(3, ['suites/auth.test.ts'])).not.toBe(lawsStamp(3));
    expect(incrementalFileName(lawsStamp(3))).toMatch(/^incremental-[0-9a-f]{16}\.json$/);
  });

  it("removes other stamps' files only: never the current one, the journal or anything else", () => {
    const names = [
      'incremental-0123abcd.json',
      'incremental-ffff0000.json',
      'incremental.json',
      'journal.jsonl',
      'mutation.json',
      'sample-42.json',
      'incremental-0123abcd.json.tmp',
    ];
    expect(staleIncrementalFiles(names, '0123abcd')).toEqual(['incremental-ffff0000.json']);
    expect(staleIncrementalFiles(names, 'ffff0000')).toEqual(['incremental-0123abcd.json']);
  });
});
