/**
 * One proxied exchange as a HAR 1.2 entry, scrubbed on the way in: nothing unscrubbed is ever held
 * in the recording, let alone written.
 */
import type { Entry, Har, Header } from 'har-format';
import type { Scrubber } from './scrub.ts';

export interface Exchange {
  readonly startedAt: number;
  readonly elapsedMs: number;
  readonly method: string;
  /** The target URL the request went to (path and query included). */
  readonly url: string;
  readonly requestHeaders: readonly (readonly [string, string])[];
  readonly requestBody: string | null;
  readonly status: number;
  readonly statusText: string;
  readonly responseHeaders: readonly (readonly [string, string])[];
  /** Null when the body was over the size limit (not recorded). */
  readonly responseBody: string | null;
  readonly responseBytes: number;
}

const headerList = (pairs: readonly (readonly [string, string])[]): Header[] =>
  pairs.map(([name, value]) => ({ name, value }));

const contentTypeOf = (pairs: readonly (readonly [string, string])[]): string | null =>
  pairs.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? null;

/** The scrubbed HAR entry of an exchange. */
export function entryOf(exchange: Exchange, scrubber: Scrubber): Entry {
  const requestHeaders = scrubber.headers(exchange.requestHeaders);
  const responseHeaders = scrubber.headers(exchange.responseHeaders);
  const requestType = contentTypeOf(exchange.requestHeaders);
  const responseType = contentTypeOf(exchange.responseHeaders) ?? 'application/octet-stream';
  const requestBody = exchange.requestBody === null ? null : scrubber.body(exchange.requestBody, requestType);
  const responseBody =
    exchange.responseBody === null ? null : scrubber.body(exchange.responseBody, responseType);
  const url = new URL(exchange.url);
  const queryString = [...url.searchParams].map(([name, value]) => ({
    name,
    value: scrubber.embedded(value),
  }));
  url.search = new URLSearchParams(queryString.map((q) => [q.name, q.value])).toString();
  const scrubbedUrl = scrubber.embedded(url.toString());
  return {
    startedDateTime: new Date(exchange.startedAt).toISOString(),
    time: exchange.elapsedMs,
    request: {
      method: exchange.method,
      url: scrubbedUrl,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(requestHeaders),
      queryString,
      ...(requestBody === null
        ? {}
        : { postData: { mimeType: requestType ?? 'application/json', text: requestBody } }),
      headersSize: -1,
      bodySize: requestBody === null ? 0 : Buffer.byteLength(requestBody),
    },
    response: {
      status: exchange.status,
      statusText: exchange.statusText,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(responseHeaders),
      content: {
        size: exchange.responseBytes,
        mimeType: responseType,
        ...(responseBody === null
          ? { comment: 'body over the recorder size limit: not recorded' }
          : { text: responseBody }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: exchange.responseBytes,
    },
    cache: {},
    timings: { send: 0, wait: exchange.elapsedMs, receive: 0 },
  };
}

/** The HAR document: the entries, the target and the start time (also as `_target`, `_startedAt`). */
export function harOf(entries: readonly Entry[], target: string, startedAt: number, version: string): Har {
  const log = {
    version: '1.2',
    creator: { name: 'cca-kit record', version },
    comment: `cca-kit record of ${target} started ${new Date(startedAt).toISOString()}; scrubbed before writing`,
    entries: [...entries],
    _target: target,
    _startedAt: new Date(startedAt).toISOString(),
  };
  return { log };
}
