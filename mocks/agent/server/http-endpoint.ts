/**
 * Streamable HTTP at `/mcp`, a Fetch `Request` → `Response` function. In order, before any MCP message
 * is handled: the DNS-rebinding guard (403), the body bound (413), the key (401 with
 * `WWW-Authenticate`). Then:
 *
 * - a request carrying `Mcp-Session-Id` goes to its 2025-era session (sessions are bound to the key
 *   that opened them; an unknown id is 404, as the transport spec asks, so the client re-initializes);
 * - a 2025-era `initialize` opens a session (SDK `WebStandardStreamableHTTPServerTransport` with a
 *   session id generator);
 * - everything else goes to the SDK's `createMcpHandler`: the stateless 2026-07-28 protocol, and
 *   2025-era requests without a session (stateless fallback).
 *
 * Every request is authenticated again, so a revoked key fails at once, sessions included (spec 5.6).
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  type McpServer,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Engine } from '../../engine/engine.ts';
import type { AgentIdentity } from '../types.ts';
import { authenticateRequest, unauthorizedResponse } from './identity.ts';
import { withKeepAlive } from './keep-alive.ts';
import { createMcpServerFor } from './mcp-server.ts';
import { createOriginGuard, type OriginGuardOptions } from './origin-guard.ts';
import type { ToolSet } from './tool-set.ts';

export interface McpEndpointLimits {
  /** Largest request body accepted on /mcp (bytes). Default 1 MiB, the REST mock's own bound. */
  readonly maxBodyBytes: number;
  /** Sessions open at once; opening one more closes the least recently used. */
  readonly maxSessions: number;
  /** A session unused this long is closed (ms). */
  readonly sessionIdleMs: number;
  /** Interval of the SSE comments on a session's `GET /mcp` stream (ms); the first goes out at once. */
  readonly keepAliveMs: number;
}

export const DEFAULT_MCP_LIMITS = {
  maxBodyBytes: 1_048_576,
  maxSessions: 256,
  sessionIdleMs: 30 * 60_000,
  keepAliveMs: 15_000,
} as const satisfies McpEndpointLimits;

export interface McpEndpointOptions {
  readonly engine: Engine;
  readonly tools: ToolSet;
  /** The server's own `host:port`, accepted by the origin guard besides loopback names. */
  readonly ownHost: () => string | undefined;
  readonly originGuard?: OriginGuardOptions;
  readonly limits?: Partial<McpEndpointLimits>;
}

export interface McpEndpoint {
  /** Answers one request to /mcp. Never throws. */
  fetch(request: Request): Promise<Response>;
  /** Open 2025-era sessions (for tests and the benchmark). */
  readonly sessionCount: () => number;
  /** Closes every session and the stateless handler. */
  close(): Promise<void>;
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly key: string;
  lastUsed: number;
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

function isInitialize(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    (body as Record<string, unknown>)['method'] === 'initialize'
  );
}

/** The origin links are built on: the request's own scheme and (guarded) host. */
function publicOriginOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.protocol}//${request.headers.get('host') ?? url.host}`;
}

const IDENTITY_KEY = 'cca-kit/identity';

