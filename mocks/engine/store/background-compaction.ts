/**
 * The compaction of a state file while writes go on, in the order of `compaction.ts` (whose comment
 * says why a kill at any step loses nothing acknowledged):
 *
 * 1. the snapshot is written to `FILE.snapshot.tmp` and made durable, the latest becomes
 *    `FILE.snapshot.prev` and the new one `FILE.snapshot`;
 * 2. the log from the previous snapshot's position up to the new snapshot's is copied to `FILE.tmp`
 *    after its new first line;
 * 3. with no write in flight (the caller runs it as a barrier of the group commit): the lines appended
 *    since step 2 began are copied too, `FILE.tmp` is made durable and renamed over `FILE`.
 *
 * Steps 1 and 2 only read the old log below the end it had when the image was captured, so lines go
 * on being appended to it meanwhile; step 3 copies what they added. Every call here goes to libuv's
 * pool: none of them holds the event loop while the disk works, which the synchronous compaction did
 * (a read arriving during it waited for two fsyncs, the renames and the copy of the log). Node only.
 */
import { close, fdatasync, fsync, open, read, rename, rm, write } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { headerLine, latestOf, previousOf } from './compaction.ts';
import type { StateOrigin } from './origin.ts';
import { encodeSnapshotAsync, type SnapshotMeta } from './snapshot.ts';

const openAsync = promisify(open);
const closeAsync = promisify(close);
const readAsync = promisify(read);
const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);
const fsyncAsync = promisify(fsync);
const renameAsync = promisify(rename);
const rmAsync = promisify(rm);

const COPY_CHUNK = 4 << 20;

/** Writes every byte of `bytes` at `position` (a write may take fewer bytes than asked). */
async function writeAll(fd: number, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await writeAsync(fd, bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

/** Makes a rename in the directory of `path` durable. */
async function syncDirectoryAsync(path: string): Promise<void> {
  const fd = await openAsync(dirname(path), 'r');
  try {
    await fsyncAsync(fd);
  } finally {
    await closeAsync(fd);
  }
}

/** Step 1: the snapshot of `image` beside the log at `path`, made the latest. */
export async function writeSnapshotBeside(
  path: string,
  meta: SnapshotMeta,
  image: Uint8Array,
): Promise<void> {
  const bytes = await encodeSnapshotAsync(meta, image);
  const temporary = `${latestOf(path)}.tmp`;
  const out = await openAsync(temporary, 'w');
  try {
    await writeAll(out, bytes, 0);
    await fdatasyncAsync(out);
  } finally {
    await closeAsync(out);
  }
  try {
    await renameAsync(latestOf(path), previousOf(path));
  } catch (cause) {
    if ((cause as { code?: unknown }).code !== 'ENOENT') throw cause;
  }
  await renameAsync(temporary, latestOf(path));
  await syncDirectoryAsync(path);
}

/** The new log being written (`FILE.tmp`): what of the old one it holds so far. */
export interface LogRewrite {
  readonly path: string;
  readonly fd: number;
  /** Bytes of its first line. */
  readonly headerBytes: number;
  /** Where in the old log its copy starts, and how far it has copied. */
  readonly from: number;
  copiedTo: number;
}

/** Copies `[from, to)` of the old log to the end of the rewrite. */
async function copyRange(rewrite: LogRewrite, oldFd: number, to: number): Promise<void> {
  const chunk = Buffer.allocUnsafe(Math.min(COPY_CHUNK, Math.max(1, to - rewrite.copiedTo)));
  while (rewrite.copiedTo < to) {
    const { bytesRead } = await readAsync(
      oldFd,
      chunk,
      0,
      Math.min(chunk.length, to - rewrite.copiedTo),
      rewrite.copiedTo,
    );
    if (bytesRead === 0) throw new Error('the log is shorter than its end');
    await writeAll(
      rewrite.fd,
      chunk.subarray(0, bytesRead),
      rewrite.headerBytes + (rewrite.copiedTo - rewrite.from),
    );
    rewrite.copiedTo += bytesRead;
  }
}

/**
 * Step 2: `FILE.tmp` with its first line (`base` commands compacted away before it) and the old log's
 * bytes from `from` (where the commands after the previous snapshot start) to `to`.
 */
export async function startLogRewrite(
  path: string,
  origin: StateOrigin,
  base: number,
  oldFd: number,
  from: number,
  to: number,
): Promise<LogRewrite> {
  const first = Buffer.from(headerLine(origin, base));
  const temporary = `${path}.tmp`;
  const fd = await openAsync(temporary, 'w');
  const rewrite: LogRewrite = { path: temporary, fd, headerBytes: first.length, from, copiedTo: from };
  try {
    await writeAll(fd, first, 0);
    await copyRange(rewrite, oldFd, to);
  } catch (cause) {
    await abandonLogRewrite(rewrite);
    throw cause;
  }
  return rewrite;
}

/**
 * Step 3, with nothing written to the old log meanwhile: the rest of it (up to `end`) copied, the new
 * log made durable and put in place of the old one, which is closed. Returns the new log's fd and end.
 * Once the rename is done the old file is gone from the directory, so the new one is used from then
 * on even when the directory's fsync fails (`error` then says so); a new log that cannot be opened
 * is a `LogReplacedError`, since appending to the old one would write where no restart reads.
 */
export async function finishLogRewrite(
  rewrite: LogRewrite,
  oldFd: number,
  end: number,
  path: string,
): Promise<{ fd: number; end: number; error: string | null }> {
  try {
    await copyRange(rewrite, oldFd, end);
    await fsyncAsync(rewrite.fd);
    await closeAsync(rewrite.fd);
  } catch (cause) {
    await abandonLogRewrite(rewrite);
    throw cause;
  }
  await renameAsync(rewrite.path, path);
  let error: string | null = null;
  try {
    await syncDirectoryAsync(path);
  } catch (cause) {
    error = (cause as Error).message;
  }
  let fd: number;
  try {
    fd = await openAsync(path, 'r+');
  } catch (cause) {
    throw new LogReplacedError(
      `the state file ${path} was compacted but cannot be opened again: ${(cause as Error).message}`,
    );
  }
  await closeAsync(oldFd).catch(() => undefined); // the old inode is unlinked: nothing more reaches it
  return { fd, end: rewrite.headerBytes + (end - rewrite.from), error };
}

/** The new log is in place but cannot be written: the store can take no more writes. */
export class LogReplacedError extends Error {
  override readonly name = 'LogReplacedError';
}

/** Closes and removes a rewrite that will not be used (the old log stays as it was). */
export async function abandonLogRewrite(rewrite: LogRewrite): Promise<void> {
  await closeAsync(rewrite.fd).catch(() => undefined); // it may be closed already
  await rmAsync(rewrite.path, { force: true });
}
