/**
 * The admin API under `/__mock/`: not part of the service contract, answered only to loopback clients
 * or to requests carrying the admin token. Routes come from `routes.ts`.
 */
import { constantTimeEqual } from '../auth/constant-time.ts';
import { readJsonBody } from '../body.ts';
import { errors } from '../errors.ts';
import type { EngineRequest, RequestHeaders } from '../exchange.ts';
import { isStoreUnavailable } from '../store/types.ts';
import type { HandlerResult } from '../types.ts';
import { type AdminApi, type AdminHost, isAdminError } from './api.ts';
import type { AdminRoute } from './route.ts';

export type { AdminApi, AdminHost, ClockView, KeyView } from './api.ts';
export { AdminError, createAdminApi, isAdminError } from './api.ts';
export type { AdminContext, AdminResult, AdminRoute } from './route.ts';

export const ADMIN_PREFIX = '/__mock/';
export const ADMIN_TOKEN_HEADER = 'x-mock-admin-token';

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1' || address === '0:0:0:0:0:0:0:1';
}

function presentedToken(headers: RequestHeaders): string | null {
  const header = headers.get(ADMIN_TOKEN_HEADER);
  if (header !== null) return header;
  const authorization = headers.get('authorization');
  return authorization?.startsWith('Bearer ') ? authorization.slice(7) : null;
}

/** `localhost`, `*.localhost`, 127.0.0.0/8 or `[::1]`, with or without a port. */
function isLoopbackHost(host: string): boolean {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  const lower = name.toLowerCase();
  return lower === 'localhost' || lower.endsWith('.localhost') || isLoopback(lower);
}

/**
 * A browser page of another site must not drive or read the mock through the user's loopback: a
 * cross-site request carries its page's `Origin`, and a DNS-rebinding page a foreign `Host`. Either
 * header, when present, must name a loopback host (a front-end dev server on localhost may call the
 * admin API); requests without them (curl, Node clients, MSW in a page) are not affected.
 */
function fromLoopbackPage(headers: RequestHeaders): boolean {
  const host = headers.get('host');
  if (host !== null && !isLoopbackHost(host)) return false;
  const origin = headers.get('origin');
  if (origin === null) return true;
  try {
    const { protocol, host: originHost } = new URL(origin);
    return (protocol === 'http:' || protocol === 'https:') && isLoopbackHost(originHost);
  } catch {
    return false; // `null` (a sandboxed frame or a file) or garbage
  }
}

/**
 * The admin access rule: a loopback client not sent by another site's page, or one presenting the
 * admin token (the dashboard's page and assets, served by the node adapter, follow it too).
 */
export function adminAllowed(
  remoteAddress: string | undefined,
  headers: RequestHeaders,
  token: string | null,
): boolean {
  const presented = token === null ? null : presentedToken(headers);
  if (token !== null && presented !== null && constantTimeEqual(presented, token)) return true;
  return isLoopback(remoteAddress) && fromLoopbackPage(headers);
}

interface CompiledAdminRoute {
  readonly route: AdminRoute;
  readonly segments: readonly string[];
}

function matchRoute(
  compiled: readonly CompiledAdminRoute[],
  method: string,
  parts: readonly string[],
): { route: AdminRoute; params: Record<string, string> } | 'method-not-allowed' | 'bad-encoding' | undefined {
  let pathMatched = false;
  for (const { route, segments } of compiled) {
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < segments.length && matched; i++) {
      const segment = segments[i] ?? '';
      const part = parts[i] ?? '';
      if (segment.startsWith('{')) {
        if (part === '') matched = false;
        else {
          try {
            params[segment.slice(1, -1)] = decodeURIComponent(part);
          } catch {
            return 'bad-encoding';
          }
        }
      } else if (segment !== part) {
        matched = false;
      }
    }
    if (!matched) continue;
    pathMatched = true;
    if (route.method === method) return { route, params };
  }
  return pathMatched ? 'method-not-allowed' : undefined;
}

export interface AdminDispatcherOptions {
  readonly host: AdminHost;
  readonly api: AdminApi;
  readonly adminToken: string | null;
  readonly maxBodyBytes: number;
  readonly routes: readonly AdminRoute[];
}

export type AdminDispatcher = (request: EngineRequest) => Promise<HandlerResult>;

export function createAdminDispatcher(options: AdminDispatcherOptions): AdminDispatcher {
  const routes = options.routes;
  const compiled = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));
  const index = routes.map((r) => ({ method: r.method, path: r.path, summary: r.summary }));

  return async (request) => {
    const url = request.url;
    if (!adminAllowed(request.remoteAddress, request.headers, options.adminToken))
      return errors.adminForbidden();

    const method = request.method;
    if (url.pathname === ADMIN_PREFIX && method === 'GET') return { status: 200, body: { routes: index } };
    const match = matchRoute(compiled, method, url.pathname.split('/').slice(1));
    if (match === undefined) return errors.adminNotFound(method, url.pathname);
    if (match === 'bad-encoding')
      return errors.adminBadRequest(`malformed percent-encoding in ${url.pathname}`);
    if (match === 'method-not-allowed')
      return errors.adminBadRequest(`method ${method} is not allowed on ${url.pathname}`, 405);

    const maxBytes = match.route.maxBodyBytes ?? options.maxBodyBytes;
    const read = await readJsonBody(request, `admin ${match.route.path}`, maxBytes, false);
    if (!read.ok) return read.error;
    try {
      return await match.route.handle({
        api: options.api,
        state: options.host.state,
        clock: options.host.clock,
        params: match.params,
        query: url.searchParams,
        body: read.value,
        execute: options.host.execute,
        storeHealth: options.host.storeHealth,
      });
    } catch (cause) {
      if (isAdminError(cause)) return errors.adminBadRequest(cause.message, cause.status);
      if (isStoreUnavailable(cause)) return errors.storeUnavailable(cause.message);
      throw cause;
    }
  };
}
