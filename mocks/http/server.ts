/**
 * The node:http adapter: turns an IncomingMessage into the engine's plain request (`incoming.ts`), hands
 * it to `engine.dispatch`, and writes the answer's bytes. Also serves Swagger UI's static files under
 * /docs/.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { AgentHttpRoutes } from '../agent/http.ts';
import type { AgentServerOptions } from '../agent/server/agent-server.ts';
import { createEngine, type Engine } from '../engine/engine.ts';
import type { EngineAnswer } from '../engine/exchange.ts';
import { createJournal, type JournalOptions, journalOf } from '../engine/journal/index.ts';
import type { EngineOptions } from '../engine/options.ts';
import { isAgentPath, pathOfTarget } from './agent-paths.ts';
import { type BufferPool, createBufferPool, joinInto } from './buffer-pool.ts';
import { mcpRecorder } from './dashboard/mcp-recorder.ts';
import { createDashboardRoutes } from './dashboard/serve.ts';
import { createDocsAssets, type DocsAssets } from './docs-assets.ts';
import { type IncomingState, toEngineRequest } from './incoming.ts';
import { listen, originOf } from './listen.ts';
import { answerStoreRefusal } from './store-refusal.ts';
import { DEFAULT_WRITES_PER_TURN, writeTurns } from './write-turns.ts';

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
  /**
   * A server already listening (the start-up port of `starting.ts`, answering 503 while the state
   * loads): this one takes its requests over instead of opening a port, so the port never closes.
   */
  readonly server?: Server;
  readonly limits?: Partial<ServerLimits>;
  /** The agent interface (MCP at /mcp, /llms.txt, /agent/...) on the same port; `false` serves REST only. */
  readonly agent?: false | AgentServerOptions;
  /**
   * When the agent interface loads: `start` (default) before the server listens, so `agent` is there
   * at once; `first-request` at the first request to one of its paths (`cca-kit mock`: the REST API
   * answers without paying for the MCP SDK, QuickJS and the agent contract, ~250 ms of CPU).
   */
  readonly agentLoad?: 'start' | 'first-request';
  /**
   * The request journal behind the dashboard at /__mock/ (`GET /__mock/journal`): installed after the
   * given interceptors, default 500 exchanges with bodies cut at 32 KiB; `false` for none. Ignored
   * with `engine` (install `createJournal()` in that engine's interceptors instead).
   */
  readonly journal?: false | JournalOptions;
  /**
   * Requests that may write (not GET, HEAD or OPTIONS) started per turn of the event loop, after the
   * reads that came with them (`write-turns.ts`); 0 starts each at once. Default 4.
   */
  readonly writesPerTurn?: number;
}

export interface MockServer {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly engine: Engine;
  readonly server: Server;
  /** The agent interface's routes, unless `agent: false` (with `agentLoad: 'first-request'`, once loaded). */
  readonly agent: AgentHttpRoutes | undefined;
  /** Stops accepting, closes every connection, resolves when the server is closed. */
  close(): Promise<void>;
}

const HOST_HEADER = /^[A-Za-z0-9.\-_~]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;
const ERROR_CONTENT_TYPE = 'application/json; charset=utf-8';
/** Methods no browser or fetch client can send (tunnels, traces); answered 405 by the adapter itself. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

function errorJson(message: string): string {
  return JSON.stringify({ success: false, error: message });
}

/**
 * Writes an engine answer; the body's length is known, so no chunked encoding. A body in chunks is
 * joined into a pooled buffer, given back once the response has finished.
 */
