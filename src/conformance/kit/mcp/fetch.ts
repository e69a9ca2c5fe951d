import type { Auth } from '../../../client/types.ts';
import { endpointPath, type McpEndpoint } from './endpoint.ts';

/** The fetch signature the MCP SDK transport accepts. */
export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/**
 * A fetch for the SDK's Streamable HTTP transport that sends every POST and DELETE through the
 * conformance client: the key goes in by role (never seen here), the request is recorded for the
 * reproduction with its `Mcp-Session-Id`, and the run's budget and rate apply.
 *
 * The standalone `GET` stream (server-initiated messages) is answered 405 locally without a request:
 * no law needs server-initiated messages, and an open stream would outlive the law.
 */
export function conformanceFetch(endpoint: McpEndpoint, auth: Auth): McpFetch {
  const path = endpointPath(endpoint);
  return async (_url, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method === 'GET') return new Response(null, { status: 405, headers: { allow: 'POST, DELETE' } });
    const body = typeof init.body === 'string' ? init.body : undefined;
    const result = await endpoint.client.request({
      method,
      path,
      auth,
      headers: headerRecord(init.headers),
      ...(body === undefined ? {} : { rawBody: body }),
    });
    if (result.kind === 'network')
      throw new TypeError(`fetch failed: ${result.error.code} ${result.error.message}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(result.headers)) {
      if (name !== 'content-length' && name !== 'transfer-encoding') headers.set(name, value);
    }
    const empty = result.raw === '' || result.status === 204;
    return new Response(empty ? null : result.raw, { status: result.status, headers });
  };
}
