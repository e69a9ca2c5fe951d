import { describe, expect, it } from 'vitest';
import type { ApiKeyRecord } from '../types.ts';
import { constantTimeEqual } from './constant-time.ts';
import {
  authenticate,
  createAuthState,
  createKey,
  hasScope,
  KeyValues,
  keyHashOf,
  keyIdOf,
  keyValueOf,
  PROFILE_SCOPES,
  recordOf,
  revokeKey,
} from './index.ts';

const key = (overrides: Partial<ApiKeyRecord>): ApiKeyRecord => ({
  key: 'k-active',
  name: 'k',
  organizationId: 'org_a',
  profile: 'reporting',
  expiresAt: null,
  revoked: false,
  ...overrides,
});

describe('keys and scopes', () => {
  it('profiles grant the scopes of spec 5.4', () => {
    expect(PROFILE_SCOPES).toEqual({
      reporting: ['read'],
      write: ['write'],
      read_write: ['read', 'write'],
      import: ['ingest', 'ingest:read'],
    });
    const scoped = (profile: ApiKeyRecord['profile']) => recordOf(new KeyValues(), key({ profile }));
    expect(hasScope(scoped('import'), 'read')).toBe(false);
    expect(hasScope(scoped('read_write'), 'write')).toBe(true);
  });

  it('authenticates missing, unknown, expired, revoked and active keys', () => {
    const state = createAuthState(
      [key({}), key({ key: 'k-expired', expiresAt: 100 }), key({ key: 'k-revoked', revoked: true })],
      1,
    );
    expect(authenticate(state, null, 50)).toEqual({ ok: false, reason: 'missing' });
    expect(authenticate(state, '  ', 50)).toEqual({ ok: false, reason: 'missing' });
    expect(authenticate(state, 'k-nope', 50)).toEqual({ ok: false, reason: 'unknown' });
    expect(authenticate(state, 'k-expired', 99).ok).toBe(true);
    expect(authenticate(state, 'k-expired', 100)).toEqual({ ok: false, reason: 'expired' });
    expect(authenticate(state, 'k-revoked', 50)).toEqual({ ok: false, reason: 'revoked' });
    expect(authenticate(state, 'k-active', 50).ok).toBe(true);
  });

  it('AUTH-REVOKED-KEY-401-AT-ONCE and AUTH-KEY-EXPIRY-DEFAULT-90-DAYS at the slice level', () => {
    const state = createAuthState([], 'seed');
    const created = createKey(state, { organizationId: 'org_a', profile: 'write' }, 0);
    expect(created.expiresAt).toBe(90 * 86_400_000);
    expect(authenticate(state, created.key, 1).ok).toBe(true);
    revokeKey(state, keyIdOf(created.key));
    expect(authenticate(state, created.key, 1)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('the state holds keys by SHA-256 only; the values seen stay outside it', () => {
    const values = new KeyValues();
    const state = createAuthState([key({ key: 'k-seeded-value' })], 's', values);
    const created = createKey(state, { organizationId: 'org_a' }, 0);
    expect([...state.byHash.keys()]).toEqual([keyHashOf('k-seeded-value'), keyHashOf(created.key)]);
    expect(keyHashOf('abc')).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(JSON.stringify([...state.byHash.values()])).not.toContain('k-seeded-value');
    expect(JSON.stringify([...state.byHash.values()])).not.toContain(created.key);
    // A created key's value derives again from the seed and its counter (a state restored elsewhere).
    const elsewhere = { ...state, values: new KeyValues() };
    const record = elsewhere.byHash.get(keyHashOf(created.key));
    expect(record === undefined ? undefined : keyValueOf(elsewhere, record)).toBe(created.key);
    const seeded = elsewhere.byHash.get(keyHashOf('k-seeded-value'));
    expect(seeded === undefined ? 'missing' : keyValueOf(elsewhere, seeded)).toBe(undefined);
  });

  it('constant-time comparison is still a comparison', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
