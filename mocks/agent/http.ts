/**
 * The glue between the node:http adapter and the agent interface: the paths the agent owns on the
 * mock's origin (`/mcp`, `/llms.txt`, `/llms-full.txt`, everything under `/agent/`: the Markdown pages
 * and the parts' pages such as the reply confirmation page), turned into Fetch requests for
 * `AgentServer.handle` and written back, streams included (an MCP session's SSE stream).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Engine } from '../engine/engine.ts';
import { type AgentServer, type AgentServerOptions, createAgentServer } from './server/agent-server.ts';

/** Whether a request path belongs to the agent interface rather than the REST engine. */
export function isAgentPath(pathname: string): boolean {
  return (
    pathname === '/mcp' ||
    pathname === '/mcp/' ||
    pathname === '/llms.txt' ||
    pathname === '/llms-full.txt' ||
    pathname.startsWith('/agent/')
  );
}

export interface AgentHttpRoutes {
  readonly agent: AgentServer;
  /**
   * Serves the request when its path is the agent's; resolves false (touching nothing) otherwise, so
   * the caller hands it to the REST engine.
   */
  serve(req: IncomingMessage, res: ServerResponse, origin: string): Promise<boolean>;
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    const value = req.rawHeaders[i + 1];
    if (name !== undefined && value !== undefined) headers.append(name, value);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

async function writeResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  signal: AbortSignal,
): Promise<void> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    headers.push(name, value);
  });
  // Answered before the body was read (413): the rest of it is still on the wire, so the connection
  // cannot carry another request.
  if (!req.complete && !res.headersSent) headers.push('connection', 'close');
  res.writeHead(response.status, headers);
  // An event stream's headers go out now, not with its first event, which may be minutes away.
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) res.flushHeaders();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // An SSE stream is written as it comes; respecting back-pressure keeps memory bounded.
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve));
    }
    res.end();
  } catch {
    res.destroy();
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * Creates the agent routes for an engine.
 *
 * @example
 * const routes = createAgentHttpRoutes(engine, { ownHost: () => '127.0.0.1:4010' });
 * if (await routes.serve(req, res, 'http://127.0.0.1:4010')) return;
 */
export function createAgentHttpRoutes(engine: Engine, options: AgentServerOptions = {}): AgentHttpRoutes {
  const agent = createAgentServer(engine, options);
  return {
    agent,
    async serve(req, res, origin) {
      const pathname = (req.url ?? '/').split('?', 1)[0] ?? '/';
      if (!isAgentPath(pathname)) return false;
      const controller = new AbortController();
      res.once('close', () => controller.abort());
      let request: Request;
      try {
        request = toRequest(req, origin, controller.signal);
      } catch (error) {
        // A header value the Fetch API refuses: bad input, answered as such.
        writeJson(res, 400, `Malformed request: ${error instanceof Error ? error.message : String(error)}`);
        return true;
      }
      const response = await agent.handle(request);
      if (response === null) {
        writeJson(res, 404, `No agent page at ${pathname}`);
        return true;
      }
      await writeResponse(req, res, response, controller.signal);
      return true;
    },
    close: () => agent.close(),
  };
}

function writeJson(res: ServerResponse, status: number, error: string): void {
  const body = JSON.stringify({ success: false, error });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(status === 400 ? { connection: 'close' } : {}),
  });
  res.end(body);
}
