/**
 * Who is calling: the key presented on the connection, checked by the engine's keys slice on the
 * engine clock (spec 5: revocation and expiry count at the moment of each request), turned into the
 * `AgentIdentity` every tool is given. How the MCP connection authenticates is not shown in the spec
 * (5.9, `x-spec-gap` in contract/agent/tools.json): the mock reads `Authorization: Bearer <key>` first,
 * then `X-API-Key`.
 */
import { authenticate, PROFILE_SCOPES } from '../../engine/auth/index.ts';
import type { Engine } from '../../engine/engine.ts';
import type { KeyRecord } from '../../engine/types.ts';
import type { AgentIdentity } from '../types.ts';

export type KeyRefusal = 'missing' | 'unknown' | 'expired' | 'revoked' | 'malformed';

export type AgentAuthentication =
  | { readonly ok: true; readonly identity: AgentIdentity; readonly key: string }
  | { readonly ok: false; readonly reason: KeyRefusal };

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The key a request presents: the Bearer token, else `X-API-Key`; `malformed` when an Authorization
 * header is present but is not a Bearer token (so a Basic header is not silently ignored).
 */
export function presentedKey(
  headers: Headers,
): { readonly key: string | null } | { readonly malformed: true } {
  const authorization = headers.get('authorization');
  if (authorization !== null && authorization.trim() !== '') {
    const match = BEARER.exec(authorization);
    if (match?.[1] === undefined) return { malformed: true };
    return { key: match[1] };
  }
  return { key: headers.get('x-api-key') };
}

export function identityOf(key: KeyRecord): AgentIdentity {
  return {
    organizationId: key.organizationId,
    keyName: key.name,
    profile: key.profile,
    scopes: PROFILE_SCOPES[key.profile],
  };
}

/** Authenticates a key value against the engine's keys, now. */
export function authenticateKey(engine: Engine, key: string | null): AgentAuthentication {
  const result = authenticate(engine.state.keys, key, engine.clock.now());
  if (!result.ok) return { ok: false, reason: result.reason };
  return { ok: true, identity: identityOf(result.key), key: key ?? '' };
}

/** Authenticates the key a request presents. */
export function authenticateRequest(engine: Engine, headers: Headers): AgentAuthentication {
  const presented = presentedKey(headers);
  if ('malformed' in presented) return { ok: false, reason: 'malformed' };
  return authenticateKey(engine, presented.key);
}

const REFUSAL_TEXT: Readonly<Record<KeyRefusal, string>> = {
  missing: 'No API key: send it as "Authorization: Bearer <key>" or "X-API-Key: <key>"',
  malformed: 'The Authorization header is not a Bearer token: send "Authorization: Bearer <key>"',
  unknown: 'The API key is not valid',
  expired: 'The API key has expired',
  revoked: 'The API key has been revoked',
};

/**
 * The 401 answer given before any MCP message is handled: a JSON-RPC error body (so MCP clients can
 * show it) and a `WWW-Authenticate` challenge naming the Bearer scheme.
 */
export function unauthorizedResponse(reason: KeyRefusal): Response {
  const message = REFUSAL_TEXT[reason];
  const error = reason === 'missing' ? 'invalid_request' : 'invalid_token';
  return new Response(
    JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message, data: { reason } } }),
    {
      status: 401,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'www-authenticate': `Bearer realm="cca-kit", error="${error}", error_description="${message.replaceAll('"', "'")}"`,
      },
    },
  );
}
