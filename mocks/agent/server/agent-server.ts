/**
 * The agent interface over one engine, without a transport: the tool set (parts joined with the
 * contract), an SDK server per identity, an in-process connection for tests and embedders, and the
 * HTTP routes (/mcp, the documentation host, the parts' pages) as a Fetch function.
 */
import { InMemoryTransport, type McpServer } from '@modelcontextprotocol/server';
import { type AgentContract, agentContract } from '../../../src/contract/agent.ts';
import type { Engine } from '../../engine/engine.ts';
import { createDocsHost, type DocsHost } from '../docs-host/index.ts';
import type { SandboxOptions } from '../sandbox/limits.ts';
import type { AgentPageHandler, AgentTool } from '../types.ts';
import { createMcpEndpoint, type McpEndpoint, type McpEndpointLimits } from './http-endpoint.ts';
import { authenticateKey, type KeyRefusal } from './identity.ts';
import { createMcpServerFor } from './mcp-server.ts';
import type { OriginGuardOptions } from './origin-guard.ts';
import { createAgentParts } from './parts.ts';
import type { TextMode } from './text-summary.ts';
import { createToolSet, type ToolSet } from './tool-set.ts';

export interface AgentServerOptions {
  /** The tools to serve; default: every part of this build (skills, execute, replies). */
  readonly tools?: readonly AgentTool[];
  /** The parts' HTTP pages; default: every part's. */
  readonly pages?: readonly AgentPageHandler[];
  readonly contract?: AgentContract;
  /** DNS-rebinding protection on /mcp (on by default). */
  readonly originGuard?: OriginGuardOptions;
  readonly limits?: Partial<McpEndpointLimits>;
  /** The server's own `host:port` once it listens (accepted by the origin guard). */
  readonly ownHost?: () => string | undefined;
  /** Limits of the execute sandbox (time, memory, stack, calls, sizes, pool); see docs/agent-interface.md. */
  readonly sandbox?: SandboxOptions;
  /**
   * The text block of a successful tool result: `summary` (default: counts, first items, the resume
   * point, next to structuredContent) or `full` (the whole JSON, for hosts that show a model only text).
   */
  readonly text?: TextMode;
  /**
   * Observes each /mcp exchange (the request journal): the request as a clone with its body unread,
   * and the response before it is written (clone it to read it). Must not throw.
   */
  readonly onMcpExchange?: (exchange: {
    readonly request: Request;
    readonly response: Response;
    readonly durationMs: number;
  }) => void;
}

/** A key the agent interface refused (in process and stdio; HTTP answers 401 instead). */
export class AgentAuthError extends Error {
  readonly code = 'AGENT_KEY_REFUSED';
  constructor(readonly reason: KeyRefusal) {
    super(`The API key was refused (${reason})`);
    this.name = 'AgentAuthError';
  }
}

export interface AgentServer {
  readonly engine: Engine;
  readonly tools: ToolSet;
  /**
   * A fresh SDK server for a key; the key is checked again before each tool call. Throws
   * `AgentAuthError` for a missing, unknown, expired or revoked key.
   */
  serverForKey(key: string, publicOrigin?: string | null, docsUrl?: string | null): McpServer;
  /**
   * Connects a server for the key to a linked in-memory pair and returns the client's side: hand it
   * to an SDK `Client`'s `connect`.
   */
  connectInProcess(key: string): Promise<InMemoryTransport>;
  /** The agent's HTTP routes: /mcp, /llms.txt, /llms-full.txt, the Markdown pages, the parts' pages. */
  handle(request: Request): Promise<Response | null>;
  readonly mcp: McpEndpoint;
  readonly docs: DocsHost;
  close(): Promise<void>;
}

/** Paths the agent owns on the mock's origin (everything else goes to the REST engine). */
export function isMcpPath(pathname: string): boolean {
  return pathname === '/mcp' || pathname === '/mcp/';
}

/**
 * Creates the agent interface over an engine.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/client';
 * const agent = createAgentServer(engine);
 * const client = new Client({ name: 'test', version: '1' });
 * await client.connect(await agent.connectInProcess(key));
 * const { tools } = await client.listTools();
 * ```
 */
export function createAgentServer(engine: Engine, options: AgentServerOptions = {}): AgentServer {
  const contract = options.contract ?? agentContract();
  const parts =
    options.tools === undefined || options.pages === undefined
      ? createAgentParts(options.sandbox === undefined ? {} : { sandbox: options.sandbox })
      : undefined;
  const tools = createToolSet(contract, options.tools ?? parts?.tools ?? []);
  const pages = options.pages ?? parts?.pages ?? [];
  const docs = createDocsHost({ contract, tools });
  const mcp = createMcpEndpoint({
    engine,
    tools,
    ownHost: options.ownHost ?? (() => undefined),
    ...(options.originGuard === undefined ? {} : { originGuard: options.originGuard }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  const linked: InMemoryTransport[] = [];

  function serverForKey(key: string, publicOrigin: string | null = null, docsUrl?: string | null): McpServer {
    const auth = authenticateKey(engine, key);
    if (!auth.ok) throw new AgentAuthError(auth.reason);
    return createMcpServerFor(auth.identity, {
      engine,
      tools,
      publicOrigin,
      ...(docsUrl === undefined ? {} : { docsUrl }),
      text: options.text ?? 'summary',
      recheck: () => {
        const again = authenticateKey(engine, key);
        return again.ok ? undefined : again.reason;
      },
    });
  }

  return {
    engine,
    tools,
    mcp,
    docs,
    serverForKey,
    async connectInProcess(key) {
      const server = serverForKey(key);
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      linked.push(clientSide);
      await server.connect(serverSide);
      return clientSide;
    },
    async handle(request) {
      const { pathname } = new URL(request.url);
      if (isMcpPath(pathname)) {
        const observe = options.onMcpExchange;
        if (observe === undefined) return mcp.fetch(request);
        const started = performance.now();
        const copy = request.clone();
        const response = await mcp.fetch(request);
        observe({ request: copy, response, durationMs: performance.now() - started });
        return response;
      }
      const doc = docs.handle(request);
      if (doc !== null) return doc;
      for (const page of pages) {
        const answer = await page(request, engine);
        if (answer !== null) return answer;
      }
      return null;
    },
    async close() {
      await Promise.allSettled(linked.map((t) => t.close()));
      await mcp.close();
      await parts?.close();
    },
  };
}
