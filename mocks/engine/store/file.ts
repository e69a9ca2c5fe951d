/**
 * `--state-file FILE`: the command log as JSON lines. Line 1 is the origin (`origin.ts`); every other
 * line is one command, appended before it is applied and flushed to disk (`fdatasync`) before the write
 * is answered, so an answered write survives a crash of the process or the machine. Restart replays
 * the file after the seed and data files. The whole file is read and checked before anything is
 * applied: a file from another origin or with a damaged line is refused, never half-applied. Only a
 * last line without its newline (a write cut off by a crash, never answered) is dropped.
 */
import { closeSync, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { LoggedCommand } from '../commands/types.ts';
import {
  checkOrigin,
  type OriginDescription,
  parseEntry,
  type StateOrigin,
  StateStoreError,
} from './origin.ts';
import { type ApplyEntry, type CommandStore, StoreUnavailableError } from './types.ts';

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
      return {
        kind: 'file',
        synchronous: true,
        write(entry) {
          const line = `${JSON.stringify(entry)}\n`;
          try {
            offset += writeSync(fd, line, offset);
            fdatasyncSync(fd);
          } catch (cause) {
            // Nothing is applied unless it is on disk; a partial line is cut off at the next start.
            lastError = (cause as Error).message;
            throw new StoreUnavailableError(`cannot append to state file ${path}: ${lastError}`);
          }
          position += 1;
          return apply(entry);
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
        }),
        close: async () => closeSync(fd),
      };
    },
  };
}
