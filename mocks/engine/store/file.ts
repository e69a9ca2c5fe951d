/**
 * `--state-file FILE`: the command log as JSON lines. Line 1 is the origin (`origin.ts`, with the log's
 * epoch and `base`, the number of commands compacted away before line 2); every other line is one
 * command, appended before it is applied and flushed to disk (`fdatasync`) before the write is
 * answered, so an answered write survives a crash of the process or the machine. Concurrent writes
 * share one flush (group commit), off the event loop, so reads never wait for the disk.
 *
 * Every `snapshotEvery` commands the state is written beside the log as `FILE.snapshot` (the one before
 * kept as `FILE.snapshot.prev`) and the log is rewritten to start where the previous snapshot ends:
 * the log stays bounded and a damaged latest snapshot still leaves the previous one and the commands
 * after it (`compaction.ts` holds the order of the steps and why a kill at any step loses nothing).
 * Restart loads the latest valid snapshot and replays only the commands after it. A reset is a
 * snapshot: the log before it is dropped, not appended to.
 *
 * The whole file is read and checked before anything is applied: a file from another origin or with a
 * damaged line is refused, never half-applied. Only a last line without its newline (a write cut off
 * by a crash, never answered) is dropped.
 */
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  write,
  writeSync,
} from 'node:fs';
import { promisify } from 'node:util';
import { readBeforeRetry } from '../commands/read-back.ts';
import type { Applied, LoggedCommand } from '../commands/types.ts';
import { compactLog, headerLine, loadLatestSnapshot, removeLeftovers } from './compaction.ts';
import { captureImage, restoreImage } from './image.ts';
import {
  checkOrigin,
  type OriginDescription,
  parseEntry,
  type StateOrigin,
  StateStoreError,
} from './origin.ts';
import { replayInSteps } from './replay.ts';
import type { Snapshot } from './snapshot.ts';
import {
  type ApplyEntry,
  type CommandStore,
  type ImageAccess,
  type LoadProgress,
  OutcomeUnknownError,
  StoreUnavailableError,
} from './types.ts';

const fdatasyncAsync = promisify(fdatasync);
const writeAsync = promisify(write);

/** A write waiting for its group's flush. */
interface Pending {
  readonly entry: LoggedCommand;
  readonly line: string;
  resolve(outcome: Applied): void;
  reject(error: Error): void;
}

