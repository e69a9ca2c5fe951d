import type { ConformanceClient } from '../../../client/client.ts';

/**
 * Where the agent interface is checked: the MCP endpoint (Streamable HTTP) and a client on its
 * origin whose request log belongs to one law (the same budget, rate and recording as REST).
 */
/**
 * The MCP protocol revisions a deployment is judged over: 2025-11-25 through an `initialize`d session
 * (`Mcp-Session-Id`), 2026-07-28 stateless (a per-request `_meta` envelope, no session).
 */
export const MCP_REVISIONS = ['2025-11-25', '2026-07-28'] as const;
export type McpRevision = (typeof MCP_REVISIONS)[number];

export interface McpEndpoint {
  /** The endpoint, e.g. `http://127.0.0.1:4010/mcp`. */
  readonly url: string;
  readonly client: ConformanceClient;
  /** The revision the laws' sessions speak; default 2025-11-25. */
  readonly revision?: McpRevision;
}

/** The path and query of the endpoint, as the client sends it. */
export function endpointPath(endpoint: McpEndpoint): string {
  const url = new URL(endpoint.url);
  return url.pathname + url.search;
}

/** The origin of the endpoint: where the documentation index and reply pages live by default. */
export function endpointOrigin(endpoint: McpEndpoint): string {
  return new URL(endpoint.url).origin;
}