function writeAnswer(res: ServerResponse, answer: EngineAnswer, closeAfter: boolean, pool: BufferPool): void {
  const given = answer.body;
  let pooled: Buffer | undefined;
  let body: Uint8Array | string | null;
  if (given === null || typeof given === 'string' || given instanceof Uint8Array) body = given;
  // A remembered answer is one chunk: written as it is, not copied.
  else if (given.length === 1) body = given[0] as Uint8Array;
  else {
    const joined = joinInto(pool, given);
    pooled = joined.buffer;
    body = joined.bytes;
  }
  // A flat [name, value, ...] list: node stores it with less work than an object (measured: ~20 % more
  // small answers per second than with an object spread per request).
  const headers: string[] = [];
  for (const name in answer.headers) headers.push(name, answer.headers[name] as string);
  if (body !== null)
    headers.push(
      'content-length',
      String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
    );
  if (closeAfter) headers.push('connection', 'close');
  res.writeHead(answer.status, headers);
  if (pooled === undefined) res.end(body);
  else {
    const buffer = pooled;
    res.end(body, () => pool.give(buffer));
  }
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
  const {
    host = '127.0.0.1',
    port = 0,
    engine: given,
    limits: limitOptions,
    agent: agentOptions,
    agentLoad = 'start',
    journal: journalOptions = {},
    server: listening,
    writesPerTurn = DEFAULT_WRITES_PER_TURN,
    ...engineOptions
  } = options;
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...limitOptions };
  const engine =
    given ??
    createEngine(
      journalOptions === false
        ? engineOptions
        : {
            ...engineOptions,
            interceptors: [...(engineOptions.interceptors ?? []), createJournal(journalOptions)],
          },
    );
  const journal = journalOf(engine.admin);
  const dashboard = createDashboardRoutes(engine);
  const assets: DocsAssets = createDocsAssets();
  const pool = createBufferPool();
  let fallbackOrigin = '';
  const agentRouteOptions: AgentServerOptions | undefined =
    agentOptions === false
      ? undefined
      : {
          ownHost: () => fallbackOrigin.slice('http://'.length),
          ...(journal === undefined
            ? {}
            : { onMcpExchange: mcpRecorder(journal, journal.stats().maxBodyBytes) }),
          ...agentOptions,
        };
  let agent: AgentHttpRoutes | undefined;
  let agentLoading: Promise<AgentHttpRoutes> | undefined;
  // Imported here, not at the top: see `agentLoad`.
  const loadAgent = (routeOptions: AgentServerOptions): Promise<AgentHttpRoutes> => {
    agentLoading ??= import('../agent/http.ts').then(({ createAgentHttpRoutes }) => {
      agent = createAgentHttpRoutes(engine, routeOptions);
      return agent;
    });
    return agentLoading;
  };
  if (agentRouteOptions !== undefined && agentLoad === 'start') await loadAgent(agentRouteOptions);

  // Node checks the header/request time-outs on an interval; 1 s keeps them close to their values.
  const start = writeTurns(writesPerTurn);
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    start(req.method, () => void serve(req, res));
  };
  const server =
    listening ??
    createServer({ maxHeaderSize: limits.maxHeaderSize, connectionsCheckingInterval: 1_000 }, handle);
  if (listening !== undefined) {
    server.removeAllListeners('request');
    server.on('request', handle);
  }
  server.headersTimeout = limits.headersTimeout;
  server.requestTimeout = limits.requestTimeout;
  server.keepAliveTimeout = limits.keepAliveTimeout;
  server.on('clientError', onClientError);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const state: IncomingState = { abandoned: false };
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      if ((method === 'GET' || method === 'HEAD') && req.url?.startsWith('/docs/')) {
        const asset = await assets((req.url ?? '/').split('?', 1)[0] ?? '/');
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
      if (FORBIDDEN_METHODS.has(method)) {
        sendError(res, 405, `Method ${method} is not supported by this mock`, true);
        return;
      }
      const hostHeader = req.headers.host;
      const origin =
        hostHeader !== undefined && HOST_HEADER.test(hostHeader) ? `http://${hostHeader}` : fallbackOrigin;
      if (req.url?.startsWith('/__mock/') && (await dashboard.serve(req, res, origin))) return;
      const routes =
        agent ??
        (agentRouteOptions !== undefined && isAgentPath(pathOfTarget(req.url))
          ? await loadAgent(agentRouteOptions)
          : undefined);
      if (routes !== undefined && isAgentPath(pathOfTarget(req.url))) {
        // A shared store: the agent interface reads what any replica wrote before this request too.
        // A refusal (the replica diverged) is the REST side's 503, not an unexpected failure.
        const behind = engine.catchUp();
        const refused =
          behind === undefined
            ? undefined
            : await behind.then(
                () => undefined,
                (error: unknown) => error ?? new Error('catch-up failed'),
              );
        if (refused !== undefined) {
          req.resume();
          if (answerStoreRefusal(res, pathOfTarget(req.url), refused)) return;
          throw refused;
        }
      }
      if (routes !== undefined && (await routes.serve(req, res, origin))) return;
      const request = toEngineRequest(req, origin, state);
      if (request === undefined) {
        sendError(res, 400, 'Malformed request line or headers', true);
        return;
      }
      const response = await engine.dispatch(request);
      // A drop is the engine's "no answer at all" (chaos): the client sees the connection go.
      if (response.kind === 'drop') {
        res.destroy();
        return;
      }
      writeAnswer(res, response, state.abandoned, pool);
    } catch {
      sendError(res, 500, 'Internal server error', state.abandoned);
    }
  }

  if (listening === undefined) await listen(server, port, host);
  fallbackOrigin = originOf(server);
  const address = server.address() as AddressInfo;

  return {
    url: fallbackOrigin,
    port: address.port,
    host: address.address,
    engine,
    server,
    get agent() {
      return agent;
    },
    close: async () => {
      // An agent still loading is closed once loaded (a failed load has nothing to close).
      await (agentLoading ?? Promise.resolve(agent)).then(
        (routes) => routes?.close(),
        () => undefined,
      );
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