/** Writes every byte at `position` (a write may take fewer than asked). */
async function writeAll(fd: number, bytes: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await writeAsync(fd, bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}

export interface OpenedFile {
  readonly origin: StateOrigin;
  /** Binds the file to the engine: loads the snapshot, replays the entries after it, then appends. */
  attach(apply: ApplyEntry, image: ImageAccess, progress?: LoadProgress): Promise<CommandStore>;
  /** What was repaired or refused on opening (a cut-off last line, a damaged snapshot). */
  readonly notes: readonly string[];
}

export interface StateFileOptions {
  /** Commands between snapshots (default 10,000); 0 never snapshots (a reset still compacts). */
  readonly snapshotEvery?: number;
}

export const DEFAULT_SNAPSHOT_EVERY = 10_000;

interface FileHeader extends StateOrigin {
  readonly base?: number;
}

function readOrigin(line: string, path: string): FileHeader {
  try {
    const value = JSON.parse(line) as Partial<FileHeader> & { readonly 'cca-kit-state'?: unknown };
    if (
      value['cca-kit-state'] === undefined ||
      typeof value.fingerprint !== 'string' ||
      typeof value.clockStart !== 'number'
    )
      throw new Error('no origin');
    const { 'cca-kit-state': _, ...origin } = value;
    return origin as FileHeader;
  } catch {
    throw new StateStoreError(
      'STATE_INVALID',
      `${path} is not a cca-kit state file (its first line is not a state origin); nothing was applied`,
    );
  }
}

/**
 * Opens (or creates) a state file for a mock started as `expected`; throws a `StateStoreError`
 * when the file belongs to another origin or is damaged.
 *
 * @example
 * const file = openStateFile('sandbox.state', describeOrigin(options, 'real'), newOrigin(d, Date.now()));
 * await engine.useStore((apply, image) => file.attach(apply, image));
 */
export function openStateFile(
  path: string,
  expected: OriginDescription,
  origin: StateOrigin,
  options: StateFileOptions = {},
): OpenedFile {
  const snapshotEvery = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY;
  removeLeftovers(path);
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    if ((cause as { code?: unknown }).code !== 'ENOENT') {
      throw new StateStoreError(
        'STATE_INVALID',
        `cannot read state file ${path}: ${(cause as Error).message}`,
      );
    }
  }
  const notes: string[] = [];
  let lines: string[] = [];
  let found: FileHeader = origin;
  let keep = Buffer.byteLength(text);
  if (text !== '') {
    lines = text.split('\n');
    const last = lines.pop() ?? '';
    if (last !== '') {
      // A line without its newline was being written when the process stopped: it was never answered.
      keep -= Buffer.byteLength(last);
      notes.push(
        `dropped a cut-off last line of ${path} (${Buffer.byteLength(last)} bytes, never acknowledged)`,
      );
    }
    found = readOrigin(lines[0] ?? '', path);
    checkOrigin(found, expected, `state file ${path}`);
  }
  text = '';
  const base = found.base ?? 0;
  const logged = Math.max(0, lines.length - 1);
  const epoch = found.epoch ?? null;
  const snapshot: Snapshot | undefined =
    lines.length === 0
      ? undefined
      : loadLatestSnapshot(path, { fingerprint: found.fingerprint, epoch }, base, base + logged, notes);
  if (snapshot === undefined && base > 0) {
    throw new StateStoreError(
      'STATE_INVALID',
      `${path} was compacted past its first ${base} commands and no usable snapshot is beside it (${notes.join('; ')}); nothing was applied`,
    );
  }
  // Parsed before anything is applied: a damaged line refuses the whole file.
  const from = snapshot === undefined ? 0 : Math.min(snapshot.header.position, base + logged) - base;
  const entries: LoggedCommand[] = [];
  // Where the entries after the snapshot start in the file: what a compaction keeps.
  let keepOffset = 0;
  for (let index = 0; index < 1 + from && index < lines.length; index += 1)
    keepOffset += Buffer.byteLength(lines[index] as string) + 1;
  for (let index = 1 + from; index < lines.length; index += 1)
    entries.push(parseEntry(lines[index] as string, `${path} line ${index + 1}`));
  lines = [];
  const { base: _, ...plainOrigin } = found;
  return {
    origin: plainOrigin,
    notes,
    async attach(apply, image, progress) {
      let fd: number;
      try {
        fd = openSync(path, keep === 0 ? 'w+' : 'r+');
        if (keep === 0) {
          const header = headerLine(found, 0);
          writeSync(fd, header);
          fdatasyncSync(fd);
          keep = Buffer.byteLength(header);
        } else ftruncateSync(fd, keep);
      } catch (cause) {
        throw new StateStoreError(
          'STATE_INVALID',
          `cannot write state file ${path}: ${(cause as Error).message}`,
        );
      }
      let snapshotAt = base;
      let keepPosition = base;
      let snapshotInfo: { position: number; at: string } | null = null;
      if (snapshot !== undefined) {
        if (progress !== undefined) progress.phase = 'snapshot';
        image.put(restoreImage(snapshot.image, image.take()));
        snapshotAt = snapshot.header.position;
        keepPosition = Math.min(snapshotAt, base + logged);
        snapshotInfo = { position: snapshotAt, at: snapshot.header.createdAt };
      }
      await replayInSteps(entries, apply, progress);
      let position = snapshotAt + entries.length;
      entries.length = 0;
      let offset = keep;
      let lastError: string | null = null;
      if (snapshotAt > base + logged) {
        // Killed after a reset's snapshot, before its log was cut: cut it now.
        const done = compactLog({
          path,
          header: found,
          fd,
          end: offset,
          keepOffset: offset,
          keepPosition: snapshotAt,
          position: snapshotAt,
          reset: true,
          image: captureImage(image.take()),
        });
        fd = done.fd;
        offset = done.end;
        keepOffset = done.keepOffset;
      }

      /** Writes a snapshot at `position` and compacts; a failure is reported, the log stays as it was. */
      const snapshotNow = (reset: boolean): void => {
        try {
          const done = compactLog({
            path,
            header: found,
            fd,
            end: offset,
            keepOffset,
            keepPosition,
            position,
            reset,
            image: captureImage(image.take()),
          });
          fd = done.fd;
          offset = done.end;
          keepOffset = done.keepOffset;
          keepPosition = done.keepPosition;
          snapshotAt = position;
          snapshotInfo = { position, at: new Date().toISOString() };
        } catch (cause) {
          lastError = `snapshot not written: ${(cause as Error).message}`;
        }
      };

      // Group commit: a write waits in `queued` while a flush is on disk's way; the next flush writes
      // every queued line at once and syncs once. Nothing is applied before its bytes are durable, and
      // the event loop never waits for the disk (reads are answered meanwhile). Compaction runs between
      // two flushes, never while one is in flight, and a reset ends a group: what was queued before it
      // is flushed first, then it is applied and snapshotted, then what came after it.
      let queued: Pending[] = [];
      let flushing: Promise<void> | null = null;
      let broken: string | null = null;
      let flushes = 0;
      const resetNow = (pending: Pending): void => {
        // A reset is a snapshot of the fresh state: the commands before it are dropped, not appended to.
        const outcome = apply(pending.entry);
        position += 1;
        snapshotNow(true);
        if (snapshotAt !== position)
          pending.reject(new StoreUnavailableError(`cannot reset state file ${path}: ${lastError}`));
        else pending.resolve(outcome);
      };
      const flush = async (): Promise<void> => {
        while (queued.length > 0) {
          const at = queued.findIndex((pending) => pending.entry.command.type === 'reset');
          if (at === 0) {
            resetNow(queued.shift() as Pending);
            continue;
          }
          const batch = at === -1 ? queued : queued.slice(0, at);
          queued = at === -1 ? [] : queued.slice(at);
          const bytes = Buffer.from(batch.map((pending) => pending.line).join(''));
          const start = offset;
          try {
            await writeAll(fd, bytes, start);
            flushes += 1;
            await fdatasyncAsync(fd);
          } catch (cause) {
            lastError = (cause as Error).message;
            const why = `cannot append to state file ${path}: ${lastError}`;
            try {
              // Cut back what was written of the batch: none of it may be replayed, none was answered.
              ftruncateSync(fd, start);
              for (const pending of batch) pending.reject(new StoreUnavailableError(why));
            } catch (undo) {
              broken = `${why}; and cannot cut the file back: ${(undo as Error).message}`;
              for (const pending of batch)
                pending.reject(
                  new OutcomeUnknownError(broken, false, readBeforeRetry(pending.entry.command)),
                );
            }
            continue;
          }
          offset += bytes.length;
          lastError = null;
          for (const pending of batch) {
            position += 1;
            pending.resolve(apply(pending.entry));
          }
          if (snapshotEvery > 0 && position - snapshotAt >= snapshotEvery) snapshotNow(false);
        }
      };

      return {
        kind: 'file',
        synchronous: false,
        write(entry) {
          if (broken !== null) throw new StoreUnavailableError(broken);
          return new Promise<Applied>((resolve, reject) => {
            queued.push({ entry, line: `${JSON.stringify(entry)}\n`, resolve, reject });
            flushing ??= flush().finally(() => {
              flushing = null;
            });
          });
        },
        catchUp: () => undefined,
        health: () => ({
          store: 'file',
          location: path,
          position,
          logLength: position,
          lag: 0,
          connected: lastError === null || lastError.startsWith('snapshot'),
          lastError,
          flushes,
          epoch,
          diverged: null,
          snapshot: snapshotInfo,
        }),
        async close() {
          await flushing;
          closeSync(fd);
        },
      };
    },
  };
}
