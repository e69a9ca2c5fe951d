/**
 * The conformance runner's transport: undici's keep-alive `Pool` on the target's origin. Kept here,
 * not in `cca-kit/client` (which runs on `fetch`): the laws send requests the Fetch API refuses or
 * rewrites (a body on a GET, odd methods and header values), and a run of thousands of requests
 * against one origin is cheaper on a pool of kept-alive sockets than through `fetch`.
 */
import { Readable } from 'node:stream';
import { Pool } from 'undici';
import type { Transport } from '../client/transport.ts';

/**
 * After this long without a request starting or settling, the pool's idle sockets are not trusted:
 * a server may have closed them (Node's default keep-alive is 5 s, gunicorn's 2 s), and when the
 * run's own event loop was busy for that long (a law computing, a loaded machine) undici's idle
 * timers have not fired yet, so the next request would be written into a closed socket and fail
 * with ECONNRESET, a reset that says nothing about the target. Like HTTP clients' check of stale
 * connections after inactivity, the pool is then replaced and the next request opens a socket.
 */
export const STALE_AFTER_MS = 1_000;

export function poolTransport(baseUrl: string, connections = 8, staleAfterMs = STALE_AFTER_MS): Transport {
  const origin = new URL(baseUrl).origin;
  const open = () => new Pool(origin, { connections, pipelining: 1 });
  let pool = open();
  const retired: Pool[] = [];
  let lastActivity = Date.now();
  const touch = () => {
    lastActivity = Date.now();
  };
  return {
    async send(request) {
      if (Date.now() - lastActivity > staleAfterMs) {
        // Requests still in flight on the old pool finish there; close() waits for them.
        const old = pool;
        pool = open();
        retired.push(old);
        // Closing a pool only releases its sockets: it sends nothing and changes nothing on the
        // target, so its failure (a socket the server already dropped) is no finding and must not
        // become an unhandled rejection.
        void old
          .close()
          .catch(() => undefined)
          .finally(() => retired.splice(retired.indexOf(old), 1));
      }
      touch();
      const url = new URL(request.url);
      try {
        const res = await pool.request({
          method: request.method as 'GET',
          // undici writes an absolute path as the request line's target as it is (a proxy's form).
          path: request.absoluteTarget === true ? url.href : url.pathname + url.search,
          headers: request.headers,
          body: request.chunked === true ? chunks(request.body ?? '') : (request.body ?? null),
          signal: request.signal,
        });
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined)
            headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        }
        return { status: res.statusCode, headers, text: await res.body.text() };
      } finally {
        touch();
      }
    },
    close: async () => {
      // The current pool's failure to close is the caller's to see; a retired one's is not (above).
      await Promise.all([pool.close(), ...retired.map((p) => p.close().catch(() => undefined))]);
    },
  };
}

/** A body as a stream of one chunk: undici frames a stream body chunked, without Content-Length. */
function chunks(body: string): Readable {
  return Readable.from([Buffer.from(body, 'utf8')]);
}
