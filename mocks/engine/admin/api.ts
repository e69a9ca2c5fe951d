/**
 * The typed admin operations, callable without HTTP (`engine.admin.createKey(...)`); the `/__mock/`
 * routes are a thin JSON layer over them.
 */
import {
  type CreateKeyInput,
  createKey,
  KEY_EXPIRIES,
  KEY_PROFILES,
  type KeyExpiry,
  keyStatus,
  PROFILE_SCOPES,
  revokeKey,
} from '../auth/index.ts';
import type { MockClock } from '../clock.ts';
import type { EngineState } from '../state.ts';
import type { ApiKeyRecord, KeyProfile, KeyStatus, ModerationMode, Organization, Scope } from '../types.ts';

/** A misuse of an admin operation (unknown key or organization, invalid input); carries an HTTP status. */
export class AdminError extends Error {
  override readonly name = 'AdminError';
  constructor(
    readonly code: 'NOT_FOUND' | 'BAD_REQUEST',
    message: string,
  ) {
    super(message);
  }
  get status(): 404 | 400 {
    return this.code === 'NOT_FOUND' ? 404 : 400;
  }
}

export const isAdminError = (value: unknown): value is AdminError => value instanceof AdminError;

export interface KeyView {
  readonly key: string;
  readonly name: string;
  readonly organizationId: string;
  readonly profile: KeyProfile;
  readonly scopes: readonly Scope[];
  readonly status: KeyStatus;
  /** ISO timestamp on the engine clock; null for a key that never expires. */
  readonly expiresAt: string | null;
}

export interface ClockView {
  readonly now: number;
  readonly iso: string;
  readonly running: boolean;
}

export interface AdminApi {
  /** Rebuilds the whole state from the seed and puts the clock back to its start. */
  reset(): void;
  listOrganizations(): readonly Organization[];
  setModerationMode(organizationId: string, mode: ModerationMode): Organization;
  listKeys(organizationId?: string): readonly KeyView[];
  /** Creates a key (default expiry 90 days); the returned view is the only time the API shows it as new. */
  createKey(input: CreateKeyInput): KeyView;
  /** Revokes a key: the next request with it fails with 401 at once. */
  revokeKey(key: string): KeyView;
  clock(): ClockView;
  advanceClock(ms: number): ClockView;
  /** Moves the clock to an epoch ms or ISO timestamp; never backwards (the async slices rely on it). */
  setClock(now: number | string): ClockView;
}

/** What the admin operations act on: the engine's current state (replaced by reset) and its clock. */
export interface AdminHost {
  readonly state: EngineState;
  readonly clock: MockClock;
  reset(): void;
}

const MODES: readonly ModerationMode[] = ['ad_policy', 'standard'];

function viewOf(key: ApiKeyRecord, now: number): KeyView {
  return {
    key: key.key,
    name: key.name,
    organizationId: key.organizationId,
    profile: key.profile,
    scopes: PROFILE_SCOPES[key.profile],
    status: keyStatus(key, now),
    expiresAt: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
  };
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new AdminError(
    'BAD_REQUEST',
    `${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`,
  );
}

export function createAdminApi(host: AdminHost): AdminApi {
  const organization = (id: string): Organization => {
    const org = host.state.organizations.get(id);
    if (org === undefined) throw new AdminError('NOT_FOUND', `No organization ${JSON.stringify(id)}`);
    return org;
  };
  const clockView = (): ClockView => {
    const now = host.clock.now();
    return { now, iso: new Date(now).toISOString(), running: host.clock.running };
  };

  return {
    reset: () => host.reset(),
    listOrganizations: () => [...host.state.organizations.values()],
    setModerationMode(organizationId, mode) {
      const org = organization(organizationId);
      org.moderationMode = oneOf('mode', mode, MODES);
      return org;
    },
    listKeys(organizationId) {
      const now = host.clock.now();
      const keys = [...host.state.keys.byKey.values()];
      return keys
        .filter((k) => organizationId === undefined || k.organizationId === organizationId)
        .map((k) => viewOf(k, now));
    },
    createKey(input) {
      organization(input.organizationId);
      const profile = oneOf('profile', input.profile ?? 'reporting', KEY_PROFILES);
      const expiry: KeyExpiry = oneOf('expiry', input.expiry ?? '90d', KEY_EXPIRIES);
      if (
        input.name !== undefined &&
        (typeof input.name !== 'string' || input.name.length === 0 || input.name.length > 200)
      ) {
        throw new AdminError('BAD_REQUEST', 'name must be a string of 1..200 characters');
      }
      const now = host.clock.now();
      const created = createKey(
        host.state.keys,
        {
          organizationId: input.organizationId,
          profile,
          expiry,
          ...(input.name === undefined ? {} : { name: input.name }),
        },
        now,
      );
      return viewOf(created, now);
    },
    revokeKey(key) {
      const revoked = revokeKey(host.state.keys, key);
      if (revoked === undefined) throw new AdminError('NOT_FOUND', 'No such API key');
      return viewOf(revoked, host.clock.now());
    },
    clock: clockView,
    advanceClock(ms) {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        throw new AdminError('BAD_REQUEST', `ms must be a finite number >= 0 (got ${JSON.stringify(ms)})`);
      }
      host.clock.advance(ms);
      return clockView();
    },
    setClock(now) {
      const target = typeof now === 'string' ? Date.parse(now) : now;
      if (typeof target !== 'number' || !Number.isFinite(target)) {
        throw new AdminError(
          'BAD_REQUEST',
          `now must be epoch ms or an ISO timestamp (got ${JSON.stringify(now)})`,
        );
      }
      const current = host.clock.now();
      if (target < current) {
        throw new AdminError(
          'BAD_REQUEST',
          `the mock clock cannot move backwards (now ${new Date(current).toISOString()}); use reset to start over`,
        );
      }
      host.clock.set(target);
      return clockView();
    },
  };
}
