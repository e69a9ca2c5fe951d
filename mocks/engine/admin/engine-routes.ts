/** The engine's own admin routes: reset, keys, organizations and their moderation mode, the clock. */
import { type KeyExpiry, keyIdFor } from '../auth/index.ts';
import type { KeyProfile, ModerationMode } from '../types.ts';
import { AdminError, clockViewOf, keyViewOf } from './api.ts';
import { type AdminRoute, objectBody, ok } from './route.ts';

function body(value: unknown, what: string): Record<string, unknown> {
  try {
    return objectBody(value, what);
  } catch (cause) {
    throw new AdminError('BAD_REQUEST', cause instanceof Error ? cause.message : String(cause));
  }
}

export const coreAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/health',
    summary:
      "This replica's state: ready, behind or diverged (starting is answered before the engine exists), with its store's kind, epoch, log position, log length, lag, snapshot, reachability (and the cost of catching up on Redis)",
    handle: async ({ clock, storeHealth }) => {
      const store = await storeHealth();
      const clockView = clockViewOf(clock);
      // ready: serving the log's state; behind: its log is ahead of it or cannot be reached now;
      // diverged: it lost its log's thread and serves no shared state until restarted. (`starting` is
      // answered by the port before the engine exists: mocks/http/starting.ts.)
      if (store.diverged !== undefined && store.diverged !== null) {
        return ok(
          {
            success: false,
            error: `Diverged: ${store.diverged}; restart this replica to rebuild from the store`,
            status: 'diverged',
            store,
            clock: clockView,
          },
          503,
        );
      }
      if (store.connected && store.lag !== null && store.lag <= 0)
        return ok({ status: 'ready', store, clock: clockView });
      // 503 so a balancer's health check can tell; an error body like every other 5xx of the mock.
      const why = store.connected
        ? `${store.lag ?? 'unknown'} writes behind the log`
        : `store unreachable: ${store.lastError ?? 'no answer'}`;
      return ok({ success: false, error: `Behind: ${why}`, status: 'behind', store, clock: clockView }, 503);
    },
  },
  {
    method: 'POST',
    path: '/__mock/reset',
    summary: 'Rebuild the whole state from the seed and put the clock back to its start',
    handle: async ({ api, execute }) => {
      await execute({ type: 'reset' });
      return ok({ reset: true, clock: api.clock() });
    },
  },
  {
    method: 'GET',
    path: '/__mock/organizations',
    summary: 'List the organizations and their moderation mode',
    handle: ({ api }) => ok({ organizations: api.listOrganizations() }),
  },
  {
    method: 'PUT',
    path: '/__mock/organizations/{id}/moderation-mode',
    summary: 'Set an organization\'s moderation mode: {"mode": "ad_policy" | "standard"}',
    handle: async ({ params, body: raw, execute }) => {
      const input = body(raw, 'like {"mode": "ad_policy"}');
      const organizationId = params['id'] ?? '';
      const mode = input['mode'] as ModerationMode;
      return ok({
        organization: await execute({ type: 'organization.moderationMode', organizationId, mode }),
      });
    },
  },
  {
    method: 'GET',
    path: '/__mock/keys',
    summary: 'List the keys (optionally ?organizationId=) with profile, scopes, status and expiry',
    handle: ({ api, query }) => ok({ keys: api.listKeys(query.get('organizationId') ?? undefined) }),
  },
  {
    method: 'POST',
    path: '/__mock/keys',
    summary:
      'Create a key: {"organizationId", "profile" (default reporting), "expiry": "30d"|"90d"|"none" (default 90d), "name"?}',
    handle: async ({ clock, body: raw, execute }) => {
      const input = body(raw, 'like {"organizationId": "org_acme", "profile": "reporting"}');
      if (typeof input['organizationId'] !== 'string') {
        throw new AdminError('BAD_REQUEST', 'organizationId must be a string');
      }
      const name = input['name'];
      if (name !== undefined && typeof name !== 'string')
        throw new AdminError('BAD_REQUEST', 'name must be a string');
      const created = await execute({
        type: 'keys.create',
        input: {
          organizationId: input['organizationId'],
          ...(input['profile'] === undefined ? {} : { profile: input['profile'] as KeyProfile }),
          ...(input['expiry'] === undefined ? {} : { expiry: input['expiry'] as KeyExpiry }),
          ...(name === undefined ? {} : { name }),
        },
      });
      return ok({ key: keyViewOf(created, clock.now(), created.key) }, 201);
    },
  },
  {
    method: 'POST',
    path: '/__mock/keys/{key}/revoke',
    summary: 'Revoke a key (named by its value or its id); the next request with it fails with 401',
    handle: async ({ state, clock, params, execute }) => {
      const keyId = keyIdFor(state.keys, params['key'] ?? '');
      const revoked = await execute({ type: 'keys.revoke', keyId });
      return ok({ key: keyViewOf(revoked, clock.now()) });
    },
  },
  {
    method: 'GET',
    path: '/__mock/clock',
    summary: 'Read the mock clock',
    handle: ({ api }) => ok({ clock: api.clock() }),
  },
  {
    method: 'POST',
    path: '/__mock/clock/advance',
    summary: 'Advance the mock clock: {"ms": 60000}',
    handle: async ({ clock, body: raw, execute }) => {
      await execute({ type: 'clock.advance', ms: body(raw, 'like {"ms": 60000}')['ms'] });
      return ok({ clock: clockViewOf(clock) });
    },
  },
  {
    method: 'POST',
    path: '/__mock/clock/set',
    summary: 'Set the mock clock (forward only): {"now": epoch ms or ISO timestamp}',
    handle: async ({ clock, body: raw, execute }) => {
      await execute({ type: 'clock.set', now: body(raw, 'like {"now": "2026-12-01T00:00:00Z"}')['now'] });
      return ok({ clock: clockViewOf(clock) });
    },
  },
];
