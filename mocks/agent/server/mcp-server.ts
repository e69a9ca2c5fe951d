/**
 * One MCP server instance for one authenticated identity, on the official SDK (`McpServer`). The
 * tool list and calls are answered by our own handlers on the SDK's underlying `Server` (the SDK's
 * documented route for custom request handlers), because the schemas are contract data validated by
 * our ajv layer, never restated in zod:
 *
 * - `tools/list` lists the identity's tools with their contract input and output schemas;
 * - `tools/call` validates the arguments (an `invalid_input` failure naming the field), runs the
 *   handler, and answers `structuredContent` plus a text summary (text-summary.ts; the whole JSON with
 *   `text: 'full'`); a failure is an `isError` result whose text is the `AgentFailure` JSON, once, with
 *   no structuredContent (the advertised output schema describes a success). An unknown tool is a
 *   JSON-RPC error (-32602) naming the tools this key may use.
 */
import {
  type CallToolResult,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type Tool,
} from '@modelcontextprotocol/server';
import type { Engine } from '../../engine/engine.ts';
import type { AgentContext, AgentFailure, AgentIdentity } from '../types.ts';
import type { KeyRefusal } from './identity.ts';
import { resultText, type TextMode } from './text-summary.ts';
import type { ServedTool, ToolSet } from './tool-set.ts';

export const SERVER_NAME = 'cca-kit-agent';
export const SERVER_VERSION = '0.1.0';

const INSTRUCTIONS_BODY = [
  'Customer-Conversation Analytics Service, agent interface (cca-kit mock).',
  'Read the playbooks first: list_skills, then read_skill.',
  'execute runs a JavaScript body: `await call(operationId, input)` returns an operation output and throws an Error on failure;',
  '`spec()` lists the operations (id, summary, effect) and `spec(id)` gives its schemas. Page with `cursor`/`limit`;',
  'save `nextCursor` to resume long exports in a later execute call.',
  'Replies: prepare_reply, then review_reply answers approval_required with a link where a human confirms;',
  'this is not a success. Read the state with open_reply; never resend after an unknown delivery state.',
  'A tool failure is an isError result whose text is one JSON object {kind, code, message, ...}: kind is',
  'invalid_input (fix `field`, a JSON pointer into the input), forbidden (`missingScope`), approval_required',
  '(`approvalUrl`: a human confirms there), unknown_delivery_state (read it with open_reply), not_found, conflict,',
  'limit_exceeded (`limit`, `value`), script_error (`line`) or busy (`retryAfterMs`); execute failures add `execution`',
  '(its logs and calls). A result cut at a size limit is a success whose truncated.result reports the limit.',
].join(' ');

/**
 * The instructions end with where the documentation is, as an absolute URL: a model over stdio has no
 * origin to resolve a relative path against, and never sees the stderr line that names the port.
 */
export function instructionsFor(docsUrl: string | null): string {
  const docs =
    docsUrl === null
      ? 'Documentation: not reachable from this connection (no HTTP port); tools/list and spec() describe everything.'
      : `Documentation: ${docsUrl} (an llms.txt index of Markdown pages; a plain HTTP GET, no key).`;
  return `${INSTRUCTIONS_BODY} ${docs}`;
}

/** What a server instance needs besides its identity. */
export interface McpServerSetup {
  readonly engine: Engine;
  readonly tools: ToolSet;
  /** The origin links are built on (confirmation pages); null when there is none (in process, stdio). */
  readonly publicOrigin: string | null;
  /** The absolute URL of the docs index named in the instructions; default: `<publicOrigin>/llms.txt`. */
  readonly docsUrl?: string | null;
  /**
   * Checked before each tool call, so a key revoked or expired during a session fails at once (spec
   * 5.6); undefined means the key is still good.
   */
  readonly recheck?: () => KeyRefusal | undefined;
  /** The text block of a success: a summary (default) or the whole JSON (text-summary.ts). */
  readonly text?: TextMode;
}

type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

function failureResult(failure: AgentFailure): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(failure) }], isError: true };
}

function successResult(tool: string, value: unknown, mode: TextMode): ToolResult {
  const text = resultText(tool, value, mode);
  const structured =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { result: value };
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function toolDefinition(tool: ServedTool): Tool {
  const { name, title, description, annotations } = tool.declaration;
  return {
    name,
    title,
    description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: tool.advertisedOutputSchema as Tool['outputSchema'],
    annotations,
  };
}

async function callTool(
  setup: McpServerSetup,
  identity: AgentIdentity,
  tool: ServedTool,
  rawArgs: unknown,
  signal: AbortSignal,
): Promise<ToolResult> {
  const args = rawArgs ?? {};
  const checked = tool.input.check(args);
  if (!checked.ok) {
    const first = checked.issues[0];
    return failureResult({
      kind: 'invalid_input',
      code: 'INVALID_INPUT',
      field: first?.pointer ?? '',
      message: `Invalid arguments for ${tool.declaration.name}: ${checked.issues.map((i) => i.message.replace(/^body field /, 'argument ').replace(/^request body/, 'arguments')).join('; ')}`,
    });
  }
  const context: AgentContext = { engine: setup.engine, identity, publicOrigin: setup.publicOrigin, signal };
  let outcome: Awaited<ReturnType<typeof tool.handler.handle>>;
  try {
    outcome = await tool.handler.handle(context, args as Record<string, unknown>);
  } catch (error) {
    // A handler must answer failures as data; a throw is a bug in the mock, reported as such.
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Tool ${tool.declaration.name} failed inside the mock: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!outcome.ok) return failureResult(outcome.failure);
  const result = successResult(tool.declaration.name, outcome.value, setup.text ?? 'summary');
  const valid = tool.output.check(result.structuredContent);
  if (!valid.ok)
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Tool ${tool.declaration.name} answered outside its outputSchema (a mock bug): ${valid.issues.map((i) => i.message).join('; ')}`,
    );
  return result;
}

/**
 * A fresh SDK server for one identity (one HTTP exchange, one session, one stdio connection, one
 * in-process pair).
 *
 * @example
 * const server = createMcpServerFor(identity, { engine, tools, publicOrigin: null });
 * await server.connect(transport);
 */
export function createMcpServerFor(identity: AgentIdentity, setup: McpServerSetup): McpServer {
  const mcp = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: 'cca-kit: Customer-Conversation Analytics (mock)' },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: instructionsFor(
        setup.docsUrl !== undefined
          ? setup.docsUrl
          : setup.publicOrigin === null
            ? null
            : `${setup.publicOrigin}/llms.txt`,
      ),
    },
  );
  const tools = setup.tools.forIdentity(identity);
  const byName = new Map(tools.map((tool) => [tool.declaration.name, tool]));

  mcp.server.setRequestHandler('tools/list', () => ({ tools: tools.map(toolDefinition) }));
  mcp.server.setRequestHandler('tools/call', async (request, ctx) => {
    const refused = setup.recheck?.();
    if (refused !== undefined)
      throw new ProtocolError(-32001, `The API key is ${refused === 'missing' ? 'missing' : refused}`, {
        reason: refused,
      });
    const name = request.params.name;
    const tool = byName.get(name);
    if (tool === undefined) {
      const names = tools.map((t) => t.declaration.name);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${name}": this key (profile ${identity.profile}) may use ${names.length === 0 ? 'no tools' : names.join(', ')}`,
      );
    }
    const result = await callTool(setup, identity, tool, request.params.arguments, ctx.mcpReq.signal);
    return mcp.server.projectCallToolResult(result, tool.advertisedOutputSchema);
  });
  return mcp;
}
