/**
 * How the client sends its bytes. The default is the Fetch API, resolved at call time, so whatever
 * intercepts `fetch` (MSW in Node or a browser, a test's stub) sees every request. The conformance
 * runner passes its own keep-alive transport (`src/conformance/transport.ts`) for throughput and for
 * the deliberately odd requests of its laws.
 */

/** One request, as the transport sends it: absolute URL, final headers (key included), body text. */
export interface TransportRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly signal: AbortSignal;
  /** The body framed chunked, without Content-Length. */
  readonly chunked?: boolean;
  /** The whole URL as the request line's target (absolute form). */
  readonly absoluteTarget?: boolean;
}

/** One answer: the status, lower-cased headers and the exact body text (never parsed here). */
export interface TransportResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/** Sends requests; rejects only when no HTTP answer came (refused, reset, timeout, invalid request). */
export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  /** Releases connections; the fetch transport holds none. */
  close?(): Promise<void>;
}

/** A `fetch`-compatible function (the global one, MSW's, a polyfill's). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * The Fetch API as a transport. Without `fetchImpl`, `globalThis.fetch` is read at each call: MSW's
 * `setupServer().listen()` or a test stub installed after the client was made is still used.
 */
export function fetchTransport(fetchImpl?: FetchLike): Transport {
  return {
    async send(request) {
      // The Fetch API always writes an origin-form target: say so rather than send another request.
      if (request.absoluteTarget === true)
        throw new TypeError('the fetch transport cannot send an absolute-form request target');
      const send: FetchLike = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
      const res = await send(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: fetchBody(request) }),
        // A stream body needs it (Node's fetch refuses one without); ignored for a string body.
        ...(request.chunked === true ? { duplex: 'half' } : {}),
        signal: request.signal,
        redirect: 'manual',
      });
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      // The raw text: ids above 2^53 are read from it by whoever needs the bytes, never lost.
      return { status: res.status, headers, text: await res.text() };
    },
  };
}

/** A chunked body as a stream of one chunk, which a fetch sends without Content-Length. */
function fetchBody(request: TransportRequest): BodyInit {
  const body = request.body ?? '';
  if (request.chunked !== true) return body;
  const bytes = new TextEncoder().encode(body);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
