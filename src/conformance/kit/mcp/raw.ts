/**
 * Raw JSON-RPC over Streamable HTTP, without the SDK: for the transport and auth laws, which send
 * what a client library never would (no key, a malformed message, an unknown method) and look at
 * the HTTP answer itself.
 */
import type { Auth } from '../../../client/types.ts';
import { endpointPath, type McpEndpoint } from './endpoint.ts';
import { messagesOf } from './sse.ts';

/** The protocol version the raw laws announce (a 2025-era client, sessions with `Mcp-Session-Id`). */
export const RAW_PROTOCOL_VERSION = '2025-06-18';

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
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': RAW_PROTOCOL_VERSION,
    ...(options.sessionId === undefined ? {} : { 'mcp-session-id': options.sessionId }),
    ...options.headers,
  };
  const result = await endpoint.client.request({
    method: options.method ?? 'POST',
    path: endpointPath(endpoint),
    auth,
    headers,
    ...(body === undefined ? {} : { rawBody: typeof body === 'string' ? body : JSON.stringify(body) }),
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

/** The `initialize` request a 2025-era client sends. */
export function initializeRequest(): ReturnType<typeof rpcRequest> {
  return rpcRequest('initialize', {
    protocolVersion: RAW_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'cca-kit-conform', version: '1' },
  });
}

/**
 * `initialize` then `notifications/initialized`: a session ready for requests (the id is undefined
 * for a stateless deployment).
 */
export async function openRawSession(
  endpoint: McpEndpoint,
  auth: Auth,
): Promise<{ readonly answer: RawAnswer; readonly sessionId: string | undefined }> {
  const answer = await postRaw(endpoint, auth, initializeRequest());
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
