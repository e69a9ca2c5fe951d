/** The recorded exchanges of a HAR file that an import can use: answered reads (and writes) of the API. */
import type { Har } from 'har-format';

export interface RecordedCall {
  readonly method: string;
  /** The path from `/v0/` on (a prefix of the target is dropped), decoded segments kept as sent. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The (scrubbed) key the request carried; '' when none. */
  readonly key: string;
  readonly status: number;
  readonly requestBody: unknown;
  readonly responseBody: unknown;
}

const parse = (text: string | undefined): unknown => {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Every entry whose URL has a `/v0/` path, in recorded order. */
export function recordedCalls(har: Har): RecordedCall[] {
  const calls: RecordedCall[] = [];
  for (const entry of har.log.entries) {
    let url: URL;
    try {
      url = new URL(entry.request.url);
    } catch {
      continue;
    }
    const at = url.pathname.indexOf('/v0/');
    if (at < 0) continue;
    const key = entry.request.headers.find((h) => h.name.toLowerCase() === 'x-api-key')?.value ?? '';
    calls.push({
      method: entry.request.method.toUpperCase(),
      path: url.pathname.slice(at),
      query: url.searchParams,
      key,
      status: entry.response.status,
      requestBody: parse(entry.request.postData?.text),
      responseBody: parse(entry.response.content.text),
    });
  }
  return calls;
}

/** A HAR document read from text, or a message saying why it is not one. */
export function parseHar(text: string): Har | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return `not JSON: ${(cause as Error).message}`;
  }
  const log = typeof value === 'object' && value !== null ? (value as { log?: unknown }).log : undefined;
  const entries =
    typeof log === 'object' && log !== null ? (log as { entries?: unknown }).entries : undefined;
  if (!Array.isArray(entries)) return 'not a HAR file: log.entries is missing';
  return value as Har;
}
