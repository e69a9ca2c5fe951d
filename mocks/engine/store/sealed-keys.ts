/**
 * A snapshot holds the engine state, and the state holds the key table by value (a presented key is
 * looked up by it). So before a snapshot's bytes are written, every key value that can be derived
 * again is replaced by a token of the same length naming its id (`keyIdOf`): the seeded keys (a
 * function of the seed) and the keys the engine created (a function of the seed, the organization,
 * the profile and the creation counter). Same length, so the serialised strings stay valid; on
 * restore the tokens are derived back before the bytes are decoded. The keys the engine started with
 * (those the start-up data files give by value) are sealed too: a snapshot is loaded only by an engine
 * with the same seed and data files (its fingerprint), which holds them again. A key loaded later by
 * value (`POST`/`PUT /__mock/data`) has nothing to be derived from and stays as it is, and so does a
 * key shorter than a token (18 characters).
 */
import { seededKeys } from '../../../fixtures/seeded-keys.ts';
import { type AuthState, createdKeyValue, keyIdOf } from '../auth/index.ts';
import type { ApiKeyRecord } from '../types.ts';

/** `\x01K`, the id's 16 hex digits, then `#` up to the value's length: never a character of a key. */
const TOKEN_HEAD = 18;
// A control character by design: no key value, and no text a client sends, starts a token with it.
const TOKEN = new RegExp(`${String.fromCharCode(1)}K([0-9a-f]{16})#*`, 'g');
const PRINTABLE = /^[\x21-\x7e]+$/;

const tokenOf = (value: string): string =>
  `\x01K${keyIdOf(value).slice('key_'.length)}${'#'.repeat(value.length - TOKEN_HEAD)}`;

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The n of a created key, when its value is the engine's derivation for it. */
function createdIndex(keys: AuthState, record: ApiKeyRecord): number | undefined {
  for (let n = 1; n <= keys.created; n += 1)
    if (createdKeyValue(keys.seed, record.organizationId, record.profile, n) === record.key) return n;
  return undefined;
}

const sealable = (value: string): boolean => value.length >= TOKEN_HEAD && PRINTABLE.test(value);

/** The key values an engine holds when it starts (seeded, and given by its start-up data files). */
export const startKeyValues = (keys: AuthState): readonly string[] => [...keys.byKey.keys()];

/**
 * The key values of `keys` a snapshot leaves out: those the engine can derive again, and the keys of
 * `start` (the engine's own at start-up, wherever the state still holds them).
 */
export function sealableKeys(keys: AuthState, start: readonly string[] = []): string[] {
  const seeded = new Set(seededKeys(keys.seed).map((k) => k.key));
  const out = new Set<string>();
  for (const [value, record] of keys.byKey) {
    if (!sealable(value)) continue;
    if (seeded.has(value) || createdIndex(keys, record) !== undefined) out.add(value);
  }
  for (const value of start) if (sealable(value)) out.add(value);
  return [...out];
}

/** `bytes` with every one of `values` replaced by its token (one pass, latin1: byte for byte). */
export function sealKeys(bytes: Buffer, values: readonly string[]): Buffer {
  if (values.length === 0) return bytes;
  const tokens = new Map(values.map((v) => [v, tokenOf(v)]));
  const any = new RegExp(
    [...tokens.keys()]
      .sort((a, b) => b.length - a.length)
      .map(literal)
      .join('|'),
    'g',
  );
  return Buffer.from(
    bytes.toString('latin1').replace(any, (v) => tokens.get(v) ?? v),
    'latin1',
  );
}

/** Whether `bytes` hold sealed keys. */
export const hasSealedKeys = (bytes: Uint8Array): boolean =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1').search(TOKEN) >= 0;

/**
 * The values of the tokens `keys` (the state decoded with its tokens in), `running` and `start` can
 * derive: seeded keys, the engine's start-up keys, and created ones from their record's organization
 * and profile and the counter.
 */
export function derivableValues(
  keys: AuthState,
  running: AuthState,
  start: readonly string[] = [],
): Map<string, string> {
  const byId = new Map<string, string>();
  const add = (value: string) => byId.set(keyIdOf(value).slice('key_'.length), value);
  for (const k of seededKeys(keys.seed)) add(k.key);
  for (const value of start) add(value);
  for (const value of running.byKey.keys()) add(value);
  for (const record of keys.byKey.values())
    for (let n = 1; n <= keys.created; n += 1)
      add(createdKeyValue(keys.seed, record.organizationId, record.profile, n));
  return byId;
}

/** `bytes` with every token put back; throws naming a key it cannot derive (the snapshot is refused). */
export function unsealKeys(bytes: Uint8Array, values: ReadonlyMap<string, string>): Buffer {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return Buffer.from(
    text.replace(TOKEN, (token, id: string) => {
      const value = values.get(id);
      if (value === undefined || value.length !== token.length)
        throw new Error(`the snapshot seals key key_${id}, which this engine cannot derive again`);
      return value;
    }),
    'latin1',
  );
}
