/**
 * The typed admin operations, callable without HTTP (`engine.admin.createKey(...)`); the `/__mock/`
 * routes are a thin JSON layer over them.
 */
import {
  type AuthState,
  type CreateKeyInput,
  keyIdFor,
  keyIdOfHash,
  keyStatus,
  keyValueOf,
  PROFILE_SCOPES,
} from '../auth/index.ts';
import type { MockClock } from '../clock.ts';
import type { CommandTarget } from '../commands/target.ts';
import type { Command, OutcomeOf } from '../commands/types.ts';
import { AdminError } from '../errors.ts';
import type { FaultInput, Faults, FaultView } from '../faults/index.ts';
import type { EngineState } from '../state.ts';
import type { StoreHealth } from '../store/types.ts';
import type { KeyProfile, KeyRecord, KeyStatus, ModerationMode, Organization, Scope } from '../types.ts';

export { AdminError, isAdminError } from '../errors.ts';

export interface KeyView {
  /** The key's stable id (a hash of its value): what logs, URLs and the journal may show. */
  readonly id: string;
  /** The SHA-256 of the value (`sha256:` and 64 hex digits): how snapshots, logs and exports name it. */
  readonly keyHash: string;
  /**
   * The value, where this process can show it: in the list and in the answer to a creation. Null for
   * a key loaded by hash (or by value on another replica), and in every other answer.
   */
  readonly key: string | null;
  readonly name: string;
  readonly organizationId: string;
  readonly profile: KeyProfile;
  readonly scopes: readonly Scope[];
  readonly status: KeyStatus;
  /** ISO timestamp on the engine clock; null for a key that never expires. */
  readonly expiresAt: string | null;
}

/** The view of a key just created: the one answer that always shows its value. */
export type CreatedKeyView = KeyView & { readonly key: string };

export interface ClockView {
  readonly now: number;
  readonly iso: string;
  readonly running: boolean;
}

/**
 * Targeted faults (docs/mock.md, "Targeted faults"): what the next matching requests answer instead.
 * Cleared by `reset()`.
 */
export interface FaultsAdmin {
  /** Adds a fault; throws a `FaultInputError` naming the field of a bad one. */
  add(input: FaultInput): FaultView;
  /** Every fault with its counters (spent ones included), oldest first. */
  list(): readonly FaultView[];
  /** One fault; throws an AdminError (404) for an unknown id. */
  get(id: string): FaultView;
  /** Removes one fault; throws an AdminError (404) for an unknown id. */
  remove(id: string): FaultView;
  /** Removes every fault; returns how many there were. */
  clear(): number;
}

export interface AdminApi {
  /** Rebuilds the whole state from the seed and puts the clock back to its start. */
  reset(): void;
  listOrganizations(): readonly Organization[];
  setModerationMode(organizationId: string, mode: ModerationMode): Organization;
  listKeys(organizationId?: string): readonly KeyView[];
  /** Creates a key (default expiry 90 days); the returned view is the only time the API shows it as new. */
  createKey(input: CreateKeyInput): CreatedKeyView;
  /** Revokes a key, named by its value or its id: the next request with it fails with 401 at once. */
  revokeKey(key: string): KeyView;
  clock(): ClockView;
  advanceClock(ms: number): ClockView;
  /** Moves the clock to an epoch ms or ISO timestamp; never backwards (the async slices rely on it). */
  setClock(now: number | string): ClockView;
  /** Targeted, deterministic faults: `admin.faults.add({ operation: 'getAction', status: 500 })`. */
  readonly faults: FaultsAdmin;
}

/**
 * What the admin operations act on: the engine's current state (replaced by reset), its clock, and
 * the way writes are made: `run` applies a command now and returns its outcome or throws its refusal
 * (in-memory and file stores); `execute` does the same through any store, shared ones included.
 */
export interface AdminHost extends CommandTarget {
  readonly state: EngineState;
  readonly clock: MockClock;
  run<C extends Command>(command: C): OutcomeOf<C>;
  execute<C extends Command>(command: C): Promise<OutcomeOf<C>>;
  storeHealth(): Promise<StoreHealth>;
  /** The engine's targeted faults (not part of the state: they are this process's, cleared at reset). */
  readonly faults: Faults;
}

/**
 * The admin view of a key at `now`, with `value` as its value (null: not shown).
 *
 * @example
 * keyViewOf(record, clock.now(), keyValueOf(state.keys, record) ?? null)
 */
export function keyViewOf(key: KeyRecord, now: number, value: string | null = null): KeyView {
  return {
    id: keyIdOfHash(key.keyHash),
    keyHash: key.keyHash,
    key: value,
    name: key.name,
    organizationId: key.organizationId,
    profile: key.profile,
    scopes: PROFILE_SCOPES[key.profile],
    status: keyStatus(key, now),
    expiresAt: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
  };
}

/** The clock as the admin API shows it. */
export function clockViewOf(clock: MockClock): ClockView {
  const now = clock.now();
  return { now, iso: new Date(now).toISOString(), running: clock.running };
}

/** The keys of an organization (or all) as the list shows them: with the values this process can show. */
export function listedKeys(keys: AuthState, now: number, organizationId?: string): KeyView[] {
  return [...keys.byHash.values()]
    .filter((k) => organizationId === undefined || k.organizationId === organizationId)
    .map((k) => keyViewOf(k, now, keyValueOf(keys, k) ?? null));
}

function faultsAdminOf(faults: Faults): FaultsAdmin {
  const found = (id: string, view: FaultView | undefined): FaultView => {
    if (view === undefined) {
      const ids = faults.list().map((f) => f.id);
      throw new AdminError(
        'NOT_FOUND',
        `no fault ${JSON.stringify(id)}; the faults are ${ids.length === 0 ? 'none' : ids.join(', ')}`,
      );
    }
    return view;
  };
  return {
    add: (input) => faults.add(input),
    list: () => faults.list(),
    get: (id) => found(id, faults.get(id)),
    remove: (id) => found(id, faults.remove(id)),
    clear: () => faults.clear(),
  };
}

export function createAdminApi(host: AdminHost): AdminApi {
  const clockView = (): ClockView => clockViewOf(host.clock);
  return {
    faults: faultsAdminOf(host.faults),
    reset: () => host.run({ type: 'reset' }),
    listOrganizations: () => [...host.state.organizations.values()],
    setModerationMode: (organizationId, mode) =>
      host.run({ type: 'organization.moderationMode', organizationId, mode }),
    listKeys(organizationId) {
      const now = host.clock.now();
      return listedKeys(host.state.keys, now, organizationId);
    },
    createKey(input) {
      const created = host.run({ type: 'keys.create', input });
      return { ...keyViewOf(created, host.clock.now()), key: created.key };
    },
    revokeKey(key) {
      const keyId = keyIdFor(host.state.keys, key);
      return keyViewOf(host.run({ type: 'keys.revoke', keyId }), host.clock.now());
    },
    clock: clockView,
    advanceClock(ms) {
      host.run({ type: 'clock.advance', ms });
      return clockView();
    },
    setClock(now) {
      host.run({ type: 'clock.set', now });
      return clockView();
    },
  };
}
