/**
 * The conformance runner's transport: undici's keep-alive `Pool` on the target's origin. Kept here,
 * not in `cca-kit/client` (which runs on `fetch`): the laws send requests the Fetch API refuses or
 * rewrites (a body on a GET, odd methods and header values), and a run of thousands of requests
 * against one origin is cheaper on a pool of kept-alive sockets than through `fetch`.
 */
import { Pool } from 'undici';
import type { Transport } from '../client/transport.ts';

export function poolTransport(baseUrl: string, connections = 8): Transport {
  const origin = new URL(baseUrl).origin;
  const pool = new Pool(origin, { connections, pipelining: 1 });
  return {
    async send(request) {
      const url = new URL(request.url);
      const res = await pool.request({
        method: request.method as 'GET',
        path: url.pathname + url.search,
        headers: request.headers,
        body: request.body ?? null,
        signal: request.signal,
      });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined)
          headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: res.statusCode, headers, text: await res.body.text() };
    },
    close: () => pool.close(),
  };
}
