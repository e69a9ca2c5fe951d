/**
 * The confirmation link's token and the page's CSRF tokens: HMAC-SHA-256 (Web Crypto, so the engine
 * still runs in a browser) under a secret derived from the engine's seed and, when the mock has one,
 * its admin token. No `Math.random`, no `Date.now`: a run is reproducible from its seed, and a link is
 * unguessable to anyone who knows neither (start a shared mock with a seed of its own, or an admin
 * token). The token is bound to one request by the state's token map; the CSRF token names the page
 * view it was issued for and is bound to the request and its link by the MAC.
 */
import { constantTimeEqual } from '../auth/constant-time.ts';

const utf8 = new TextEncoder();

/** A token as it appears in a link: 43 base64url characters (256 bits). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * An HMAC-SHA-256 signer under one secret; the key is imported at the first signature, so an engine
 * where Web Crypto is unavailable (a browser page on a non-secure origin, through MSW) still starts:
 * only the reply links need it.
 */
export class Signer {
  readonly #secret: string;
  #key: Promise<CryptoKey> | undefined;

  constructor(secret: string) {
    this.#secret = secret;
  }

  #imported(): Promise<CryptoKey> {
    this.#key ??= crypto.subtle.importKey(
      'raw',
      utf8.encode(this.#secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    return this.#key;
  }

  /** base64url(HMAC(secret, parts joined by a separator no part can hold unescaped)). */
  async mac(...parts: readonly string[]): Promise<string> {
    const message = parts.map((part) => JSON.stringify(part)).join('|');
    const signature = await crypto.subtle.sign('HMAC', await this.#imported(), utf8.encode(message));
    return base64url(new Uint8Array(signature));
  }
}

/** The token of the confirmation link of one request (`serial` counts the links issued by the engine). */
export function approvalToken(
  signer: Signer,
  serial: number,
  organizationId: string,
  requestId: string,
): Promise<string> {
  return signer.mac('approval', String(serial), organizationId, requestId);
}

/** A CSRF token for page view `view` of the request reached through `token`: `<view>.<mac>`. */
export async function csrfToken(
  signer: Signer,
  view: number,
  organizationId: string,
  requestId: string,
  token: string,
): Promise<string> {
  return `${view}.${await signer.mac('csrf', String(view), organizationId, requestId, token)}`;
}

/**
 * Whether `presented` is a CSRF token issued under this engine's secret for this request and link. The
 * MAC alone proves it: the view may have been rendered by another replica sharing the seed and admin
 * token (a confirmation page behind a load balancer), whose page-view count this one never saw.
 */
export async function csrfValid(
  signer: Signer,
  presented: string,
  organizationId: string,
  requestId: string,
  token: string,
): Promise<boolean> {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(presented);
  if (match === null) return false;
  const view = Number.parseInt(match[1] ?? '', 10);
  if (!(view >= 1)) return false;
  const expected = await csrfToken(signer, view, organizationId, requestId, token);
  return constantTimeEqual(presented, expected);
}
