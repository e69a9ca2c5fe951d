/**
 * One MCP session with the official SDK client (`@modelcontextprotocol/client`) over Streamable
 * HTTP, sent through the conformance client (see `fetch.ts`). Answers come back as data: a tool
 * result, or the JSON-RPC error the server answered; a law decides what is a violation.
 */
import {
  Client,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { Auth } from '../../../client/types.ts';
import type { McpEndpoint } from './endpoint.ts';
import { conformanceFetch } from './fetch.ts';

/**
 * The laws validate tool results themselves (so a bad result is charged to its own rule with the
 * exchange): the SDK's own output validation is switched off by a validator that accepts anything.
 */
const acceptAnything: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** A tool as `tools/list` describes it. */
export interface ListedTool {
  readonly name: string;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
  readonly [key: string]: unknown;
}

/** What a `tools/call` came back with. */
export type ToolAnswer =
  | {
      readonly kind: 'result';
      readonly isError: boolean;
      readonly structuredContent: unknown;
      readonly content: readonly unknown[];
    }
  | { readonly kind: 'rpc-error'; readonly code: number | undefined; readonly message: string };

function errorOf(error: unknown): { code: number | undefined; message: string } {
  const e = error as { code?: unknown; message?: unknown };
  return {
    code: typeof e.code === 'number' ? e.code : undefined,
    message: typeof e.message === 'string' ? e.message : String(error),
  };
}

/**
 * An initialized session (`initialize`, `notifications/initialized`; `Mcp-Session-Id` kept by the
 * transport). Close it when done: the session is ended with a `DELETE`.
 *
 * @example
 * ```ts
 * const session = await McpSession.open(ctx.mcp, 'read');
 * try {
 *   const tools = await session.listTools();
 * } finally {
 *   await session.close();
 * }
 * ```
 */
export class McpSession {
  private constructor(
    private readonly client: Client,
    private readonly transport: StreamableHTTPClientTransport,
  ) {}

  static async open(endpoint: McpEndpoint, auth: Auth): Promise<McpSession> {
    // The stateless revision is pinned, never negotiated: a deployment that does not serve it fails
    // the connect, and the law says so, instead of being judged on the other revision unnoticed.
    const client = new Client(
      { name: 'cca-kit-conform', version: '1' },
      {
        capabilities: {},
        jsonSchemaValidator: acceptAnything,
        ...(endpoint.revision === '2026-07-28'
          ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
          : {}),
      },
    );
    const transport = new StreamableHTTPClientTransport(new URL(endpoint.url), {
      fetch: conformanceFetch(endpoint, auth),
    });
    await client.connect(transport);
    return new McpSession(client, transport);
  }

  /** The session id the server gave (undefined for a stateless deployment). */
  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  /** Every listed tool, following `nextCursor` (at most 20 pages). */
  async listTools(): Promise<ListedTool[]> {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const result = await this.client.request({
        method: 'tools/list',
        ...(cursor === undefined ? {} : { params: { cursor } }),
      });
      tools.push(...(result.tools as unknown as ListedTool[]));
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }

  /** Calls a tool; a JSON-RPC error comes back as data. */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    try {
      const result = await this.client.request({ method: 'tools/call', params: { name, arguments: args } });
      const r = result as { isError?: unknown; structuredContent?: unknown; content?: unknown };
      return {
        kind: 'result',
        isError: r.isError === true,
        structuredContent: r.structuredContent,
        content: Array.isArray(r.content) ? r.content : [],
      };
    } catch (error) {
      return { kind: 'rpc-error', ...errorOf(error) };
    }
  }

  /** Ends the session (DELETE when the server gave an id) and the client. */
  async close(): Promise<void> {
    try {
      if (this.transport.sessionId !== undefined) await this.transport.terminateSession();
    } catch {
      // A server may refuse DELETE (405): the session then simply expires.
    }
    await this.client.close();
  }
}

/** The text of a tool result's `text` content blocks, joined. */
export function textOf(answer: ToolAnswer): string {
  if (answer.kind !== 'result') return answer.message;
  return answer.content
    .map((c) =>
      typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'text'
        ? String((c as { text?: unknown }).text)
        : '',
    )
    .join('\n');
}

/**
 * The data of a result: `structuredContent`, else the JSON of its text (for deployments that
 * answer only text).
 */
export function dataOf(answer: ToolAnswer): unknown {
  if (answer.kind !== 'result') return undefined;
  if (answer.structuredContent !== undefined) return answer.structuredContent;
  try {
    return JSON.parse(textOf(answer)) as unknown;
  } catch {
    return undefined;
  }
}
