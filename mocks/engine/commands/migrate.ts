/**
 * Commands as older versions logged them, read as this version's: a log is replayed whole at every
 * start, so an old file or stream keeps working without being rewritten.
 */
import { keyIdOf } from '../auth/index.ts';
import { withKeyHashes } from '../data-file/key-hashes.ts';
import type { LoggedCommand } from './types.ts';

/**
 * The entry in this version's shape (the same object when nothing changed). A revocation once named
 * the key by its value; it now names it by id. A loaded data file once carried its keys by value; they
 * are now hashed. The values are dropped here, before anything keeps them.
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
    readonly file?: unknown;
  };
  if (command.type === 'keys.revoke' && command.keyId === undefined && typeof command.key === 'string') {
    return { ...entry, command: { type: 'keys.revoke', keyId: keyIdOf(command.key) } };
  }
  if (command.type === 'data.merge' || command.type === 'data.replace') {
    const file = withKeyHashes(command.file);
    if (file !== command.file) return { ...entry, command: { type: command.type, file } };
  }
  return entry;
}
