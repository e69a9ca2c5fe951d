/**
 * Journals the exchanges of /mcp: the agent server hands each request (a clone, body unread) and
 * its response to `onMcpExchange`; this reads both, bounded, off the response path, and records
 * them in the engine's journal. A long-lived event stream (a GET on /mcp) is journaled without its
 * body; the body of a POST answered with a stream is read until it ends or the bound is reached.
 */
import type { Journal } from '../../engine/journal/index.ts';

export interface McpExchange {
  /** The request as it arrived, body unread (a clone). */
  readonly request: Request;
  /** The response about to be written; clone it before reading. */
  readonly response: Response;
  readonly durationMs: number;
}

/** Reads at most `limit` bytes of a body, then cancels the rest. */
async function bounded(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array[] | null> {
  if (body === null) return null;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        break;
      }
    }
  } catch {
    // The client went away: keep what arrived.
  }
  return chunks;
}

/** `tools/call search_actions`, `initialize`, or the methods of a batch joined with commas. */
function operationOf(chunks: readonly Uint8Array[] | null): string | null {
  if (chunks === null || chunks.length === 0) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
  const one = (message: unknown): string | null => {
    if (typeof message !== 'object' || message === null) return null;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (typeof method !== 'string') return null;
    const tool = params?.name;
    return method === 'tools/call' && typeof tool === 'string' ? `${method} ${tool}` : method;
  };
  if (Array.isArray(parsed)) {
    const methods = parsed.map(one).filter((m): m is string => m !== null);
    return methods.length === 0 ? null : methods.join(', ');
  }
  return one(parsed);
}

function keyOf(headers: Headers): string | null {
  const direct = headers.get('x-api-key');
  if (direct !== null) return direct;
  const authorization = headers.get('authorization');
  const bearer = authorization === null ? null : /^Bearer\s+(\S+)$/i.exec(authorization);
  return bearer?.[1] ?? null;
}

/**
 * @example
 * createAgentHttpRoutes(engine, { onMcpExchange: mcpRecorder(journal, 32 * 1024) });
 */
export function mcpRecorder(journal: Journal, maxBodyBytes: number): (exchange: McpExchange) => void {
  return ({ request, response, durationMs }) => {
    const stream = /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    // Cloned now, before the adapter starts writing the original.
    const copy = response.body === null || (stream && request.method === 'GET') ? null : response.clone();
    void (async () => {
      const requestBody = await bounded(request.body, maxBodyBytes);
      const responseBody = copy === null ? null : await bounded(copy.body, maxBodyBytes);
      const url = new URL(request.url);
      journal.record({
        interface: 'mcp',
        durationMs,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        operation: operationOf(requestBody),
        key: keyOf(request.headers),
        status: response.status,
        requestHeaders: request.headers.entries(),
        requestBody,
        responseHeaders: response.headers.entries(),
        responseBody,
      });
    })().catch(() => undefined);
  };
}
