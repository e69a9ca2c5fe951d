/**
 * Commands as older versions logged them, read as this version's: a log is replayed whole at every
 * start, so an old file or stream keeps working without being rewritten.
 */
import { keyIdOf } from '../auth/index.ts';
import type { LoggedCommand } from './types.ts';

/**
 * The entry in this version's shape (the same object when nothing changed). A revocation once named
 * the key by its value; it now names it by id, and the value is dropped here, before anything keeps it.
 *
 * @example
 * migrateEntry({ real: 1, command: { type: 'keys.revoke', key: 'cca_live_...' } }).command
 * // { type: 'keys.revoke', keyId: 'key_...' }
 */
export function migrateEntry(entry: LoggedCommand): LoggedCommand {
  const command = entry.command as {
    readonly type: string;
    readonly key?: unknown;
    readonly keyId?: unknown;
  };
  if (command.type === 'keys.revoke' && command.keyId === undefined && typeof command.key === 'string') {
    return { ...entry, command: { type: 'keys.revoke', keyId: keyIdOf(command.key) } };
  }
  return entry;
}
