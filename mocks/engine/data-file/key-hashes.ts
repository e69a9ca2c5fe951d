/**
 * Key values out of a data file before anything keeps it: a file may give a key by value (`key`), and
 * the engine keeps, logs and exports only its hash (`keyHash`). A command that loads a file carries
 * the hashed file, so a command log, a snapshot (the baseline holds the files) or a backup holds no
 * key a client could present.
 */
import { type KeyValues, keyHashOf } from '../auth/index.ts';
import type { DataFileKey } from './types.ts';

/** The hash of a key entry, given by value or by hash. */
export const keyHashOfEntry = (key: DataFileKey): string => key.keyHash ?? keyHashOf(key.key);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `value` (a data file, checked or not) with every key given by value given by hash instead; the
 * values are remembered in `values` when given (this process may show them in the key list). An entry
 * that gives both keeps its `keyHash`, and its `key` becomes the value's hash: still refused by the
 * schema (exactly one of the two), and the value is gone. Anything else is left as it is.
 *
 * @example
 * withKeyHashes({ version: 1, organizations: [], keys: [{ key: 'team_key_1', organizationId: 'o', profile: 'write' }] })
 * // { version: 1, organizations: [], keys: [{ keyHash: 'sha256:…', organizationId: 'o', profile: 'write' }] }
 */
export function withKeyHashes(value: unknown, values?: KeyValues): unknown {
  if (!isRecord(value) || !Array.isArray(value['keys'])) return value;
  const keys = value['keys'] as unknown[];
  if (!keys.some((k) => isRecord(k) && typeof k['key'] === 'string')) return value;
  return {
    ...value,
    keys: keys.map((entry) => {
      if (!isRecord(entry) || typeof entry['key'] !== 'string') return entry;
      const { key, ...rest } = entry as Record<string, unknown> & { key: string };
      const hash = values === undefined ? keyHashOf(key) : values.remember(key);
      return entry['keyHash'] === undefined ? { ...rest, keyHash: hash } : { ...rest, key: hash };
    }),
  };
}