/**
 * Creates the /mcp endpoint over an engine.
 *
 * @example
 * const endpoint = createMcpEndpoint({ engine, tools, ownHost: () => '127.0.0.1:4010' });
 * const response = await endpoint.fetch(request);
 */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const limits: McpEndpointLimits = { ...DEFAULT_MCP_LIMITS, ...options.limits };
  const { engine, tools } = options;
  const guard = createOriginGuard(options.ownHost, options.originGuard);
  const sessions = new Map<string, Session>();
  // Session ids are signed under a secret every replica of one sandbox shares (seed and admin token),
  // bound to the key: a replica behind a round-robin balancer that did not open a session still knows
  // it is genuine and answers it statelessly (see docs/sandbox.md).
  const sessionSecret = `cca-kit mcp sessions|seed=${String(engine.options.seed)}|admin=${engine.options.adminToken ?? ''}`;
  const sessionMac = (nonce: string, key: string): string =>
    createHmac('sha256', sessionSecret).update(`${nonce}\n${key}`).digest('base64url').slice(0, 22);
  // The replica part tells this endpoint's own sessions (closed or evicted: 404) from another's.
  const replica = randomUUID().slice(0, 8);
  const signedSessionId = (key: string): string => {
    const nonce = `${replica}.${randomUUID()}`;
    return `${nonce}.${sessionMac(nonce, key)}`;
  };
  /** A session another replica of this sandbox (or this one before a restart) opened with `key`. */
  const foreignSession = (id: string, key: string): boolean => {
    const [from, uuid, mac, extra] = id.split('.');
    if (from === undefined || uuid === undefined || mac === undefined || extra !== undefined) return false;
    if (from === replica) return false;
    const expected = Buffer.from(sessionMac(`${from}.${uuid}`, key));
    const presented = Buffer.from(mac);
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  };

  const stateless = createMcpHandler(
    (ctx) => {
      const identity = ctx.authInfo?.extra?.[IDENTITY_KEY] as AgentIdentity | undefined;
      if (identity === undefined) throw new Error('createMcpHandler called without an identity');
      const origin = ctx.requestInfo === undefined ? null : publicOriginOf(ctx.requestInfo);
      return createMcpServerFor(identity, { engine, tools, publicOrigin: origin });
    },
    { legacy: 'stateless', maxRequestBodySize: limits.maxBodyBytes },
  );

  function sweep(now: number): void {
    for (const [id, session] of sessions) {
      if (now - session.lastUsed > limits.sessionIdleMs) {
        sessions.delete(id);
        void session.transport.close();
      }
    }
    while (sessions.size >= limits.maxSessions) {
      const oldest = [...sessions.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      if (oldest === undefined) break;
      sessions.delete(oldest[0]);
      void oldest[1].transport.close();
    }
  }

  async function openSession(
    request: Request,
    body: unknown,
    identity: AgentIdentity,
    key: string,
  ): Promise<Response> {
    sweep(Date.now());
    const server = createMcpServerFor(identity, { engine, tools, publicOrigin: publicOriginOf(request) });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => signedSessionId(key),
      enableJsonResponse: true,
      maxRequestBodySize: limits.maxBodyBytes,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, key, lastUsed: Date.now() });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  }

  async function serve(incoming: Request): Promise<Response> {
    let request = incoming;
    const refused = guard(incoming);
    if (refused !== undefined) return refused;
    const auth = authenticateRequest(engine, request.headers);
    if (!auth.ok) return unauthorizedResponse(auth.reason);

    let sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null && !sessions.has(sessionId) && foreignSession(sessionId, auth.key)) {
      // Opened by another replica of this sandbox (or before a restart): answered statelessly.
      const headers = new Headers(incoming.headers);
      headers.delete('mcp-session-id');
      let body: string | null = null;
      if (incoming.method !== 'GET' && incoming.method !== 'HEAD') {
        const read = await readRequestBody(incoming, limits.maxBodyBytes);
        if (read.tooLarge)
          return jsonRpcError(413, -32600, `Request body exceeds ${limits.maxBodyBytes} bytes on /mcp`);
        body = read.text;
      }
      request = new Request(incoming.url, { method: incoming.method, headers, body });
      sessionId = null;
    }
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      if (session === undefined)
        return jsonRpcError(404, -32001, `Session "${sessionId}" not found: initialize a new session`);
      if (session.key !== auth.key)
        return jsonRpcError(403, -32000, 'This session was opened with another API key');
      session.lastUsed = Date.now();
      const answer = await session.transport.handleRequest(request);
      return request.method === 'GET' ? withKeepAlive(answer, limits.keepAliveMs) : answer;
    }

    let body: unknown;
    if (request.method === 'POST') {
      const read = await readRequestBody(request, limits.maxBodyBytes);
      if (read.tooLarge)
        return jsonRpcError(413, -32600, `Request body exceeds ${limits.maxBodyBytes} bytes on /mcp`);
      try {
        body = JSON.parse(read.text);
      } catch {
        return jsonRpcError(400, -32700, 'Parse error: the request body is not valid JSON');
      }
      if ((await isLegacyRequest(request, body)) && isInitialize(body)) {
        return openSession(request, body, auth.identity, auth.key);
      }
    }
    const authInfo: AuthInfo = {
      token: 'redacted',
      clientId: auth.identity.keyName,
      scopes: [...auth.identity.scopes],
      extra: { [IDENTITY_KEY]: auth.identity },
    };
    return stateless.fetch(request, body === undefined ? { authInfo } : { authInfo, parsedBody: body });
  }

  return {
    async fetch(request) {
      try {
        return await serve(request);
      } catch (error) {
        return jsonRpcError(
          400,
          -32600,
          `The request could not be handled: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
    sessionCount: () => sessions.size,
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((s) => s.transport.close()));
      await stateless.close();
    },
  };
}
