/**
 * Who may use the admin API (`/__mock/`) and the dashboard: the rule, in one place.
 *
 * - A request handled in the client's own process or page (the MSW handlers) is not a network client:
 *   nothing else can reach those handlers, so the admin API answers it whatever its headers say (msw 3
 *   puts the target's `host` header on every request; a page's `Origin` is its own site).
 * - A network client is a loopback admin only when it is loopback by every account it gives: the socket's
 *   address, `Host` and `Origin` (another site's page, a DNS-rebinding name) and every forwarding header
 *   (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`, `X-Forwarded-Host`). A balancer on the same host
 *   connects from loopback and often rewrites `Host` to the upstream's: the address it forwards for is
 *   then the only trace of the real client, so one non-loopback (or unreadable) address there refuses.
 * - Anyone presenting the admin token (`X-Mock-Admin-Token`, or `Authorization: Bearer`) is admitted:
 *   the way for a sandbox behind a balancer.
 */
import { constantTimeEqual } from '../auth/constant-time.ts';
import type { RequestHeaders } from '../exchange.ts';

export const ADMIN_TOKEN_HEADER = 'x-mock-admin-token';

/** What the access rule reads of a request (an `EngineRequest` is one). */
export interface AdminClient {
  /** The socket's peer address as the transport saw it. */
  readonly remoteAddress: string | undefined;
  readonly headers: RequestHeaders;
  /** Handled in the client's own process or page (MSW), not received from a network. */
  readonly inProcess?: boolean;
}

export type AdminAccess = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const lower = address.toLowerCase();
  const v4 = lower.startsWith('::ffff:') ? lower.slice(7) : lower;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || lower === '::1' || lower === '0:0:0:0:0:0:0:1';
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 or `[::1]`, with or without a port. */
export function isLoopbackHost(host: string): boolean {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  const lower = name.toLowerCase();
  return lower === 'localhost' || lower.endsWith('.localhost') || isLoopback(lower);
}

/** An address as forwarding headers write it: bare, `[v6]`, `[v6]:port`, `v4:port`, quoted. */
function forwardedAddress(raw: string): string {
  const value = raw.trim().replace(/^"(.*)"$/, '$1');
  if (value.startsWith('['))
    return value.slice(1, value.indexOf(']') === -1 ? undefined : value.indexOf(']'));
  return /^[\d.]+:\d+$/.test(value) ? value.slice(0, value.lastIndexOf(':')) : value;
}

/** `for=` and `host=` of every element of an RFC 7239 `Forwarded` header. */
function forwardedPairs(header: string): { readonly fors: string[]; readonly hosts: string[] } {
  const fors: string[] = [];
  const hosts: string[] = [];
  for (const element of header.split(',')) {
    for (const pair of element.split(';')) {
      const at = pair.indexOf('=');
      if (at === -1) continue;
      const name = pair.slice(0, at).trim().toLowerCase();
      const value = pair.slice(at + 1).trim();
      if (name === 'for') fors.push(forwardedAddress(value));
      else if (name === 'host') hosts.push(value.replace(/^"(.*)"$/, '$1'));
    }
  }
  return { fors, hosts };
}

/** The first account of a non-loopback client in the forwarding headers, or null when there is none. */
function foreignForwarding(headers: RequestHeaders): string | null {
  for (const name of ['x-forwarded-for', 'x-real-ip']) {
    const value = headers.get(name);
    if (value === null) continue;
    for (const entry of value.split(',')) {
      if (!isLoopback(forwardedAddress(entry))) return `${name} names ${JSON.stringify(entry.trim())}`;
    }
  }
  const forwarded = headers.get('forwarded');
  if (forwarded !== null) {
    const { fors, hosts } = forwardedPairs(forwarded);
    const client = fors.find((address) => !isLoopback(address));
    if (client !== undefined) return `forwarded names for=${JSON.stringify(client)}`;
    const host = hosts.find((name) => !isLoopbackHost(name));
    if (host !== undefined) return `forwarded names host=${JSON.stringify(host)}`;
  }
  const forwardedHost = headers.get('x-forwarded-host');
  if (forwardedHost !== null) {
    const host = forwardedHost.split(',').find((name) => !isLoopbackHost(name.trim()));
    if (host !== undefined) return `x-forwarded-host names ${JSON.stringify(host.trim())}`;
  }
  return null;
}

/** Why a loopback socket's request is not a loopback admin's (another site's page, a proxy's client). */
function foreignHeaders(headers: RequestHeaders): string | null {
  const host = headers.get('host');
  if (host !== null && !isLoopbackHost(host)) return `host is ${JSON.stringify(host)}`;
  const origin = headers.get('origin');
  if (origin !== null) {
    let loopbackOrigin = false;
    try {
      const { protocol, host: originHost } = new URL(origin);
      loopbackOrigin = (protocol === 'http:' || protocol === 'https:') && isLoopbackHost(originHost);
    } catch {
      // `null` (a sandboxed frame or a file) or garbage: not a loopback page.
    }
    if (!loopbackOrigin) return `origin is ${JSON.stringify(origin)}`;
  }
  return foreignForwarding(headers);
}

function presentedToken(headers: RequestHeaders): string | null {
  const header = headers.get(ADMIN_TOKEN_HEADER);
  if (header !== null) return header;
  const authorization = headers.get('authorization');
  return authorization?.startsWith('Bearer ') ? authorization.slice(7) : null;
}

/** The access rule (module comment), with the reason of a refusal for the 403's message. */
export function adminAccess(client: AdminClient, token: string | null): AdminAccess {
  if (client.inProcess === true) return { allowed: true };
  const presented = token === null ? null : presentedToken(client.headers);
  if (token !== null && presented !== null && constantTimeEqual(presented, token)) return { allowed: true };
  if (!isLoopback(client.remoteAddress)) {
    const address = client.remoteAddress ?? 'unknown';
    return { allowed: false, reason: `the client address ${address} is not loopback` };
  }
  const foreign = foreignHeaders(client.headers);
  if (foreign === null) return { allowed: true };
  return { allowed: false, reason: `the request comes from loopback but its ${foreign}` };
}

/** The access rule as a yes or no. */
export function adminAllowed(client: AdminClient, token: string | null): boolean {
  return adminAccess(client, token).allowed;
}
