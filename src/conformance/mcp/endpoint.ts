import type { ConformanceClient } from '../../client/client.ts';

/**
 * Where the agent interface is checked: the MCP endpoint (Streamable HTTP) and a client on its
 * origin whose request log belongs to one law (the same budget, rate and recording as REST).
 */
export interface McpEndpoint {
  /** The endpoint, e.g. `http://127.0.0.1:4010/mcp`. */
  readonly url: string;
  readonly client: ConformanceClient;
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
