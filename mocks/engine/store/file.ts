/**
 * `--state-file FILE`: the command log as JSON lines. Line 1 is the origin (`origin.ts`); every other
 * line is one command, appended before it is applied and flushed to disk (`fdatasync`) before the write
 * is answered, so an answered write survives a crash of the process or the machine. Concurrent writes
 * share one flush (group commit), off the event loop, so reads never wait for the disk. Restart replays
 * the file after the seed and data files. The whole file is read and checked before anything is
 * applied: a file from another origin or with a damaged line is refused, never half-applied. Only a
 * last line without its newline (a write cut off by a crash, never answered) is dropped.
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
import {
  checkOrigin,
  type OriginDescription,
  parseEntry,
  type StateOrigin,
  StateStoreError,
} from './origin.ts';
import { type ApplyEntry, type CommandStore, OutcomeUnknownError, StoreUnavailableError } from './types.ts';

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
  /** Binds the file to the engine: replays every entry through `apply`, then appends new ones. */
  attach(apply: ApplyEntry): CommandStore;
  /** What was repaired on opening (a cut-off last line), for the start-up message. */
  readonly notes: readonly string[];
}

function readOrigin(line: string, path: string): StateOrigin {
  try {
    const value = JSON.parse(line) as Partial<StateOrigin> & { readonly 'cca-kit-state'?: unknown };
    if (
      value['cca-kit-state'] === undefined ||
      typeof value.fingerprint !== 'string' ||
      typeof value.clockStart !== 'number'
    )
      throw new Error('no origin');
    return value as StateOrigin;
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
 * const file = openStateFile('sandbox.state', describeOrigin(options, 'real'), Date.now());
 * await engine.useStore((apply) => file.attach(apply));
 */
export function openStateFile(path: string, expected: OriginDescription, origin: StateOrigin): OpenedFile {
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
  let entries: LoggedCommand[] = [];
  let found = origin;
  let keep = Buffer.byteLength(text);
  if (text !== '') {
    const lines = text.split('\n');
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
    entries = lines.slice(1).map((line, index) => parseEntry(line, `${path} line ${index + 2}`));
  }
  return {
    origin: found,
    notes,
    attach(apply) {
      let fd: number;
      try {
        fd = openSync(path, text === '' ? 'w' : 'r+');
        if (text === '') {
          writeSync(fd, `${JSON.stringify({ 'cca-kit-state': 1, ...found })}\n`);
          fdatasyncSync(fd);
          keep = Buffer.byteLength(`${JSON.stringify({ 'cca-kit-state': 1, ...found })}\n`);
        } else ftruncateSync(fd, keep);
      } catch (cause) {
        throw new StateStoreError(
          'STATE_INVALID',
          `cannot write state file ${path}: ${(cause as Error).message}`,
        );
      }
      for (const entry of entries) apply(entry);
      let position = entries.length;
      let offset = keep;
      let lastError: string | null = null;
      // Group commit: a write waits in `queued` while a flush is on disk's way; the next flush writes
      // every queued line at once and syncs once. Nothing is applied before its bytes are durable, and
      // the event loop never waits for the disk (reads are answered meanwhile).
      let queued: Pending[] = [];
      let flushing: Promise<void> | null = null;
      let broken: string | null = null;
      let flushes = 0;
      const flush = async (): Promise<void> => {
        while (queued.length > 0) {
          const batch = queued;
          queued = [];
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
          connected: lastError === null,
          lastError,
          flushes,
        }),
        async close() {
          await flushing;
          closeSync(fd);
        },
      };
    },
  };
}
