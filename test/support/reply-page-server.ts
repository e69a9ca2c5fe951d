/**
 * Test support: a loopback node:http server that serves the confirmation page (`replyPages`) and hands
 * every other path to the engine (REST and `/__mock/`), the way the mock's HTTP adapter does once the
 * agent routes are wired. Ephemeral port; `close()` ends every connection.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { replyPages } from '../../mocks/agent/replies/page.ts';
import type { Engine } from '../../mocks/engine/engine.ts';

export interface PageServer {
  readonly url: string;
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    headers.append(req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '');
  const method = (req.method ?? 'GET').toUpperCase();
  const chunks: Buffer[] = [];
  if (method !== 'GET' && method !== 'HEAD') for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
  });
}

async function write(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function startPageServer(engine: Engine): Promise<PageServer> {
  let origin = '';
  const server = createServer((req, res) => {
    void (async () => {
      const request = await toRequest(req, origin);
      const page = await replyPages(request, engine);
      await write(
        res,
        page ?? (await engine.handle(request, { remoteAddress: req.socket.remoteAddress ?? '' })),
      );
    })().catch(() => {
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
