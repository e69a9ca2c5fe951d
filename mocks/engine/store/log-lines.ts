/**
 * A state file's log read in chunks, never as one text: a log of a million commands is half a
 * gigabyte (more than a JavaScript string may hold), and start-up after a snapshot needs only the
 * lines after it. `scanLog` counts the lines and notes where every 4,096th starts; `readLines` reads
 * the lines of a byte range one at a time. Node only.
 */
import { readSync } from 'node:fs';

const CHUNK = 1 << 20;
/** One line start noted per this many lines: a few bytes per 4,096 lines to find any line quickly. */
const EVERY = 4096;
const NEWLINE = 10;

export interface LogScan {
  /** The first line (the origin), without its newline; '' when the file has no complete line. */
  readonly header: string;
  /** Complete lines, the header included. */
  readonly lines: number;
  /** Where the last complete line ends: what is kept. */
  readonly keep: number;
  /** Bytes after it: a last line cut off without its newline (never acknowledged). */
  readonly cutOff: number;
  /** Where the line at `index` (0-based, at most `lines`) starts. */
  offsetOf(index: number): number;
}

/** Reads `length` bytes at `position` into `buffer` (fewer only at the end of the file). */
function readAt(fd: number, buffer: Buffer, length: number, position: number): number {
  let read = 0;
  while (read < length) {
    const got = readSync(fd, buffer, read, length - read, position + read);
    if (got === 0) break;
    read += got;
  }
  return read;
}

/** Counts the lines of the open file `fd` in one pass, holding one chunk at a time. */
export function scanLog(fd: number): LogScan {
  const buffer = Buffer.allocUnsafe(CHUNK);
  const starts: number[] = [0];
  let lines = 0;
  let keep = 0;
  let headerEnd = -1;
  let position = 0;
  for (;;) {
    const got = readAt(fd, buffer, CHUNK, position);
    if (got === 0) break;
    const view = buffer.subarray(0, got);
    for (let at = view.indexOf(NEWLINE); at !== -1; at = view.indexOf(NEWLINE, at + 1)) {
      lines += 1;
      keep = position + at + 1;
      if (lines === 1) headerEnd = position + at;
      if (lines % EVERY === 0) starts.push(keep);
    }
    position += got;
  }
  const header = Buffer.allocUnsafe(Math.max(0, headerEnd));
  readAt(fd, header, header.length, 0);
  return {
    header: header.toString('utf8'),
    lines,
    keep,
    cutOff: position - keep,
    offsetOf(index) {
      const noted = Math.min(Math.floor(index / EVERY), starts.length - 1);
      let line = noted * EVERY;
      let offset = starts[noted] as number;
      let at = offset;
      while (line < index) {
        const got = readAt(fd, buffer, CHUNK, at);
        if (got === 0) break;
        const view = buffer.subarray(0, got);
        for (
          let next = view.indexOf(NEWLINE);
          next !== -1 && line < index;
          next = view.indexOf(NEWLINE, next + 1)
        ) {
          line += 1;
          offset = at + next + 1;
        }
        at += got;
      }
      return offset;
    },
  };
}

/** The lines between byte `start` and `end` (each without its newline), one at a time. */
export function* readLines(fd: number, start: number, end: number): Generator<string> {
  const buffer = Buffer.allocUnsafe(CHUNK);
  let carry: Buffer | null = null;
  let position = start;
  while (position < end) {
    const got = readAt(fd, buffer, Math.min(CHUNK, end - position), position);
    if (got === 0) break;
    position += got;
    let at = 0;
    for (;;) {
      const newline = buffer.indexOf(NEWLINE, at);
      if (newline === -1 || newline >= got) break;
      if (carry === null) yield buffer.toString('utf8', at, newline);
      else {
        yield Buffer.concat([carry, buffer.subarray(at, newline)]).toString('utf8');
        carry = null;
      }
      at = newline + 1;
    }
    if (at < got) {
      const rest = Buffer.from(buffer.subarray(at, got));
      carry = carry === null ? rest : Buffer.concat([carry, rest]);
    }
  }
}
