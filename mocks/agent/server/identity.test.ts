import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/index.ts';
import { authenticateRequest, presentedKey, unauthorizedResponse } from './identity.ts';

describe('the key a request presents', () => {
  it('reads a Bearer token (any case, extra spaces), else X-API-Key; a non-Bearer Authorization is malformed', () => {
    expect(presentedKey(new Headers({ authorization: 'Bearer abc' }))).toEqual({ key: 'abc' });
    expect(presentedKey(new Headers({ authorization: 'bearer   abc  ' }))).toEqual({ key: 'abc' });
    expect(presentedKey(new Headers({ 'x-api-key': 'k' }))).toEqual({ key: 'k' });
    expect(presentedKey(new Headers({ authorization: 'Bearer a', 'x-api-key': 'b' }))).toEqual({ key: 'a' });
    expect(presentedKey(new Headers({ authorization: 'Basic YTpi' }))).toEqual({ malformed: true });
    expect(presentedKey(new Headers({ authorization: 'Bearer a b' }))).toEqual({ malformed: true });
    expect(presentedKey(new Headers())).toEqual({ key: null });
  });

  it('property: a token survives byte for byte', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x21-\x7e]{1,80}$/), (token) => {
        expect(presentedKey(new Headers({ authorization: `Bearer ${token}` }))).toEqual({ key: token });
      }),
    );
  });

  it('fixes the identity from the key (organization, name, profile, scopes), and refuses the rest with a reason', () => {
    const engine = createEngine({ seed: 42, actions: 20 });
    const keys = engine.admin.listKeys('org_acme');
    const active = keys.find((k) => k.profile === 'reporting' && k.status === 'active');
    const auth = authenticateRequest(engine, new Headers({ authorization: `Bearer ${active?.key ?? ''}` }));
    expect(auth).toMatchObject({
      ok: true,
      identity: { organizationId: 'org_acme', profile: 'reporting', scopes: ['read'] },
    });
    const revoked = keys.find((k) => k.status === 'revoked');
    expect(authenticateRequest(engine, new Headers({ 'x-api-key': revoked?.key ?? '' }))).toEqual({
      ok: false,
      reason: 'revoked',
    });
    expect(authenticateRequest(engine, new Headers({ 'x-api-key': 'nope' }))).toEqual({
      ok: false,
      reason: 'unknown',
    });
    expect(authenticateRequest(engine, new Headers())).toEqual({ ok: false, reason: 'missing' });
  });

  it('answers 401 with a Bearer challenge naming the error', async () => {
    const response = unauthorizedResponse('expired');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="cca-kit", error="invalid_token"/,
    );
    expect(((await response.json()) as { error: { data: { reason: string } } }).error.data.reason).toBe(
      'expired',
    );
  });
});
