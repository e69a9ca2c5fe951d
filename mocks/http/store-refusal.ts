/**
 * The answer of the agent's paths when the shared store refuses the catch-up that precedes them (the
 * replica diverged): the same 503 and `x-mock-error-code` the REST side answers, never a 500. On
 * `/mcp` the body is a JSON-RPC error response (an MCP client's HTTP transport reports the status with
 * the body's text, and one that parses the body finds a JSON-RPC error with the code in `data`);
 * elsewhere (the agent's pages) it is the REST error body.
 */
import type { ServerResponse } from 'node:http';
import { isStoreUnavailable } from '../engine/store/types.ts';

/** JSON-RPC's range for server errors; the MCP endpoint's own refusals use the same. */
const SERVER_ERROR = -32000;

/**
 * Writes the 503 for a store refusal and resolves true; false (touching nothing) for any other error,
 * which stays the caller's to handle.
 */
export function answerStoreRefusal(res: ServerResponse, pathname: string, error: unknown): boolean {
  if (!isStoreUnavailable(error)) return false;
  const message = `Service unavailable: ${error.message}`;
  const mcp = pathname === '/mcp' || pathname === '/mcp/';
  const body = JSON.stringify(
    mcp
      ? { jsonrpc: '2.0', id: null, error: { code: SERVER_ERROR, message, data: { code: error.code } } }
      : { success: false, error: message },
  );
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-mock-error-code': error.code,
  });
  res.end(body);
  return true;
}
