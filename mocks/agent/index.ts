/**
 * `cca-kit/agent`: the agent interface of the mock (spec 4.18), MCP tools over the same engine as the
 * REST mock. Serve it over HTTP with `startMockServer` (`/mcp` on the REST port), over stdio with
 * `cca-kit mcp --stdio`, or in process with `createAgentServer`.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/client';
 * import { createEngine } from 'cca-kit/mock';
 * import { createAgentServer } from 'cca-kit/agent';
 *
 * const engine = createEngine({ seed: 42 });
 * const key = engine.admin.listKeys().find((k) => k.profile === 'read_write')!.key;
 * const agent = createAgentServer(engine);
 * const client = new Client({ name: 'my-agent-test', version: '1.0.0' });
 * await client.connect(await agent.connectInProcess(key));
 * const { tools } = await client.listTools();
 * ```
 */
export {
  type AgentContract,
  type AgentKeyProfile,
  type AgentToolDeclaration,
  agentContract,
  loadAgentContract,
} from '../../src/contract/agent.ts';
export { createDocsHost, type DocsHost, LLMS_FULL_TXT_PATH, LLMS_TXT_PATH } from './docs-host/index.ts';
export { type AgentHttpRoutes, createAgentHttpRoutes, isAgentPath } from './http.ts';
export {
  AgentAuthError,
  type AgentServer,
  type AgentServerOptions,
  createAgentServer,
} from './server/agent-server.ts';
export { DEFAULT_MCP_LIMITS, type McpEndpoint, type McpEndpointLimits } from './server/http-endpoint.ts';
export { authenticateRequest, type KeyRefusal, presentedKey } from './server/identity.ts';
export { SERVER_NAME, SERVER_VERSION } from './server/mcp-server.ts';
export type { OriginGuardOptions } from './server/origin-guard.ts';
export { createToolSet, type ServedTool, type ToolSet } from './server/tool-set.ts';
export type * from './types.ts';
export { fail, succeed } from './types.ts';
