/**
 * Which request paths belong to the agent interface, decided without loading it: the server loads the
 * agent side (MCP SDK, zod, QuickJS, the agent contract: ~250 ms of CPU) only when the first request
 * to one of these paths arrives, when started with `agentLoad: 'first-request'` (`cca-kit mock`).
 * Must agree with `isAgentPath` of mocks/agent/http.ts, which serves them (agent-paths.test.ts).
 */

/** The path of a request target (`/mcp?x=1` is `/mcp`), as the agent routes read it. */
export function pathOfTarget(target: string | undefined): string {
  return (target ?? '/').split('?', 1)[0] ?? '/';
}

export function isAgentPath(pathname: string): boolean {
  return (
    pathname === '/mcp' ||
    pathname === '/mcp/' ||
    pathname === '/llms.txt' ||
    pathname === '/llms-full.txt' ||
    pathname.startsWith('/agent/')
  );
}
