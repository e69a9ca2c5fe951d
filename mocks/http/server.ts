/**
 * The node:http adapter: translates an IncomingMessage into a WHATWG Request (the body streamed with the
 * size limit enforced while reading), hands it to the engine with the client's address, and writes the
 * Response back. Also serves Swagger UI's static files under /docs/.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createEngine, type Engine } from '../engine/engine.ts';
import type { EngineOptions } from '../engine/options.ts';
import { serialisedBodyOf } from '../engine/respond.ts';
import { createDocsAssets, type DocsAssets } from './docs-assets.ts';

/** Server limits; see docs/mock.md. */
export interface ServerLimits {
  /** Time allowed to receive the complete request headers (ms). */
  readonly headersTimeout: number;
  /** Time allowed to receive the complete request (ms). */
  readonly requestTimeout: number;
  /** Idle time before a keep-alive connection is closed (ms). */
  readonly keepAliveTimeout: number;
  /** Largest accepted request header block (bytes); node's default. */
  readonly maxHeaderSize: number;
}

export const DEFAULT_SERVER_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 16_384,
} as const satisfies ServerLimits;

export interface MockServerOptions extends EngineOptions {
  /** Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Default 0 (an ephemeral port; read it from the result). */
  readonly port?: number;
  /** An engine to serve instead of creating one from the other options. */
  readonly engine?: Engine;
  readonly limits?: Partial<ServerLimits>;
}

export interface MockServer {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly engine: Engine;
  readonly server: Server;
  /** Stops accepting, closes every connection, resolves when the server is closed. */
  close(): Promise<void>;
}

const HOST_HEADER = /^[A-Za-z0-9.\-_~]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;
const ERROR_CONTENT_TYPE = 'application/json; charset=utf-8';
/** Methods a WHATWG Request cannot carry; answered 405 by the adapter itself. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

function errorJson(message: string): string {
  return JSON.stringify({ success: false, error: message });
}

/**
 * A ReadableStream over the request body that stops feeding once `maxBytes` is passed (the engine then
 * answers 413 without the rest being buffered). `state.abandoned` tells the adapter to close the connection.
 */
function bodyStream(
  req: IncomingMessage,
  maxBytes: number,
  state: { abandoned: boolean },
): ReadableStream<Uint8Array> {
  let total = 0;
  let done = false;
  let attached = false;
  const attach = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    attached = true;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      total += chunk.byteLength;
      controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (total > maxBytes) {
        done = true;
        state.abandoned = true;
        req.pause();
        controller.close();
      } else if ((controller.desiredSize ?? 1) <= 0) {
        req.pause();
      }
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      controller.close();
    });
    req.on('error', (error) => {
      if (done) return;
      done = true;
      controller.error(error);
    });
    req.on('close', () => {
      if (done) return;
      done = true;
      controller.error(new Error('the client closed the connection before the body ended'));
    });
  };
  // Listeners are attached at the first read, so a body the engine never reads is never pulled in.
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!attached) attach(controller);
      else if (!done) req.resume();
    },
    cancel() {
      if (!done) state.abandoned = true;
      done = true;
      req.pause();
    },
  });
}

function toRequest(req: IncomingMessage, origin: string, body: ReadableStream<Uint8Array> | null): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
  const target = req.url ?? '/';
  const url = target.startsWith('/')
    ? `${origin}${target}`
    : `${origin}${new URL(target).pathname}${new URL(target).search}`;
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (body !== null) {
    init.body = body;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

async function writeResponse(res: ServerResponse, response: Response, closeAfter: boolean): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  const serialised = serialisedBodyOf(response);
  const body =
    serialised !== undefined
      ? serialised
      : response.body === null
        ? null
        : Buffer.from(await response.arrayBuffer());
  if (closeAfter) res.setHeader('connection', 'close');
  if (body !== null) res.setHeader('content-length', body.byteLength);
  res.end(body);
}

function sendError(res: ServerResponse, status: number, message: string, closeAfter = false): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = errorJson(message);
  res.writeHead(status, {
    'content-type': ERROR_CONTENT_TYPE,
    'content-length': Buffer.byteLength(text),
    ...(closeAfter ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** Answers a malformed request, a header overflow or a time-out on the socket itself, then closes it. */
function onClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || socket.destroyed) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request headers exceed the mock limit']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'Request not received in time']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const text = errorJson(message);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${ERROR_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
  socket.destroySoon();
}

/**
 * Starts the mock on node:http.
 *
 * @example
 * const mock = await startMockServer({ port: 0, seed: 42, selfCheck: true });
 * await fetch(`${mock.url}/v0/agents`, { headers: { 'x-api-key': key } });
 * await mock.close();
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { host = '127.0.0.1', port = 0, engine: given, limits: limitOptions, ...engineOptions } = options;
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...limitOptions };
  const engine = given ?? createEngine(engineOptions);
  const maxBodyBytes = engine.options.maxBodyBytes;
  const assets: DocsAssets = createDocsAssets();
  let fallbackOrigin = '';

  // Node checks the header/request time-outs on an interval; 1 s keeps them close to their values.
  const server = createServer(
    { maxHeaderSize: limits.maxHeaderSize, connectionsCheckingInterval: 1_000 },
    (req, res) => {
      void serve(req, res);
    },
  );
  server.headersTimeout = limits.headersTimeout;
  server.requestTimeout = limits.requestTimeout;
  server.keepAliveTimeout = limits.keepAliveTimeout;
  server.on('clientError', onClientError);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bodyState = { abandoned: false };
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
      if (method === 'GET' || method === 'HEAD') {
        const asset = await assets(path);
        if (asset !== undefined) {
          res.writeHead(200, {
            'content-type': asset.contentType,
            'content-length': asset.body.byteLength,
            'cache-control': 'public, max-age=3600',
          });
          res.end(method === 'HEAD' ? undefined : asset.body);
          return;
        }
      }
      const hostHeader = req.headers.host;
      const origin =
        hostHeader !== undefined && HOST_HEADER.test(hostHeader) ? `http://${hostHeader}` : fallbackOrigin;
      const hasBody = method !== 'GET' && method !== 'HEAD';
      let request: Request;
      try {
        request = toRequest(req, origin, hasBody ? bodyStream(req, maxBodyBytes, bodyState) : null);
      } catch {
        if (FORBIDDEN_METHODS.has(method))
          sendError(res, 405, `Method ${method} is not supported by this mock`, true);
        else sendError(res, 400, 'Malformed request line or headers', true);
        return;
      }
      const response = await engine.handle(request, { remoteAddress: req.socket.remoteAddress ?? '' });
      // Response.error() is the engine's "drop the connection" marker (chaos): no answer at all.
      if (response.type === 'error') {
        res.destroy();
        return;
      }
      await writeResponse(res, response, bodyState.abandoned || !req.complete);
    } catch {
      sendError(res, 500, 'Internal server error', bodyState.abandoned);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  fallbackOrigin = `http://${urlHost}:${address.port}`;

  return {
    url: fallbackOrigin,
    port: address.port,
    host: address.address,
    engine,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
