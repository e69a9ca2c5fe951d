/**
 * An IncomingMessage as the engine's plain `EngineRequest`: headers looked up in `rawHeaders` (no
 * `Headers` object), the body read straight from the socket stream with the size limit enforced while
 * reading, the URL parsed once. No WHATWG objects: building them cost more than the engine's own work.
 */
import type { IncomingMessage } from 'node:http';
import type { EngineRequest, RequestBody, RequestHeaders } from '../engine/exchange.ts';

/**
 * A body the engine leaves unread is drained by node after the answer (keeping the connection alive)
 * when its declared length is at most this; anything larger, or of unknown length, closes the
 * connection instead, so a client cannot make the server swallow a huge body it refused.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024;

/** What the adapter must know after the engine answered. */
export interface IncomingState {
  /** Part of the body was left unread: answer with `connection: close`. */
  abandoned: boolean;
}

/** Case-insensitive lookup in node's `rawHeaders`, repeats joined with ", " like `Headers.get`. */
function rawHeaders(raw: readonly string[]): RequestHeaders {
  return {
    get(name) {
      const wanted = name.toLowerCase();
      let value: string | null = null;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const candidate = raw[i] as string;
        if (candidate.length === wanted.length && candidate.toLowerCase() === wanted) {
          const next = raw[i + 1] as string;
          value = value === null ? next : `${value}, ${next}`;
        }
      }
      return value;
    },
    entries() {
      const joined = new Map<string, string>();
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = (raw[i] as string).toLowerCase();
        const value = raw[i + 1] as string;
        const previous = joined.get(name);
        joined.set(name, previous === undefined ? value : `${previous}, ${value}`);
      }
      return joined.entries();
    },
  };
}

function declaredLength(req: IncomingMessage): number | null {
  const header = req.headers['content-length'];
  return header !== undefined && /^\d{1,15}$/.test(header) ? Number.parseInt(header, 10) : null;
}

/** Whether the request carries a body at all (node has already refused a malformed framing). */
function hasBody(req: IncomingMessage): boolean {
  const length = declaredLength(req);
  return (length !== null && length > 0) || req.headers['transfer-encoding'] !== undefined;
}

function incomingBody(req: IncomingMessage, state: IncomingState): RequestBody {
  let used = false;
  return {
    read(maxBytes) {
      if (used) return Promise.reject(new Error('the request body was already read'));
      used = true;
      return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        let total = 0;
        const stop = (): void => {
          req.off('data', onData);
          req.off('end', onEnd);
          req.off('error', onError);
          req.off('close', onClose);
        };
        const onData = (chunk: Buffer): void => {
          total += chunk.byteLength;
          if (total > maxBytes) {
            stop();
            state.abandoned = true;
            req.pause();
            resolve('too-large');
          } else chunks.push(chunk);
        };
        const onEnd = (): void => {
          stop();
          resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total));
        };
        const onError = (error: Error): void => {
          stop();
          reject(error);
        };
        const onClose = (): void => {
          stop();
          reject(new Error('the client closed the connection before the body ended'));
        };
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('error', onError);
        req.on('close', onClose);
      });
    },
    discard() {
      if (used) return;
      used = true;
      if (req.complete) return;
      const length = declaredLength(req);
      if (length === null || length > DRAIN_LIMIT_BYTES) {
        state.abandoned = true;
        req.pause();
      }
    },
  };
}

/**
 * The engine's view of `req`, or undefined when its target is not a URL (node's parser lets some
 * through, e.g. `OPTIONS *`). `origin` is where the client believes it is (from a valid Host header).
 */
export function toEngineRequest(
  req: IncomingMessage,
  origin: string,
  state: IncomingState,
): EngineRequest | undefined {
  const target = req.url ?? '/';
  let url: URL;
  try {
    if (target.startsWith('/')) url = new URL(`${origin}${target}`);
    else {
      // Absolute form (`GET http://host/path`): only the path and query count.
      const absolute = new URL(target);
      url = new URL(`${origin}${absolute.pathname}${absolute.search}`);
    }
  } catch {
    return undefined;
  }
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    url,
    headers: rawHeaders(req.rawHeaders),
    body: hasBody(req) ? incomingBody(req, state) : null,
    remoteAddress: req.socket.remoteAddress,
  };
}
