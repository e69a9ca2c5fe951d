/**
 * The engine's own request and response: plain data, no WHATWG objects. The node adapter builds an
 * `EngineRequest` straight from an IncomingMessage and writes an `EngineAnswer` straight to the socket:
 * building an undici `Request` and `Response` per request cost more than the whole pipeline did
 * (profiled: ~20 % of a detail request's CPU). MSW and tests speak `Request`/`Response`; `fetch-bridge.ts`
 * converts at that edge only.
 */

/** Header lookup: names are case-insensitive, repeated headers come back joined with ", " (as `Headers.get`). */
export interface RequestHeaders {
  get(name: string): string | null;
  /** Every header with a lower-case name, repeats joined (for logs; not on the hot path). */
  entries(): Iterable<readonly [string, string]>;
}

/** A request body, read at most once. */
export interface RequestBody {
  /**
   * All the bytes, or `'too-large'` as soon as more than `maxBytes` arrived (the rest is left unread).
   * Rejects when the client goes away before the body ends.
   */
  read(maxBytes: number): Promise<Uint8Array | 'too-large'>;
  /** The engine will not read it (an early 401, 413 or 415). */
  discard(): void;
}

export interface EngineRequest {
  /** Upper-case. */
  readonly method: string;
  /** Absolute, parsed once by the adapter. */
  readonly url: URL;
  readonly headers: RequestHeaders;
  /** Null for GET and HEAD, and for a request that has none. */
  readonly body: RequestBody | null;
  /** The client's address as the transport saw it (`127.0.0.1`, `::1`...); decides admin access. */
  readonly remoteAddress: string | undefined;
  /** Handled in the client's own process or page (MSW), not received from a network: admin answers it. */
  readonly inProcess?: boolean;
}

/**
 * A response body: bytes, text, or chunks in order (a page of cached record bytes: the adapter joins
 * them the cheapest way its platform has, node without zero-filling a new buffer).
 */
export type AnswerBody = Uint8Array | string | readonly Uint8Array[];

export interface EngineAnswer {
  readonly kind: 'answer';
  readonly status: number;
  /** Lower-case names. No content-length: the adapter knows the body. */
  readonly headers: Readonly<Record<string, string>>;
  /** Null for HEAD, 204 and 304. */
  readonly body: AnswerBody | null;
}

/** Answer nothing and drop the connection (chaos): node destroys the socket, MSW answers a network error. */
export interface EngineDrop {
  readonly kind: 'drop';
}

export type EngineResponse = EngineAnswer | EngineDrop;

export const DROP: EngineDrop = { kind: 'drop' };

/**
 * Headers from a name → value record: names lower-cased, values trimmed of the surrounding spaces and
 * tabs (and CR/LF) that HTTP does not count as part of a value (node's parser and `Headers` drop them too).
 */
export function headersFromRecord(record: Readonly<Record<string, string>>): RequestHeaders {
  const lower = new Map<string, string>();
  for (const [name, raw] of Object.entries(record)) {
    const key = name.toLowerCase();
    const value = raw.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    const previous = lower.get(key);
    lower.set(key, previous === undefined ? value : `${previous}, ${value}`);
  }
  return { get: (name) => lower.get(name.toLowerCase()) ?? null, entries: () => lower.entries() };
}

/** A body whose bytes are already in memory. */
export function bytesBody(bytes: Uint8Array): RequestBody {
  return {
    read: async (maxBytes) => (bytes.byteLength > maxBytes ? 'too-large' : bytes),
    discard: () => undefined,
  };
}

/** Chunks joined into one array (the portable way; node uses `Buffer.concat`). */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
