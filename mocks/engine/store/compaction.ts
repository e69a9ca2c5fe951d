/**
 * Snapshots beside a state file and the compaction of its log, in an order where a kill at any step
 * loses nothing acknowledged:
 *
 * 1. the snapshot is written to `FILE.snapshot.tmp` and fsynced; the latest becomes `FILE.snapshot.prev`
 *    and the new one `FILE.snapshot` (renames, then an fsync of the directory). A kill before the
 *    second rename leaves the previous snapshot and the whole log: both still valid;
 * 2. the log is rewritten to `FILE.tmp` from the previous snapshot's position on (its first line
 *    says so: `base`), fsynced and renamed over `FILE`. A kill before the rename leaves the old log,
 *    which holds everything the new one would.
 *
 * Leftover `.tmp` files of a kill are removed at the next start. Node only.
 */
import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import type { StateOrigin } from './origin.ts';
import {
  encodeSnapshot,
  readSnapshotFile,
  type Snapshot,
  type SnapshotExpectation,
  syncDirectory,
} from './snapshot.ts';

const COPY_CHUNK = 4 << 20;

export const latestOf = (path: string): string => `${path}.snapshot`;
export const previousOf = (path: string): string => `${path}.snapshot.prev`;

/** The log's first line: its origin and how many commands were compacted away before line 2. */
export function headerLine(origin: StateOrigin, base: number): string {
  const { base: _, ...plain } = origin as StateOrigin & { base?: number };
  return `${JSON.stringify({ 'cca-kit-state': 1, ...plain, ...(base === 0 ? {} : { base }) })}\n`;
}

/** Removes what a kill during a snapshot or a compaction left half-written. */
export function removeLeftovers(path: string): void {
  for (const leftover of [`${latestOf(path)}.tmp`, `${path}.tmp`]) rmSync(leftover, { force: true });
}

/**
 * The latest snapshot that is valid and fits the log (`base` commands compacted away, `total` in all),
 * the previous one when the latest does not; every refusal is added to `notes` with its reason.
 */
export function loadLatestSnapshot(
  path: string,
  expected: SnapshotExpectation,
  base: number,
  total: number,
  notes: string[],
): Snapshot | undefined {
  for (const file of [latestOf(path), previousOf(path)]) {
    const found = readSnapshotFile(file, expected);
    if (found === undefined) continue;
    if (typeof found === 'string') {
      notes.push(`refused snapshot ${file}: ${found}`);
      continue;
    }
    const position = found.header.position;
    if (position < base) {
      notes.push(`refused snapshot ${file}: it ends at command ${position}, the log starts at ${base}`);
      continue;
    }
    // A reset's snapshot is written before the log is cut: it may be one past the log's end.
    if (position > total && !(found.header.reset === true && position === total + 1)) {
      notes.push(`refused snapshot ${file}: it covers ${position} commands, the log holds only ${total}`);
      continue;
    }
    return found;
  }
  return undefined;
}

export interface Compaction {
  readonly path: string;
  readonly header: StateOrigin;
  /** The open log and its end. */
  readonly fd: number;
  readonly end: number;
  /** Where in the log the entries after the latest snapshot start, and that snapshot's position. */
  readonly keepOffset: number;
  readonly keepPosition: number;
  /** Commands applied: the new snapshot's position. */
  readonly position: number;
  readonly reset: boolean;
  readonly image: Uint8Array;
}

/** Writes the snapshot, then the log from the previous snapshot on; returns the new log's fd and layout. */
export function compactLog(step: Compaction): {
  fd: number;
  end: number;
  keepOffset: number;
  keepPosition: number;
  /** A step after the rename that failed: the new log is in use, its rename may not be durable. */
  error: string | null;
} {
  const { path, header } = step;
  const epoch = header.epoch ?? null;
  const bytes = encodeSnapshot(
    {
      fingerprint: header.fingerprint,
      epoch,
      position: step.position,
      ...(step.reset ? { reset: true } : {}),
    },
    step.image,
  );
  const temporary = `${latestOf(path)}.tmp`;
  const out = openSync(temporary, 'w');
  try {
    writeSync(out, bytes);
    fdatasyncSync(out);
  } finally {
    closeSync(out);
  }
  try {
    renameSync(latestOf(path), previousOf(path));
  } catch (cause) {
    if ((cause as { code?: unknown }).code !== 'ENOENT') throw cause;
  }
  renameSync(temporary, latestOf(path));
  syncDirectory(path);

  // The log keeps what the previous snapshot (now `.prev`) does not cover; after a reset, nothing.
  // Copied a chunk at a time: the kept part of a long log is far larger than one buffer should be.
  const base = step.reset ? step.position : step.keepPosition;
  const first = headerLine(header, base);
  const tailBytes = step.reset ? 0 : step.end - step.keepOffset;
  const logTemporary = `${path}.tmp`;
  const logOut = openSync(logTemporary, 'w');
  try {
    writeSync(logOut, first);
    const chunk = Buffer.allocUnsafe(Math.min(COPY_CHUNK, Math.max(1, tailBytes)));
    for (let copied = 0; copied < tailBytes; ) {
      const got = readSync(
        step.fd,
        chunk,
        0,
        Math.min(chunk.length, tailBytes - copied),
        step.keepOffset + copied,
      );
      if (got === 0) throw new Error('the log is shorter than its end');
      writeSync(logOut, chunk, 0, got);
      copied += got;
    }
    fsyncSync(logOut);
  } finally {
    closeSync(logOut);
  }
  renameSync(logTemporary, path);
  // Past the rename the old log is gone from the directory: from here on the new one is used, even
  // when the directory's fsync fails (appending to the old one would write where no restart reads).
  let error: string | null = null;
  try {
    syncDirectory(path);
  } catch (cause) {
    error = (cause as Error).message;
  }
  const fd = openSync(path, 'r+');
  try {
    closeSync(step.fd);
    if (step.reset) rmSync(previousOf(path), { force: true });
  } catch (cause) {
    error ??= (cause as Error).message;
  }
  const end = Buffer.byteLength(first) + tailBytes;
  return { fd, end, keepOffset: end, keepPosition: step.position, error };
}
