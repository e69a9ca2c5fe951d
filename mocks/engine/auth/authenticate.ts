/**
 * API keys by the SHA-256 of their value, their profiles and scopes (spec section 5), and the
 * authentication of a presented key on the engine clock. The state holds no key value, so nothing
 * written from it (a snapshot, an export) can hold one; the values this process has seen are kept
 * apart (`KeyValues`), for the admin list and the masks.
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
