/**
 * A faulty agent deployment without touching the mock: an in-process HTTP proxy in front of it that
 * rewrites JSON-RPC messages on the way in and out (JSON or SSE bodies), may answer some itself, may
 * act on other paths (the confirmation page), and shows its own origin in every answer. Black-box:
 * the mock needs no hook.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Json = Record<string, unknown>;
export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a fault may do to one exchange. Every member is optional. */
export interface ProxyFault {
  /** Rewrites the request headers (e.g. another key). */
  headers?(headers: Headers, path: string): void;
  /** Rewrites a JSON-RPC message the client sent to /mcp. */
  request?(message: Json): Json;
  /** Answers a JSON-RPC request itself (the deployment's own code path), or undefined to forward. */
  answer?(message: Json): Json | undefined;
  /** Rewrites a JSON-RPC message the server answered, given the request it answers. */
  response?(message: Json, request: Json | undefined): Json;
  /** Runs after a non-MCP request was answered (e.g. a page GET), with a fetch to the target. */
  after?(path: string, method: string, target: string): Promise<void>;
  /** Rewrites the body of a non-MCP answer. */
  page?(path: string, status: number, body: string): { status: number; body: string };
  /** Awaited before each request is forwarded (work a fault started must be done by then). */
  settle?(): Promise<void>;
  /** Delay before each answer (ms). */
  readonly delayMs?: number;
}

export interface FaultProxy {
  readonly url: string;
  close(): Promise<void>;
}

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Rewrites every JSON-RPC message of a JSON or SSE body. */
function rewriteMessages(contentType: string, text: string, edit: (m: Json) => Json): string {
  if (contentType.includes('text/event-stream')) {
    return text.replace(/^data: ?(.*)$/gm, (line, data: string) => {
      const value = parse(data);
      return isObj(value) ? `data: ${JSON.stringify(edit(value))}` : line;
    });
  }
  const value = parse(text);
  if (Array.isArray(value)) return JSON.stringify(value.map((m) => (isObj(m) ? edit(m) : m)));
  return isObj(value) ? JSON.stringify(edit(value)) : text;
}

/** Starts the proxy on 127.0.0.1 in front of `target` (an origin such as `http://127.0.0.1:4010`). */
export async function startFaultProxy(target: string, fault: ProxyFault): Promise<FaultProxy> {
  let self = '';
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP.has(name) && value !== undefined)
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    if (headers.has('origin')) headers.set('origin', target);
    await fault.settle?.();
    fault.headers?.(headers, path);
    let body = method === 'GET' || method === 'HEAD' ? undefined : await bodyOf(req);
    const isMcp = path.split('?')[0] === '/mcp';
    const sent = isMcp && body !== undefined ? parse(body) : undefined;
    const requests = new Map<unknown, Json>();
    if (isMcp && isObj(sent)) {
      const rewritten = fault.request?.(sent) ?? sent;
      if ('id' in rewritten) requests.set(rewritten['id'], rewritten);
      const own = fault.answer?.(rewritten);
      if (own !== undefined) {
        res.writeHead(200, {
          'content-type': 'application/json',
          'mcp-session-id': headers.get('mcp-session-id') ?? '',
        });
        res.end(JSON.stringify(own));
        return;
      }
      body = JSON.stringify(rewritten);
    }
    const answer = await fetch(target + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      redirect: 'manual',
    });
    let text = (await answer.text()).replaceAll(target, self);
    let status = answer.status;
    const type = answer.headers.get('content-type') ?? '';
    if (isMcp && fault.response !== undefined) {
      const edit = fault.response;
      text = rewriteMessages(type, text, (m) => edit(m, requests.get(m['id'])));
    }
    if (!isMcp && fault.page !== undefined) ({ status, body: text } = fault.page(path, status, text));
    if (!isMcp) await fault.after?.(path, method, target);
    if (fault.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP.has(name) && name !== 'content-encoding') out[name] = value.replaceAll(target, self);
    });
    res.writeHead(status, out);
    res.end(text);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: `fault proxy: ${String(error)}` }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
