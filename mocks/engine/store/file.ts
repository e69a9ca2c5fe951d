/**
 * `--state-file FILE`: the command log as JSON lines. Line 1 is the origin (`origin.ts`, with the log's
 * epoch and `base`, the number of commands compacted away before line 2); every other line is one
 * command, appended before it is applied and flushed to disk (`fdatasync`) before the write is
 * answered, so an answered write survives a crash of the process or the machine. Concurrent writes
 * share a flush and flushes overlap (group commit, `group-commit.ts`), off the event loop, so reads
 * never wait for the disk.
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
import { closeSync, fdatasyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { readBeforeRetry } from '../commands/read-back.ts';
import type { Applied, LoggedCommand } from '../commands/types.ts';
import {
  finishLogRewrite,
  LogReplacedError,
  type LogRewrite,
  startLogRewrite,
  writeSnapshotBeside,
} from './background-compaction.ts';
import { compactLog, headerLine, loadLatestSnapshot, removeLeftovers } from './compaction.ts';
import { type CompactionReplica, type ReplicaSetup, startCompactionReplica } from './compaction-replica.ts';
import { type AppendFailure, createGroupCommit, type LogFile } from './group-commit.ts';
import { captureImage, restoreImage } from './image.ts';
import { type LogScan, readLines, scanLog } from './log-lines.ts';
import {
  checkOrigin,
  type OriginDescription,
  parseEntry,
  type StateOrigin,
  StateStoreError,
} from './origin.ts';
import { replayInSteps } from './replay.ts';
import { SNAPSHOT_FORMAT, type Snapshot } from './snapshot.ts';
import {
  type ApplyEntry,
  type CommandStore,
  type ImageAccess,
  type LoadProgress,
  OutcomeUnknownError,
  StoreUnavailableError,
} from './types.ts';

/** One log line: what the store appends for a write (and what a generated log must hold). */
export const serializeEntry = (entry: LoggedCommand): string => `${JSON.stringify(entry)}\n`;

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
  /**
   * Builds the state again in a worker thread that follows the log, so a compaction's image is
   * captured there and not on the event loop (`compaction-replica.ts`). Without it, or when the
   * replica fails, the image is captured on the event loop.
   */
  readonly replica?: ReplicaSetup;
}

export const DEFAULT_SNAPSHOT_EVERY = 10_000;

