/**
 * Reading a log in chunks gives what splitting its whole text would: the header, the count of
 * complete lines, a cut-off last line, where any line starts (past the lines noted, across chunks)
 * and the lines of a range, a line longer than a chunk and multi-byte characters included.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines, scanLog } from './log-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-log-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function withFile<T>(text: string, use: (fd: number) => T): T {
  const path = join(dir, `log-${Math.random().toString(36).slice(2)}`);
  writeFileSync(path, text);
  const fd = openSync(path, 'r');
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

describe('log lines', () => {
  // 10,000 lines of varied length (some with "é", two bytes), one over a megabyte, then a cut-off line.
  const lines = Array.from({ length: 10_000 }, (_, i) =>
    i === 0 ? '{"origin":true}' : i === 7_000 ? 'x'.repeat(1_100_000) : `line ${i} ${'é'.repeat(i % 37)}`,
  );
  const text = `${lines.join('\n')}\n{"cut":`;
  const offset = (index: number): number =>
    Buffer.byteLength(lines.slice(0, index).join('\n')) + (index > 0 ? 1 : 0);

  it('counts complete lines, reads the header and sees the cut-off last line', () => {
    withFile(text, (fd) => {
      const scan = scanLog(fd);
      expect(scan.header).toBe('{"origin":true}');
      expect(scan.lines).toBe(10_000);
      expect(scan.cutOff).toBe(Buffer.byteLength('{"cut":'));
      expect(scan.keep).toBe(Buffer.byteLength(text) - scan.cutOff);
    });
  });

  it('finds where any line starts, and reads a range line by line', () => {
    withFile(text, (fd) => {
      const scan = scanLog(fd);
      for (const index of [0, 1, 4095, 4096, 4097, 6_999, 7_000, 7_001, 8_192, 9_999, 10_000])
        expect(scan.offsetOf(index)).toBe(offset(index));
      expect([...readLines(fd, scan.offsetOf(4_090), scan.keep)]).toEqual(lines.slice(4_090));
      expect([...readLines(fd, 0, scan.keep)]).toEqual(lines);
    });
  });

  it('an empty file and a file without a complete line have no header', () => {
    withFile('', (fd) => expect(scanLog(fd)).toMatchObject({ header: '', lines: 0, keep: 0, cutOff: 0 }));
    withFile('{"half', (fd) =>
      expect(scanLog(fd)).toMatchObject({ header: '', lines: 0, keep: 0, cutOff: 6 }),
    );
  });
});
