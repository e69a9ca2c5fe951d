import type { Auth, Exchange } from '../../client/types.ts';
import { KEY_ENV } from '../../client/types.ts';

/** Quotes a string for a POSIX shell with single quotes. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(value)) return value;
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}

function keyHeader(auth: Auth): string | undefined {
  if (auth === 'none') return undefined;
  // A literal is only ever a deliberately invalid key (malformed, unknown): safe to show.
  if (typeof auth === 'object') return `-H ${shellQuote(`X-API-Key: ${auth.literal}`)}`;
  return `-H "X-API-Key: $${KEY_ENV[auth]}"`;
}

/**
 * One exchange as a ready-to-run curl command. The key is an env var reference (`$CCA_READ_KEY`),
 * the query is already percent-encoded in the URL, and a JSON body goes through a quoted heredoc so
 * no character in it is interpreted by the shell.
 *
 * @example
 * ```ts
 * toCurl({ seq: 1, method: 'GET', url: 'http://127.0.0.1:4010/v0/action/list?pageSize=501', auth: 'read', headers: {} });
 * // curl -sS -i -X GET 'http://127.0.0.1:4010/v0/action/list?pageSize=501' -H "X-API-Key: $CCA_READ_KEY"
 * ```
 */
export function toCurl(
  exchange: Pick<Exchange, 'method' | 'url' | 'auth' | 'headers' | 'body' | 'requestTarget'>,
): string {
  const parts = ['curl -sS -i', `-X ${exchange.method}`, shellQuote(exchange.url)];
  if (exchange.requestTarget !== undefined)
    parts.push(`--request-target ${shellQuote(exchange.requestTarget)}`);
  const key = keyHeader(exchange.auth);
  if (key !== undefined) parts.push(key);
  for (const [name, value] of Object.entries(exchange.headers)) {
    // curl's own Accept is enough for JSON; an MCP request must say it takes an event stream too.
    if (name.toLowerCase() === 'accept' && value === 'application/json') continue;
    if (name.toLowerCase() === 'x-api-key') continue;
    parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (exchange.body === undefined) return parts.join(' ');
  const body = exchange.body;
  // A heredoc keeps the body byte-exact unless a line equals the delimiter or it lacks newlines safety.
  if (!body.split('\n').includes('JSON')) {
    parts.push('--data-binary @-');
    return `${parts.join(' ')} <<'JSON'\n${body}\nJSON`;
  }
  parts.push(`--data-binary ${shellQuote(body)}`);
  return parts.join(' ');
}

/** Several exchanges as ordered, numbered curl commands (stateful failures). */
export function toCurlSequence(exchanges: readonly Exchange[]): string {
  if (exchanges.length === 1) return toCurl(exchanges[0]!);
  return exchanges
    .map(
      (ex, i) =>
        `# ${i + 1}/${exchanges.length}${ex.status === undefined ? '' : ` (got ${ex.status})`}\n${toCurl(ex)}`,
    )
    .join('\n');
}
