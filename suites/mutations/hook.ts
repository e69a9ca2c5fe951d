/**
 * The fault hook: a wrapper around the engine's `handle(request)` that rewrites requests before the
 * engine sees them or responses after it answered. A faulty deployment is our mock with one hook.
 */

import type { Engine } from '../../mocks/engine/engine.ts';
import type { EngineRequest, EngineResponse } from '../../mocks/engine/exchange.ts';
import { fromFetchResponse, toFetchRequest } from '../../mocks/engine/fetch-bridge.ts';
import type { RequestContext } from '../../mocks/engine/interceptors.ts';
import { contract } from '../../src/contract/index.ts';

export type Handle = (request: Request, context?: RequestContext) => Promise<Response>;
export type Hook = (handle: Handle) => Handle;

/**
 * The engine with `handle` wrapped, and `dispatch` (what the HTTP server calls) routed through the
 * same wrapper; every other member (clock, admin, state) is the engine's own.
 */
export function withHook(engine: Engine, hook: Hook): Engine {
  const wrapped = hook((request, context) => engine.handle(request, context));
  const dispatch = async (request: EngineRequest): Promise<EngineResponse> => {
    const fetchRequest = await toFetchRequest(request, engine.options.maxBodyBytes);
    const context = request.remoteAddress === undefined ? {} : { remoteAddress: request.remoteAddress };
    return fromFetchResponse(await wrapped(fetchRequest, context));
  };
  return new Proxy(engine, {
    get(target, property, receiver) {
      if (property === 'handle') return wrapped;
      if (property === 'dispatch') return dispatch;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/** The operationId a request is for, or undefined. */
export function operationOf(request: Request): string | undefined {
  const match = contract.matchOperation(request.method, new URL(request.url).pathname);
  return match.kind === 'match' ? match.operation.operationId : undefined;
}

/** A copy of a response with another status, body text or extra headers (content-length recomputed). */
export function respond(
  like: Response,
  body: string,
  status = like.status,
  extraHeaders: Record<string, string> = {},
): Response {
  const headers = new Headers(like.headers);
  headers.delete('content-length');
  for (const [k, v] of Object.entries(extraHeaders)) headers.set(k, v);
  return new Response(status === 204 ? null : body, { status, headers });
}

/** Rewrites the raw response text of one operation. */
export function rewriteText(
  operationIds: readonly string[],
  edit: (text: string, status: number, request: Request) => string | { body: string; status: number },
): Hook {
  return (handle) => async (request, context) => {
    const op = operationOf(request);
    const response = await handle(request.clone(), context);
    if (op === undefined || !operationIds.includes(op)) return response;
    const text = await response.text();
    const out = edit(text, response.status, request);
    return typeof out === 'string' ? respond(response, out) : respond(response, out.body, out.status);
  };
}

/** Rewrites the parsed JSON response of some operations (only JSON bodies; others pass through). */
export function rewriteJson(
  operationIds: readonly string[] | 'all',
  edit: (body: unknown, status: number, request: Request) => unknown,
): Hook {
  return (handle) => async (request, context) => {
    const op = operationOf(request);
    const response = await handle(request.clone(), context);
    if (operationIds !== 'all' && (op === undefined || !operationIds.includes(op))) return response;
    if (!(response.headers.get('content-type') ?? '').includes('json')) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return respond(response, text);
    }
    return respond(response, JSON.stringify(edit(body, response.status, request)));
  };
}

/** Rewrites requests of some operations before the engine sees them. */
export function rewriteRequest(
  operationIds: readonly string[],
  edit: (request: Request) => Request | Promise<Request>,
): Hook {
  return (handle) => async (request, context) => {
    const op = operationOf(request);
    if (op === undefined || !operationIds.includes(op)) return handle(request, context);
    return handle(await edit(request), context);
  };
}

/** The same request with another URL or headers (body kept). */
export async function withRequest(
  request: Request,
  changes: { url?: string; headers?: Headers },
): Promise<Request> {
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.text();
  return new Request(changes.url ?? request.url, {
    method: request.method,
    headers: changes.headers ?? request.headers,
    body,
  });
}

export const compose =
  (...hooks: Hook[]): Hook =>
  (handle) =>
    hooks.reduceRight((h, hook) => hook(h), handle);