/** Entries after the snapshot kept parsed from the check to the replay; more are parsed again. */
const KEEP_PARSED = 50_000;

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
  // Read in chunks, never as one text (`log-lines.ts`): only the lines after the snapshot are parsed.
  let reader: number | undefined;
  try {
    reader = openSync(path, 'r');
  } catch (cause) {
    if ((cause as { code?: unknown }).code !== 'ENOENT') {
      throw new StateStoreError(
        'STATE_INVALID',
        `cannot read state file ${path}: ${(cause as Error).message}`,
      );
    }
  }
  const notes: string[] = [];
  let found: FileHeader = origin;
  let scan: LogScan | undefined;
  try {
    scan = reader === undefined ? undefined : scanLog(reader);
    if (scan !== undefined && scan.keep + scan.cutOff > 0) {
      if (scan.cutOff > 0) {
        // A line without its newline was being written when the process stopped: it was never answered.
        notes.push(`dropped a cut-off last line of ${path} (${scan.cutOff} bytes, never acknowledged)`);
      }
      found = readOrigin(scan.header, path);
      checkOrigin(found, expected, `state file ${path}`);
    }
  } catch (cause) {
    if (reader !== undefined) closeSync(reader);
    throw cause;
  }
  const lines = scan?.lines ?? 0;
  let keep = scan?.keep ?? 0;
  const base = found.base ?? 0;
  const logged = Math.max(0, lines - 1);
  const epoch = found.epoch ?? null;
  // Let go once restored: the attached store would otherwise hold the snapshot's bytes for good.
  let snapshot: Snapshot | undefined =
    lines === 0
      ? undefined
      : loadLatestSnapshot(path, { fingerprint: found.fingerprint, epoch }, base, base + logged, notes);
  if (snapshot === undefined && base > 0) {
    if (reader !== undefined) closeSync(reader);
    throw new StateStoreError(
      'STATE_INVALID',
      `${path} was compacted past its first ${base} commands and no usable snapshot is beside it (${notes.join('; ')}); nothing was applied`,
    );
  }
  const from = snapshot === undefined ? 0 : Math.min(snapshot.header.position, base + logged) - base;
  // Where the entries after the snapshot start in the file: what a compaction keeps.
  let keepOffset = scan === undefined || lines === 0 ? 0 : scan.offsetOf(1 + from);
  const total = Math.max(0, lines - 1 - from);
  /** The entries after the snapshot, parsed from the open file `fd` (line numbers count from 1). */
  function* entriesIn(fd: number): Generator<LoggedCommand> {
    let line = 2 + from;
    for (const text of readLines(fd, keepOffset, keep)) yield parseEntry(text, `${path} line ${line++}`);
  }
  // Parsed before anything is applied: a damaged line refuses the whole file. Kept when few; a long
  // log is parsed again as it is replayed, so start-up never holds it all.
  let entries: LoggedCommand[] | undefined = total <= KEEP_PARSED ? [] : undefined;
  try {
    if (reader !== undefined) for (const entry of entriesIn(reader)) entries?.push(entry);
  } finally {
    if (reader !== undefined) closeSync(reader);
  }
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
          // The entries start after the new header: a first compaction must not copy it again.
          keepOffset = keep;
        } else ftruncateSync(fd, keep);
      } catch (cause) {
        throw new StateStoreError(
          'STATE_INVALID',
          `cannot write state file ${path}: ${(cause as Error).message}`,
        );
      }
      let eventLoopCaptures = 0;
      const captureOnLoop = (): Buffer => {
        eventLoopCaptures += 1;
        return captureImage(image.take());
      };
      let snapshotAt = base;
      let keepPosition = base;
      let snapshotInfo: { position: number; at: string } | null = null;
      /** What the replica starts from: the image restored here (kept only until it starts). */
      let startImage: { bytes: Uint8Array; format: number } | null = null;
      if (snapshot !== undefined) {
        if (progress !== undefined) progress.phase = 'snapshot';
        image.put(restoreImage(snapshot.image, image.take(), snapshot.header['cca-kit-snapshot']));
        snapshotAt = snapshot.header.position;
        keepPosition = Math.min(snapshotAt, base + logged);
        snapshotInfo = { position: snapshotAt, at: snapshot.header.createdAt };
        if (options.replica !== undefined)
          startImage = { bytes: snapshot.image, format: snapshot.header['cca-kit-snapshot'] };
        snapshot = undefined;
      }
      const imageAt = snapshotAt;
      const replayFrom = keepOffset;
      const replayTo = keep;
      await replayInSteps(entries ?? entriesIn(fd), total, apply, progress);
      let position = snapshotAt + total;
      entries = undefined;
      let offset = keep;
      let lastError: string | null = null;
      let replicaFrom = { image: startImage, position: imageAt, from: replayFrom, to: replayTo };
      if (snapshotAt > base + logged) {
        // Killed after a reset's snapshot, before its log was cut: cut it now.
        const now = captureOnLoop();
        replicaFrom = {
          image: { bytes: now, format: SNAPSHOT_FORMAT },
          position: snapshotAt,
          from: 0,
          to: 0,
        };
        const done = compactLog({
          path,
          header: found,
          fd,
          end: offset,
          keepOffset: offset,
          keepPosition: snapshotAt,
          position: snapshotAt,
          reset: true,
          image: now,
        });
        fd = done.fd;
        offset = done.end;
        keepOffset = done.keepOffset;
      }
      startImage = null;
      const started =
        options.replica === undefined ? null : startReplica(path, options.replica, found, replicaFrom);
      const replica = typeof started === 'string' ? null : started;
      const replicaRefused = typeof started === 'string' ? started : null;
      replicaFrom = { image: null, position: 0, from: 0, to: 0 };

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
            image: captureOnLoop(),
          });
          fd = done.fd;
          offset = done.end;
          keepOffset = done.keepOffset;
          keepPosition = done.keepPosition;
          snapshotAt = position;
          snapshotInfo = { position, at: new Date().toISOString() };
          if (done.error !== null) lastError = `snapshot written, log compacted: ${done.error}`;
        } catch (cause) {
          lastError = `snapshot not written: ${(cause as Error).message}`;
        }
      };

      // Group commit (`group-commit.ts`): nothing is applied before its bytes are durable, and the
      // event loop never waits for the disk (reads are answered meanwhile). A compaction and a reset
      // run alone, between flushes: what was appended before a reset is released first, then it is
      // applied and snapshotted, then what came after it is written.
      const log: LogFile = { fd, end: offset };
      const commit = createGroupCommit(log);
      let broken: string | null = null;
      let compactionDue = false;
      /** The compaction going on beside the writes: a reset and `close` wait for it. Never rejects. */
      let background: Promise<void> | null = null;
      /** Resets asked for and not yet made: no compaction starts meanwhile (a reset is one itself). */
      let resetsPending = 0;
      const compact = (reset: boolean): void => {
        fd = log.fd;
        offset = log.end;
        snapshotNow(reset);
        log.fd = fd;
        log.end = offset;
      };

      /**
       * A compaction beside the writes (`background-compaction.ts`). Run as a barrier: where nothing is
       * in flight the state is the one at `position`, and the image of that position is taken, by the
       * replica when there is one (the event loop goes on answering while it serialises its own copy),
       * otherwise here. Writing it and copying the log then go on while later lines are appended to the
       * old log, and a last barrier copies those and swaps the files.
       */
      const compactBeside = (): void => {
        if (resetsPending > 0) {
          compactionDue = false;
          return;
        }
        const at = position;
        const end = log.end;
        const from = keepOffset;
        const base = keepPosition;
        // A replica still loading (a long log's replay at start) is not waited for: this one capture
        // is made here, as without a replica. Waiting would merge the compactions due meanwhile into
        // one, and the log then keeps what the one before the last covers for longer.
        const following = replica?.ready === true;
        let inline: Buffer | null = null;
        if (!following) {
          try {
            inline = captureOnLoop();
          } catch (cause) {
            lastError = `snapshot not written: ${(cause as Error).message}`;
            compactionDue = false;
            return;
          }
        }
        const run = async (): Promise<void> => {
          let captured: Uint8Array;
          try {
            captured = inline ?? (await (replica as CompactionReplica).capture(at));
          } catch (cause) {
            // The next compaction captures here: a replica that failed once is never asked again.
            lastError = `snapshot not written: ${(cause as Error).message}`;
            return;
          }
          try {
            await writeSnapshotBeside(
              path,
              { fingerprint: found.fingerprint, epoch: found.epoch ?? null, position: at },
              captured,
            );
          } catch (cause) {
            lastError = `snapshot not written: ${(cause as Error).message}`;
            return;
          }
          snapshotAt = at;
          snapshotInfo = { position: at, at: new Date().toISOString() };
          let rewrite: LogRewrite;
          try {
            rewrite = await startLogRewrite(path, found, base, log.fd, from, end);
          } catch (cause) {
            lastError = `snapshot written, log not compacted: ${(cause as Error).message}`;
            return;
          }
          await new Promise<void>((settled) => {
            commit.barrierNext(() =>
              finishLogRewrite(rewrite, log.fd, log.end, path).then(
                (done) => {
                  log.fd = done.fd;
                  log.end = done.end;
                  keepOffset = rewrite.headerBytes + (end - from);
                  keepPosition = at;
                  if (done.error !== null) lastError = `snapshot written, log compacted: ${done.error}`;
                  settled();
                },
                (cause: unknown) => {
                  if (cause instanceof LogReplacedError) broken = cause.message;
                  else lastError = `snapshot written, log not compacted: ${(cause as Error).message}`;
                  settled();
                },
              ),
            );
          });
        };
        background = run().finally(() => {
          background = null;
          compactionDue = false;
          // Writes that came during it may have made the next one due already.
          compactIfDue();
        });
      };
      const compactIfDue = (): void => {
        if (broken !== null || compactionDue || resetsPending > 0) return;
        if (snapshotEvery > 0 && position - snapshotAt >= snapshotEvery) {
          compactionDue = true;
          commit.barrierNext(compactBeside);
        }
      };
      const applied =
        (entry: LoggedCommand, line: string, resolve: (outcome: Applied) => void) => (): void => {
          position += 1;
          lastError = null;
          resolve(apply(entry));
          replica?.feed(line);
          compactIfDue();
        };
      const refused =
        (entry: LoggedCommand, reject: (error: Error) => void) =>
        (failure: AppendFailure): void => {
          lastError = failure.message;
          const why = `cannot append to state file ${path}: ${failure.message}`;
          if (failure.cutBack) {
            reject(new StoreUnavailableError(why));
            return;
          }
          broken = `${why}; and cannot cut the file back`;
          reject(new OutcomeUnknownError(broken, false, readBeforeRetry(entry.command)));
        };
      const resetNow = (
        entry: LoggedCommand,
        resolve: (outcome: Applied) => void,
        reject: (error: Error) => void,
      ): void => {
        // A reset is a snapshot of the fresh state: the commands before it are dropped, not appended to.
        const outcome = apply(entry);
        position += 1;
        replica?.feed(serializeEntry(entry));
        compact(true);
        if (snapshotAt !== position)
          reject(new StoreUnavailableError(`cannot reset state file ${path}: ${lastError}`));
        else resolve(outcome);
      };

      return {
        kind: 'file',
        synchronous: false,
        write(entry) {
          if (broken !== null) throw new StoreUnavailableError(broken);
          return new Promise<Applied>((resolve, reject) => {
            if (entry.command.type === 'reset') {
              // A reset rewrites the files too: after the compaction going on, if any, and none
              // starts before it is made.
              resetsPending += 1;
              const queue = (): void =>
                commit.barrier(() => {
                  resetsPending -= 1;
                  resetNow(entry, resolve, reject);
                });
              if (background === null) queue();
              else void background.then(queue);
            } else {
              const line = serializeEntry(entry);
              commit.append(line, applied(entry, line, resolve), refused(entry, reject));
            }
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
          flushes: commit.flushes,
          capture: replica?.state ?? 'event loop',
          replicaFailure: replica?.failure ?? replicaRefused,
          eventLoopCaptures,
          epoch,
          diverged: null,
          snapshot: snapshotInfo,
        }),
        async close() {
          // A replica still replaying a long log stops first: a stop never waits for that, and a
          // compaction due then is made here, on the event loop. A loaded one finishes what it owes
          // (its serialisation), so the compactions due when the writes stopped are made before the
          // files are let go, as without a replica.
          if (replica !== null && !replica.ready) await replica.close();
          do {
            await background;
            await commit.idle();
          } while (background !== null);
          await replica?.close();
          closeSync(log.fd);
        },
      };
    },
  };
}

/**
 * Starts the replica on what the engine was built from; why not when it cannot start (the store then
 * captures on the event loop, as without one). The log is opened for it here: the replica reads the
 * lines through this descriptor, so a compaction that renames the file meanwhile changes nothing it reads.
 */
function startReplica(
  path: string,
  setup: ReplicaSetup,
  origin: StateOrigin,
  from: {
    readonly image: { readonly bytes: Uint8Array; readonly format: number } | null;
    readonly position: number;
    readonly from: number;
    readonly to: number;
  },
): CompactionReplica | string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (cause) {
    return `cannot open ${path} for the compaction replica: ${(cause as Error).message}`;
  }
  try {
    return startCompactionReplica({
      setup,
      origin,
      image: from.image?.bytes ?? null,
      format: from.image?.format ?? SNAPSHOT_FORMAT,
      fd,
      from: from.from,
      to: from.to,
      position: from.position,
    });
  } catch (cause) {
    closeSync(fd);
    return (cause as Error).message;
  }
}
