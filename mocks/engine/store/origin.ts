/**
 * The origin of a persistent log: what built the state the log's commands apply to (seed, data set,
 * options that change state, format version) and where its clock started. A log is replayed only
 * onto the same origin; anything else is refused whole with a message naming what differs.
 * Node only (`node:crypto`): the file and Redis stores use it, never the browser build.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Choices } from '../../../src/contract/choice-points.ts';
import { COMMAND_TYPES } from '../commands/apply.ts';
import { migrateEntry } from '../commands/migrate.ts';
import type { LoggedCommand } from '../commands/types.ts';
import type { StateOptions } from '../state.ts';

/** Bumped when a command's meaning changes: a log of another format is refused, never half-applied. */
export const STATE_FORMAT = 1;

/** What was started: shown in a mismatch, hashed into the fingerprint. */
export interface OriginDescription {
  readonly format: number;
  readonly seed: string;
  readonly actions: number;
  readonly generated: boolean;
  /** sha256 (16 hex) of each data file, in load order. */
  readonly dataFiles: readonly string[];
  readonly moderation: string;
  readonly ingestion: string;
  /** sha256 (16 hex) of the admin token: it is mixed into the confirmation-link secret. */
  readonly adminToken: string | null;
  readonly clock: 'real' | 'frozen';
  /** Where the spec leaves a choice (`--choice`): some decide how a write is applied. */
  readonly choices: string;
}

export interface StateOrigin {
  readonly fingerprint: string;
  readonly describe: OriginDescription;
  /** Epoch ms the shared clock started at (and the real time a running clock counts from). */
  readonly clockStart: number;
  readonly createdAt: string;
  /**
   * The identity of this one log, drawn when it is created: a log wiped and started again has another,
   * so a replica can tell, and ids are drawn from it so the new log never reissues the old one's.
   * Absent in a log from before epochs.
   */
  readonly epoch?: string;
}

/** The log cannot be used with this mock: another origin, another format, or a damaged entry. */
export class StateStoreError extends Error {
  override readonly name = 'StateStoreError';
  constructor(
    readonly code: 'STATE_MISMATCH' | 'STATE_INVALID' | 'STORE_UNREACHABLE',
    message: string,
  ) {
    super(message);
  }
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** What a log's origin records of the options: the state's, and the choices. */
export function describeOrigin(
  options: StateOptions & { readonly choices: Choices },
  clock: 'real' | 'frozen',
): OriginDescription {
  return {
    format: STATE_FORMAT,
    seed: String(options.seed),
    actions: options.actions,
    generated: options.data.generated,
    dataFiles: options.data.files.map((file) => sha(JSON.stringify(file))),
    moderation: JSON.stringify(options.moderation),
    ingestion: JSON.stringify(options.ingestion),
    adminToken: options.adminToken === null ? null : sha(options.adminToken),
    clock,
    choices: JSON.stringify(options.choices),
  };
}

/** A new origin for a log that has none yet: the clock starts now. */
export function newOrigin(describe: OriginDescription, now: number): StateOrigin {
  return {
    fingerprint: sha(JSON.stringify(describe)),
    describe,
    clockStart: now,
    createdAt: new Date(now).toISOString(),
    epoch: randomBytes(8).toString('hex'),
  };
}

/** Throws a `STATE_MISMATCH` naming every difference when `found` is not the origin this mock would build. */
export function checkOrigin(found: StateOrigin, expected: OriginDescription, where: string): void {
  const wanted = sha(JSON.stringify(expected));
  if (found.fingerprint === wanted) return;
  const was = (found.describe ?? {}) as unknown as Readonly<Record<string, unknown>>;
  const differences = Object.entries(expected)
    .filter(([name, value]) => JSON.stringify(was[name]) !== JSON.stringify(value))
    .map(([name, value]) => `${name} ${JSON.stringify(was[name])} there, ${JSON.stringify(value)} here`);
  throw new StateStoreError(
    'STATE_MISMATCH',
    `${where} was written by a mock started differently (${differences.join('; ') || 'fingerprint differs'}); nothing was applied. Start with the same seed, data files and options, or use a new state location`,
  );
}

/** Reads one logged command (a line of a file, an entry of a stream); throws `STATE_INVALID` naming it. */
export function parseEntry(text: string, where: string): LoggedCommand {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new StateStoreError(
      'STATE_INVALID',
      `${where} is not JSON (${cause instanceof Error ? cause.message : String(cause)}); nothing was applied`,
    );
  }
  const entry = value as Partial<LoggedCommand> | null;
  const type = entry?.command?.type;
  if (
    entry === null ||
    typeof entry !== 'object' ||
    typeof entry.real !== 'number' ||
    typeof type !== 'string'
  ) {
    throw new StateStoreError(
      'STATE_INVALID',
      `${where} is not a logged command {"real", "command"}; nothing was applied`,
    );
  }
  if (!COMMAND_TYPES.has(type)) {
    throw new StateStoreError(
      'STATE_INVALID',
      `${where} holds a command this version does not know (${JSON.stringify(type)}); nothing was applied`,
    );
  }
  return migrateEntry(entry as LoggedCommand);
}
