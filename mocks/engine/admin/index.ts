/**
 * The admin API under `/__mock/`: not part of the service contract, answered under the access rule of
 * `access.ts` (in-process handlers, loopback clients, or the admin token). It serves the routes of
 * every part's `adminRoutes` (`part.ts` lists the slices').
 */
import { readJsonBody } from '../body.ts';
import { errors } from '../errors.ts';
import { isOutcomeUnknown, isStoreUnavailable } from '../store/types.ts';
import { adminAccess } from './access.ts';
import { isAdminError } from './api.ts';
import type { AdminDispatcher, AdminDispatcherOptions, AdminRoute } from './route.ts';

export type { AdminApi, AdminHost, ClockView, CreatedKeyView, FaultsAdmin, KeyView } from './api.ts';
export { AdminError, createAdminApi, isAdminError } from './api.ts';
export type {
  AdminContext,
  AdminDispatcher,
  AdminDispatcherOptions,
  AdminResult,
  AdminRoute,
} from './route.ts';

export const ADMIN_PREFIX = '/__mock/';
export type { AdminAccess, AdminClient } from './access.ts';
export { ADMIN_TOKEN_HEADER, adminAccess, adminAllowed, isLoopback, isLoopbackHost } from './access.ts';

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

export function createAdminDispatcher(options: AdminDispatcherOptions): AdminDispatcher {
  const routes = options.routes;
  const compiled = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));
  const index = routes.map((r) => ({ method: r.method, path: r.path, summary: r.summary }));

  return async (request) => {
    const url = request.url;
    const access = adminAccess(request, options.adminToken);
    if (!access.allowed) return errors.adminForbidden(access.reason);

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
      if (isOutcomeUnknown(cause)) return errors.outcomeUnknown(cause.message, cause.inLog, cause.read);
      throw cause;
    }
  };
}
