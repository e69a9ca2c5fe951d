/**
 * Transport and auth of the agent interface, with raw JSON-RPC over HTTP (what a client library
 * would never send): initialize and its session (over the stateless revision, `server/discover`
 * and a session-less tools/list), JSON-RPC errors, keys refused, organization fixed.
 */
import type { Auth } from '../../src/client/types.ts';
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import {
  answerTo,
  initializeRequest,
  isStateless,
  openRawSession,
  postRaw,
  type RawAnswer,
  rpcRequest,
  STATELESS_REVISION,
} from '../../src/conformance/kit/mcp/raw.ts';
import { agentExamples, brief, isObj } from './support.ts';

const GROUP = 'agent';

function status(answer: RawAnswer): string {
  return answer.status === 0 ? 'no answer' : `HTTP ${answer.status}`;
}

const initialize: Law = {
  id: 'agent.transport.initialize',
  group: GROUP,
  title: 'initialize answers protocolVersion, serverInfo and tools; its Mcp-Session-Id serves tools/list',
  ruleIds: ['AGENT-MCP-INITIALIZE-SESSION'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      const rule = 'AGENT-MCP-INITIALIZE-SESSION';
      const { answer, sessionId } = await openRawSession(ctx.mcp, 'read');
      if (answer.status !== 200)
        violate(
          rule,
          'initialize-status',
          `${isStateless(ctx.mcp) ? 'server/discover' : 'initialize'} answered ${status(answer)}: ${answer.raw.slice(0, 200)}`,
        );
      const init = answer.messages.find((m) => isObj(m) && 'result' in m);
      const result = isObj(init) ? init['result'] : undefined;
      const first = isStateless(ctx.mcp) ? 'server/discover' : 'initialize';
      if (!isObj(result))
        violate(rule, 'initialize-result', `${first} has no JSON-RPC result: ${brief(answer.messages)}`);
      if (isStateless(ctx.mcp)) {
        // The stateless revision's discovery: the revisions served, and the server named in `_meta`.
        const versions = result['supportedVersions'];
        if (!Array.isArray(versions) || !versions.includes(STATELESS_REVISION))
          violate(
            rule,
            'protocol-version',
            `server/discover does not list ${STATELESS_REVISION} in supportedVersions: ${brief(versions)}`,
          );
        const meta = result['_meta'];
        if (!isObj(meta) || !isObj(meta['io.modelcontextprotocol/serverInfo']))
          violate(
            rule,
            'server-info',
            'server/discover result has no _meta io.modelcontextprotocol/serverInfo',
          );
      } else {
        if (typeof result['protocolVersion'] !== 'string')
          violate(rule, 'protocol-version', 'initialize result has no protocolVersion string');
        if (!isObj(result['serverInfo'])) violate(rule, 'server-info', 'initialize result has no serverInfo');
      }
      const caps = result['capabilities'];
      if (!isObj(caps) || !isObj(caps['tools']))
        violate(rule, 'tools-capability', `${first} result lacks capabilities.tools: ${brief(caps)}`);
      const list = rpcRequest('tools/list');
      const listed = await postRaw(ctx.mcp, 'read', list, { sessionId });
      const reply = answerTo(listed, list.id);
      if (listed.status !== 200 || reply === undefined || !isObj(reply['result']))
        violate(
          rule,
          'session-not-served',
          `tools/list with ${sessionId === undefined ? 'no session (stateless)' : 'the session id'} answered ${status(listed)}: ${listed.raw.slice(0, 200)}`,
        );
      return 3;
    }),
};

const jsonRpcErrors: Law = {
  id: 'agent.transport.jsonrpc-errors',
  group: GROUP,
  title: 'unknown method -> JSON-RPC -32601; malformed JSON-RPC -> 4xx or a JSON-RPC error, never 5xx',
  ruleIds: ['AGENT-MCP-JSONRPC-ERRORS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      const rule = 'AGENT-MCP-JSONRPC-ERRORS';
      const { sessionId } = await openRawSession(ctx.mcp, 'read');
      const unknown = rpcRequest('cca/no-such-method', {});
      const answer = await postRaw(ctx.mcp, 'read', unknown, { sessionId });
      const reply = answerTo(answer, unknown.id);
      const error = isObj(reply) ? reply['error'] : undefined;
      if (!isObj(error) || error['code'] !== -32601)
        violate(
          rule,
          'unknown-method',
          `unknown method answered ${status(answer)} ${answer.raw.slice(0, 200)}`,
        );
      const malformed: readonly [string, string][] = [
        ['not JSON', '{"jsonrpc":"2.0","id":1,"method":'],
        ['no jsonrpc member', '{"id":7,"method":"tools/list"}'],
        ['method not a string', '{"jsonrpc":"2.0","id":8,"method":42}'],
      ];
      for (const [what, body] of malformed) {
        const bad = await postRaw(ctx.mcp, 'read', body, { sessionId });
        const hasError = bad.messages.some((m) => isObj(m) && isObj(m['error']));
        const success = bad.messages.some((m) => isObj(m) && 'result' in m);
        if (bad.status === 0 || bad.status >= 500 || success || (bad.status < 400 && !hasError))
          violate(rule, 'malformed', `${what} answered ${status(bad)}: ${bad.raw.slice(0, 200)}`);
      }
      return 1 + malformed.length;
    }),
};

/** A request the agent interface must refuse before reading any organization data. */
async function refused(ctx: Parameters<Law['run']>[0], auth: Auth, label: string): Promise<void> {
  const rule = 'AGENT-MCP-AUTH-REQUIRED';
  const init = await postRaw(ctx.mcp, auth, initializeRequest(ctx.mcp));
  if (init.status === 401 || init.status === 403) return;
  const call = rpcRequest('tools/call', { name: 'list_skills', arguments: {} });
  const answer = await postRaw(ctx.mcp, auth, call, { sessionId: init.sessionId });
  const reply = answerTo(answer, call.id);
  const result = isObj(reply) ? reply['result'] : undefined;
  if (answer.status < 400 && isObj(result) && result['isError'] !== true)
    violate(rule, `served-${label}`, `a request with ${label} was served: ${answer.raw.slice(0, 200)}`);
}

const authRequired: Law = {
  id: 'agent.auth.refused-keys',
  group: GROUP,
  title: 'missing, unknown (and expired, revoked when given) keys are refused',
  ruleIds: ['AGENT-MCP-AUTH-REQUIRED'],
  needs: { keys: [] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      let checks = 0;
      await refused(ctx, 'none', 'no key');
      await refused(ctx, { literal: 'cca-unknown-key-000000000000' }, 'an unknown key');
      checks += 2;
      for (const role of ['expired', 'revoked'] as const) {
        if (!ctx.client.hasKey(role)) continue;
        await refused(ctx, role, `the ${role} key`);
        checks += 1;
      }
      return checks;
    }),
};

export const transportLaws: readonly Law[] = [initialize, jsonRpcErrors, authRequired];
