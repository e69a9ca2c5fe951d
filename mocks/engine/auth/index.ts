/**
 * The keys slice: API keys by value, their profiles and scopes (spec section 5), authentication of a
 * presented key on the engine clock, and key creation/revocation for the admin API.
 */
import { sha256Hex } from '../sha256.ts';
import type { ApiKeyRecord, KeyProfile, KeyStatus, Scope } from '../types.ts';
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

export interface AuthState {
  readonly byKey: Map<string, ApiKeyRecord>;
  /** Seed of the generated key values (deterministic per engine seed). */
  readonly seed: string;
  /** How many keys the admin API has created; drives the generated values. */
  created: number;
}

export function createAuthState(keys: readonly ApiKeyRecord[], seed: number | string): AuthState {
  const byKey = new Map<string, ApiKeyRecord>();
  for (const key of keys) byKey.set(key.key, { ...key });
  return { byKey, seed: String(seed), created: 0 };
}

export function keyStatus(key: ApiKeyRecord, now: number): KeyStatus {
  if (key.revoked) return 'revoked';
  return key.expiresAt !== null && key.expiresAt <= now ? 'expired' : 'active';
}

export function hasScope(key: ApiKeyRecord, scope: Scope): boolean {
  return PROFILE_SCOPES[key.profile].includes(scope);
}

export type Authentication =
  | { readonly ok: true; readonly key: ApiKeyRecord }
  | { readonly ok: false; readonly reason: 'missing' | 'unknown' | 'expired' | 'revoked' };

/**
 * Authenticates the value of the `X-API-Key` header. The map lookup finds the candidate; the final
 * comparison is constant-time. Revocation and expiry are read at the moment of the request, so a
 * revoked key fails at once (spec 5.6).
 */
export function authenticate(state: AuthState, presented: string | null, now: number): Authentication {
  if (presented === null || presented.trim() === '') return { ok: false, reason: 'missing' };
  const candidate = state.byKey.get(presented);
  if (candidate === undefined || !constantTimeEqual(candidate.key, presented))
    return { ok: false, reason: 'unknown' };
  const status = keyStatus(candidate, now);
  if (status !== 'active') return { ok: false, reason: status };
  return { ok: true, key: candidate };
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

/** Creates a key; the value is derived from the engine seed and a counter, so runs are reproducible. */
export function createKey(state: AuthState, input: CreateKeyInput, now: number): ApiKeyRecord {
  const profile = input.profile ?? 'reporting';
  state.created += 1;
  const n = state.created;
  const value = createdKeyValue(state.seed, input.organizationId, profile, n);
  const ttl = EXPIRY_MS[input.expiry ?? '90d'];
  const record: ApiKeyRecord = {
    key: value,
    name: input.name ?? `${profile} key ${n}`,
    organizationId: input.organizationId,
    profile,
    expiresAt: ttl === null ? null : now + ttl,
    revoked: false,
  };
  state.byKey.set(value, record);
  return record;
}

/**
 * A key's stable id: a hash of its value, so a log, a URL or a backup can name a key without holding
 * it. 64 bits of SHA-256: no two keys of one sandbox share it, and the value cannot be read back.
 *
 * @example
 * keyIdOf('cca_live_acme_reporting_srgSvWOKb5NHuZD6v9K8c4fO') // 'key_' and 16 hex digits
 */
export function keyIdOf(value: string): string {
  return `key_${sha256Hex(value).slice(0, 16)}`;
}

const KEY_ID = /^key_[0-9a-f]{16}$/;

/** True for a string shaped as a key id (`keyIdOf`); a key value never has that shape. */
export const isKeyId = (text: string): boolean => KEY_ID.test(text);

/**
 * The id of the key a caller named by value or by id: a known value (or anything not shaped as an id)
 * is hashed, so only an id ever reaches a command.
 */
export function keyIdFor(state: AuthState, valueOrId: string): string {
  return state.byKey.has(valueOrId) || !isKeyId(valueOrId) ? keyIdOf(valueOrId) : valueOrId;
}

/** The key named by its id, if any (a scan: a sandbox holds tens of keys, and a revocation is rare). */
export function keyById(state: AuthState, id: string): ApiKeyRecord | undefined {
  for (const [value, key] of state.byKey) if (keyIdOf(value) === id) return key;
  return undefined;
}

/** Marks the key with this id revoked; returns it, or undefined when no such key exists. */
export function revokeKey(state: AuthState, id: string): ApiKeyRecord | undefined {
  const key = keyById(state, id);
  if (key === undefined) return undefined;
  key.revoked = true;
  return key;
}
