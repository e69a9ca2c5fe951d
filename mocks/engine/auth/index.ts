/**
 * The keys slice: API keys by the SHA-256 of their value, their profiles and scopes (spec section 5),
 * authentication of a presented key on the engine clock, and key creation/revocation for the admin
 * API. The state holds no key value, so nothing written from it (a snapshot, an export) can hold one;
 * the values this process has seen are kept apart (`KeyValues`), for the admin list and the masks.
 */
import { sha256Hex } from '../sha256.ts';
import type { ApiKeyRecord, KeyProfile, KeyRecord, KeyStatus, Scope } from '../types.ts';
import { constantTimeEqual } from './constant-time.ts';

/** Scopes granted by each permission profile (spec 5.4). */
export const PROFILE_SCOPES: Readonly<Record<KeyProfile, readonly Scope[]>> = {
  reporting: ['read'],
  write: ['write'],
  read_write: ['read', 'write'],
  import: ['ingest', 'ingest:read'],
};

export const KEY_PROFILES = Object.keys(PROFILE_SCOPES) as readonly KeyProfile[];

/** Expiry choices at creation (spec 5.5); 90 days is the default. */
export type KeyExpiry = '30d' | '90d' | 'none';
export const KEY_EXPIRIES: readonly KeyExpiry[] = ['30d', '90d', 'none'];
const DAY_MS = 86_400_000;
const EXPIRY_MS: Readonly<Record<KeyExpiry, number | null>> = {
  '30d': 30 * DAY_MS,
  '90d': 90 * DAY_MS,
  none: null,
};

/**
 * How the engine names a key value: `sha256:` and the 64 hex digits of its SHA-256.
 *
 * @example
 * keyHashOf('cca_live_acme_reporting_srgSvWOKb5NHuZD6v9K8c4fO') // 'sha256:' and 64 hex digits
 */
export const keyHashOf = (value: string): string => `sha256:${sha256Hex(value)}`;

const KEY_HASH = /^sha256:[0-9a-f]{64}$/;

/** True for a string shaped as a key hash (`keyHashOf`). */
export const isKeyHash = (text: string): boolean => KEY_HASH.test(text);

/** Presented values whose hash is remembered (a client sending random keys cannot grow it further). */
const MAX_HASHED = 1024;

/**
 * The key values this process has seen (seeded, created, loaded by value), by hash: never part of the
 * state, so never in a snapshot (v8 writes no private field, and the image module gives a restored
 * state the running engine's own). Lives as long as the engine, across resets. Also remembers the
 * hash of recently presented values, so a request costs a map lookup, not a SHA-256.
 */
export class KeyValues {
  readonly #byHash = new Map<string, string>();
  readonly #known = new Map<string, string>();
  readonly #recent = new Map<string, string>();

  /** Remembers `value`; returns its hash. */
  remember(value: string): string {
    const hash = this.hashOf(value);
    this.#byHash.set(hash, value);
    this.#known.set(value, hash);
    return hash;
  }

  /** The hash of `value` (looked up for a value seen, computed for any other). */
  hashOf(value: string): string {
    const known = this.#known.get(value) ?? this.#recent.get(value);
    if (known !== undefined) return known;
    const hash = keyHashOf(value);
    if (this.#recent.size >= MAX_HASHED) this.#recent.clear();
    this.#recent.set(value, hash);
    return hash;
  }

  /** The value of `hash`, when this process has seen it. */
  valueOf(hash: string): string | undefined {
    return this.#byHash.get(hash);
  }

  /** Every value seen, the keys no longer in the state included (a reset or a replace removed them). */
  all(): IterableIterator<string> {
    return this.#byHash.values();
  }
}

export interface AuthState {
  /** Every key by its hash (`keyHashOf`). */
  readonly byHash: Map<string, KeyRecord>;
  /** The values seen by this process: not state (see `KeyValues`). */
  readonly values: KeyValues;
  /** Seed of the generated key values (deterministic per engine seed). */
  readonly seed: string;
  /** How many keys the admin API has created; drives the generated values. */
  created: number;
}

/** The record of a key given by value, with the value remembered in `values` and left out. */
export function recordOf(values: KeyValues, key: ApiKeyRecord): KeyRecord {
  return {
    keyHash: values.remember(key.key),
    name: key.name,
    organizationId: key.organizationId,
    profile: key.profile,
    expiresAt: key.expiresAt,
    revoked: key.revoked,
  };
}

export function createAuthState(
  keys: readonly ApiKeyRecord[],
  seed: number | string,
  values: KeyValues = new KeyValues(),
): AuthState {
  const byHash = new Map<string, KeyRecord>();
  for (const key of keys) {
    const record = recordOf(values, key);
    byHash.set(record.keyHash, record);
  }
  return { byHash, values, seed: String(seed), created: 0 };
}

export function keyStatus(key: KeyRecord, now: number): KeyStatus {
  if (key.revoked) return 'revoked';
  return key.expiresAt !== null && key.expiresAt <= now ? 'expired' : 'active';
}

export function hasScope(key: KeyRecord, scope: Scope): boolean {
  return PROFILE_SCOPES[key.profile].includes(scope);
}

export type Authentication =
  | { readonly ok: true; readonly key: KeyRecord }
  | { readonly ok: false; readonly reason: 'missing' | 'unknown' | 'expired' | 'revoked' };

/**
 * Authenticates the value of the `X-API-Key` header: hashed, and the hash looked up; the final
 * comparison is constant-time. Revocation and expiry are read at the moment of the request, so a
 * revoked key fails at once (spec 5.6).
 */
export function authenticate(state: AuthState, presented: string | null, now: number): Authentication {
  if (presented === null || presented.trim() === '') return { ok: false, reason: 'missing' };
  const hash = state.values.hashOf(presented);
  const candidate = state.byHash.get(hash);
  if (candidate === undefined || !constantTimeEqual(candidate.keyHash, hash))
    return { ok: false, reason: 'unknown' };
  const status = keyStatus(candidate, now);
  if (status !== 'active') return { ok: false, reason: status };
  return { ok: true, key: candidate };
}

/** The key a presented value names, whatever its status (the journal's and the violation log's view). */
export function keyOfValue(state: AuthState, presented: string): KeyRecord | undefined {
  return state.byHash.get(state.values.hashOf(presented));
}

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
