/**
 * Raw JSON-RPC over Streamable HTTP, without the SDK: for the transport and auth laws, which send
 * what a client library never would (no key, a malformed message, an unknown method) and look at
 * the HTTP answer itself.
 *
 * It speaks the revision of its endpoint: 2025-11-25 opens a session with `initialize` (and its
 * `Mcp-Session-Id`); the stateless 2026-07-28 revision has no session, so every request carries the
 * `Mcp-Protocol-Version` and `Mcp-Method` headers and a `_meta` envelope naming the revision, the
 * client and its capabilities, and `server/discover` stands where `initialize` was.
 */
import type { Auth } from '../../../client/types.ts';
import { endpointPath, type McpEndpoint } from './endpoint.ts';
import { messagesOf } from './sse.ts';

/** The protocol version the raw laws announce over sessions (`Mcp-Session-Id`). */
export const RAW_PROTOCOL_VERSION = '2025-11-25';
/** The stateless revision: no session, a per-request envelope. */
export const STATELESS_REVISION = '2026-07-28';

const CLIENT_INFO = { name: 'cca-kit-conform', version: '1' } as const;

/** Does this endpoint's run speak the stateless revision? */
export function isStateless(endpoint: McpEndpoint): boolean {
  return endpoint.revision === STATELESS_REVISION;
}

/** The `_meta` envelope every stateless request carries. */
function statelessMeta(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': STATELESS_REVISION,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/**
 * A message as the stateless revision sends it: the envelope merged into `params._meta`. Anything
 * that is not a request object (a batch, a notification without params that is not an object) is
 * left as it is, so a law can still send what no client would.
 */
function withEnvelope(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const message = body as Record<string, unknown>;
  if (typeof message['method'] !== 'string') return body;
  const params = message['params'];
  const given = typeof params === 'object' && params !== null && !Array.isArray(params) ? params : {};
  const meta = (given as Record<string, unknown>)['_meta'];
  return {
    ...message,
    params: {
      ...given,
      _meta: { ...statelessMeta(), ...(typeof meta === 'object' && meta !== null ? meta : {}) },
    },
  };
}

export interface RawAnswer {
  /** 0 when no HTTP answer came (refused, reset, timed out). */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly raw: string;
  /** The JSON-RPC messages of the answer (JSON or SSE). */
  readonly messages: readonly unknown[];
  /** The `Mcp-Session-Id` the answer set, if any. */
  readonly sessionId: string | undefined;
}

export interface RawOptions {
  readonly sessionId?: string | undefined;
  readonly headers?: Readonly<Record<string, string>>;
  /** Default POST. */
  readonly method?: string;
}

/** Sends one body (a message, a batch, or exact text) and reads the answer. */
export async function postRaw(
  endpoint: McpEndpoint,
  auth: Auth,
  body: unknown,
  options: RawOptions = {},
): Promise<RawAnswer> {
  const stateless = isStateless(endpoint);
  const sent = stateless ? withEnvelope(body) : body;
  const method =
    typeof sent === 'object' && sent !== null && typeof (sent as { method?: unknown }).method === 'string'
      ? (sent as { method: string }).method
      : undefined;
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': stateless ? STATELESS_REVISION : RAW_PROTOCOL_VERSION,
    ...(stateless && method !== undefined ? { 'mcp-method': method } : {}),
    ...(options.sessionId === undefined ? {} : { 'mcp-session-id': options.sessionId }),
    ...options.headers,
  };
  const result = await endpoint.client.request({
    method: options.method ?? 'POST',
    path: endpointPath(endpoint),
    auth,
    headers,
    ...(sent === undefined ? {} : { rawBody: typeof sent === 'string' ? sent : JSON.stringify(sent) }),
  });
  if (result.kind === 'network')
    return { status: 0, headers: {}, raw: '', messages: [], sessionId: undefined };
  return {
    status: result.status,
    headers: result.headers,
    raw: result.raw,
    messages: messagesOf(result.headers['content-type'] ?? '', result.raw),
    sessionId: result.headers['mcp-session-id'],
  };
}

let nextId = 1;

/** A JSON-RPC request with a fresh id. */
export function rpcRequest(method: string, params?: unknown): { jsonrpc: '2.0'; id: number; method: string } {
  return { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) };
}

/**
 * The first request of a client of the endpoint's revision: `initialize` over sessions,
 * `server/discover` (its envelope added when sent) over the stateless revision.
 */
export function initializeRequest(endpoint?: McpEndpoint): ReturnType<typeof rpcRequest> {
  if (endpoint !== undefined && isStateless(endpoint)) return rpcRequest('server/discover', {});
  return rpcRequest('initialize', {
    protocolVersion: RAW_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: CLIENT_INFO,
  });
}

/**
 * `initialize` then `notifications/initialized`: a session ready for requests (the id is undefined
 * for a stateless deployment). Over the stateless revision, `server/discover` alone: there is no
 * session to open.
 */
export async function openRawSession(
  endpoint: McpEndpoint,
  auth: Auth,
): Promise<{ readonly answer: RawAnswer; readonly sessionId: string | undefined }> {
  const answer = await postRaw(endpoint, auth, initializeRequest(endpoint));
  if (isStateless(endpoint)) return { answer, sessionId: undefined };
  if (answer.status === 200) {
    await postRaw(
      endpoint,
      auth,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { sessionId: answer.sessionId },
    );
  }
  return { answer, sessionId: answer.sessionId };
}

/** The JSON-RPC answer to request `id` among the messages, if any. */
export function answerTo(answer: RawAnswer, id: number): Record<string, unknown> | undefined {
  for (const m of answer.messages) {
    if (typeof m === 'object' && m !== null && (m as { id?: unknown }).id === id)
      return m as Record<string, unknown>;
  }
  return undefined;
}
