/**
 * The shape of an admin route and of the dispatcher that serves a list of them: the admin API's seam,
 * which the pipeline (`../core.ts`) and the parts (`../parts.ts`) name without the routes themselves.
 */
import type { MockClock } from '../clock.ts';
import type { Command, OutcomeOf } from '../commands/types.ts';
import type { EngineRequest } from '../exchange.ts';
import type { EngineState } from '../state.ts';
import type { StoreHealth } from '../store/types.ts';
import type { HandlerResult } from '../types.ts';
import type { AdminApi, AdminHost } from './api.ts';

export interface AdminContext {
  readonly api: AdminApi;
  /** The engine's current state (a new object after reset). */
  readonly state: EngineState;
  readonly clock: MockClock;
  /** Decoded path parameters of the route template (`/__mock/keys/{key}/revoke`). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON body, or undefined when there is none. */
  readonly body: unknown;
  /** Makes a write: applies the command through the engine's store; throws its refusal (an `AdminError`). */
  execute<C extends Command>(command: C): Promise<OutcomeOf<C>>;
  /** The store's log position, lag and reachability. */
  storeHealth(): Promise<StoreHealth>;
}

export interface AdminResult {
  readonly status: number;
  readonly body: unknown;
}

export interface AdminRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** A template under `/__mock/`, parameters in braces. */
  readonly path: string;
  readonly summary: string;
  /** Largest accepted body in bytes (413 beyond); the engine's `maxBodyBytes` when absent. */
  readonly maxBodyBytes?: number;
  /** Throw an `AdminError` for bad input or an unknown id. */
  handle(ctx: AdminContext): AdminResult | Promise<AdminResult>;
}

export const ok = (body: unknown, status = 200): AdminResult => ({ status, body });

/** Reads an object body or fails with a 400 naming what was expected. */
export function objectBody(body: unknown, what: string): Record<string, unknown> {
  if (typeof body === 'object' && body !== null && !Array.isArray(body))
    return body as Record<string, unknown>;
  throw new TypeError(`the request body must be a JSON object ${what}`);
}

export interface AdminDispatcherOptions {
  readonly host: AdminHost;
  readonly api: AdminApi;
  readonly adminToken: string | null;
  readonly maxBodyBytes: number;
  readonly routes: readonly AdminRoute[];
}

/** Answers one request under `/__mock/` (`createAdminDispatcher` in `./index.ts`). */
export type AdminDispatcher = (request: EngineRequest) => Promise<HandlerResult>;
