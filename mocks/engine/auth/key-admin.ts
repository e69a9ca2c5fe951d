/**
 * Key management for the mock's admin API, its journal and its logs: keys created and revoked by
 * hand, their derived values, and the stable ids by which commands, logs and URLs name a key without
 * holding its value. No client of the spec reaches this (keys are made in the settings area, spec 5.2);
 * authentication is `authenticate.ts`.
 */
import type { KeyProfile, KeyRecord } from '../types.ts';
import { type AuthState, isKeyHash, keyHashOf } from './authenticate.ts';

/** Expiry choices at creation (spec 5.5); 90 days is the default. */
export type KeyExpiry = '30d' | '90d' | 'none';
export const KEY_EXPIRIES: readonly KeyExpiry[] = ['30d', '90d', 'none'];
const DAY_MS = 86_400_000;
const EXPIRY_MS: Readonly<Record<KeyExpiry, number | null>> = {
  '30d': 30 * DAY_MS,
  '90d': 90 * DAY_MS,
  none: null,
};

/** FNV-1a over a string, 32 bits, as 8 hex digits: enough to make generated keys look random. */
function hash32(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

export interface CreateKeyInput {
  readonly organizationId: string;
  /** Default `reporting`, the spec's default permission profile (section 5.4). */
  readonly profile?: KeyProfile;
  readonly expiry?: KeyExpiry;
  readonly name?: string;
}

/**
 * The value of the `n`th key created by an engine of `seed`: derived, never random, so runs are
 * reproducible and a snapshot can leave it out and derive it again.
 */
export function createdKeyValue(
  seed: string,
  organizationId: string,
  profile: KeyProfile,
  n: number,
): string {
  const material = `${seed}:${organizationId}:${profile}:${n}`;
  return `cca_mock_${hash32(material)}${hash32(`${material}:b`)}${hash32(`${material}:c`)}`;
}

/** A key just created: its record, and its value (shown once, in the answer to the creation). */
export type CreatedKey = KeyRecord & { readonly key: string };

/** Creates a key; the value is derived from the engine seed and a counter, so runs are reproducible. */
export function createKey(state: AuthState, input: CreateKeyInput, now: number): CreatedKey {
  const profile = input.profile ?? 'reporting';
  state.created += 1;
  const n = state.created;
  const value = createdKeyValue(state.seed, input.organizationId, profile, n);
  const ttl = EXPIRY_MS[input.expiry ?? '90d'];
  const record: KeyRecord = {
    keyHash: state.values.remember(value),
    name: input.name ?? `${profile} key ${n}`,
    organizationId: input.organizationId,
    profile,
    expiresAt: ttl === null ? null : now + ttl,
    revoked: false,
    createdAs: n,
  };
  state.byHash.set(record.keyHash, record);
  return { ...record, key: value };
}

/**
 * The value of a key, when this process can show it: one it has seen, or one it created (derived
 * again from the seed and the creation counter, as after a restart from a snapshot). Undefined for a
 * key loaded by hash, or by value on another replica.
 */
export function keyValueOf(state: AuthState, record: KeyRecord): string | undefined {
  const seen = state.values.valueOf(record.keyHash);
  if (seen !== undefined || record.createdAs === undefined) return seen;
  const value = createdKeyValue(state.seed, record.organizationId, record.profile, record.createdAs);
  if (state.values.hashOf(value) !== record.keyHash) return undefined;
  state.values.remember(value);
  return value;
}

/**
 * Every key value this process knows, the state's and those it once held (what the journal and the
 * violation log mask: a request kept from before a reset still shows no key).
 */
export function knownKeyValues(state: AuthState): string[] {
  for (const record of state.byHash.values()) keyValueOf(state, record);
  return [...state.values.all()];
}

/** A key's stable id from its hash: `key_` and the hash's first 16 hex digits. */
export const keyIdOfHash = (hash: string): string =>
  `key_${hash.slice('sha256:'.length, 'sha256:'.length + 16)}`;

/**
 * A key's stable id: a hash of its value, so a log, a URL or a backup can name a key without holding
 * it. 64 bits of SHA-256: no two keys of one sandbox share it, and the value cannot be read back.
 *
 * @example
 * keyIdOf('cca_live_acme_reporting_srgSvWOKb5NHuZD6v9K8c4fO') // 'key_' and 16 hex digits
 */
export const keyIdOf = (value: string): string => keyIdOfHash(keyHashOf(value));

const KEY_ID = /^key_[0-9a-f]{16}$/;

/** True for a string shaped as a key id (`keyIdOf`); a key value never has that shape. */
export const isKeyId = (text: string): boolean => KEY_ID.test(text);

/**
 * The id of the key a caller named by value, by hash or by id: a known value (or anything not shaped
 * as an id or a hash) is hashed, so only an id ever reaches a command.
 */
export function keyIdFor(state: AuthState, valueOrId: string): string {
  if (state.byHash.has(state.values.hashOf(valueOrId))) return keyIdOf(valueOrId);
  if (isKeyHash(valueOrId)) return keyIdOfHash(valueOrId);
  return isKeyId(valueOrId) ? valueOrId : keyIdOf(valueOrId);
}

/** The key named by its id, if any (a scan: a sandbox holds tens of keys, and a revocation is rare). */
export function keyById(state: AuthState, id: string): KeyRecord | undefined {
  for (const key of state.byHash.values()) if (keyIdOfHash(key.keyHash) === id) return key;
  return undefined;
}

/** Marks the key with this id revoked; returns it, or undefined when no such key exists. */
export function revokeKey(state: AuthState, id: string): KeyRecord | undefined {
  const key = keyById(state, id);
  if (key === undefined) return undefined;
  key.revoked = true;
  return key;
}
