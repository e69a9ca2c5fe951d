/**
 * Protection against DNS rebinding on `/mcp` (MCP security best practices, "local MCP server
 * compromise"): a page on a foreign site that rebinds its name to 127.0.0.1 reaches the mock with its
 * own name in `Host` and `Origin`. Accepted: loopback host names (`localhost`, `127.0.0.1`, `[::1]`,
 * any port), the server's own `host:port`, and whatever the options add. A request without an
 * `Origin` (every non-browser client) is judged by `Host` alone. A refusal is 403 before anything else.
 */

export interface OriginGuardOptions {
  /** `false` turns the check off (a mock behind a trusted proxy). Default true. */
  readonly enabled?: boolean;
  /** Extra `Host` values accepted, exactly as sent (`mock.internal:4010`). */
  readonly allowedHosts?: readonly string[];
  /** Extra `Origin` values accepted, exactly as sent (`https://dev.example.com`). */
  readonly allowedOrigins?: readonly string[];
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The host name of a `Host` header value (`[::1]:4010` → `[::1]`), lower-cased; undefined when malformed. */
function hostNameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function refusal(message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }), {
    status: 403,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/**
 * Builds the guard for a server reachable at `ownHost` (`127.0.0.1:4010`); answers the refusal, or
 * undefined when the request may pass.
 *
 * @example
 * const guard = createOriginGuard(() => '127.0.0.1:4010');
 * guard(new Request('http://evil.example.com/mcp', { headers: { host: 'evil.example.com' } })); // a 403
 */
export function createOriginGuard(
  ownHost: () => string | undefined,
  options: OriginGuardOptions = {},
): (request: Request) => Response | undefined {
  if (options.enabled === false) return () => undefined;
  const extraHosts = new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase()));
  const extraOrigins = new Set(options.allowedOrigins ?? []);

  function hostAccepted(host: string): boolean {
    const lower = host.toLowerCase();
    if (extraHosts.has(lower) || lower === ownHost()?.toLowerCase()) return true;
    const name = hostNameOf(lower);
    return name !== undefined && LOOPBACK_NAMES.has(name);
  }

  return (request) => {
    const host = request.headers.get('host') ?? new URL(request.url).host;
    if (!hostAccepted(host))
      return refusal(`Host "${host}" is not accepted on /mcp (DNS rebinding protection)`);
    const origin = request.headers.get('origin');
    if (origin === null || extraOrigins.has(origin)) return undefined;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return refusal(`Origin "${origin}" is not a valid origin`);
    }
    if (!hostAccepted(originHost))
      return refusal(`Origin "${origin}" is not accepted on /mcp (DNS rebinding protection)`);
    return undefined;
  };
}
