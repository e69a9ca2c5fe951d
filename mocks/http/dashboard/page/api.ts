/**
 * The page's calls: only the admin API under /__mock/ of the origin that served it (never /v0 or
 * /mcp). A token in the page's fragment (`/__mock/#token=...`, never sent to a server) is presented
 * as `X-Mock-Admin-Token`, for a mock opened to non-loopback clients through a proxy.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

const token = new URLSearchParams(location.hash.slice(1)).get('token');

function headers(json: boolean): Record<string, string> {
  return {
    accept: 'application/json',
    ...(json ? { 'content-type': 'application/json' } : {}),
    ...(token === null ? {} : { 'x-mock-admin-token': token }),
  };
}

/**
 * Calls `/__mock/<path>` and returns the parsed JSON; a non-2xx answer throws an ApiError carrying
 * the mock's message.
 *
 * @example
 * const { clock } = await call<{ clock: Clock }>('GET', 'clock');
 */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: headers(body !== undefined), cache: 'no-store' };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(`/__mock/${path}`, init);
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    const error = (parsed as { error?: unknown } | null)?.error;
    throw new ApiError(
      response.status,
      // A proxy's or a dead server's answer may have no message, nor even a status text (HTTP/2).
      typeof error === 'string' && error.trim() !== ''
        ? error
        : `the mock answered ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`,
      parsed,
    );
  }
  return parsed as T;
}
