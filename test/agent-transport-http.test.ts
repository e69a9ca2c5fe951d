/**
 * The agent interface over Streamable HTTP at /mcp on the REST mock's port: both protocol eras with
 * the official SDK client, auth before any MCP message, DNS-rebinding protection, and bad input at the
 * HTTP and JSON-RPC level (a clear error, never a 5xx).
 */

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import type { CliIo } from '../src/cli/io.ts';
import { main } from '../src/cli/main.ts';
import { answerData } from './agent-answer.ts';
import { scaled } from './support/timeouts.ts';

let mock: MockServer;
let readWrite: string;
let reporting: string;

function keyOf(profile: string): string {
  const key =
    mock.engine.admin.listKeys('org_acme').find((k) => k.profile === profile && k.status === 'active')?.key ??
    undefined;
  if (key === undefined) throw new Error(`no active ${profile} key in the seed data`);
  return key;
}

async function connect(key: string, modern: boolean, header: 'bearer' | 'x-api-key' = 'bearer') {
  const client = new Client(
    { name: 'agent-transport-test', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const headers = header === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
  const transport = new StreamableHTTPClientTransport(new URL(`${mock.url}/mcp`), {
    requestInit: { headers },
  });
  await client.connect(transport);
  return { client, transport };
}

function post(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${mock.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${readWrite}`,
      ...headers,
    },
    body,
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

beforeAll(async () => {
  mock = await startMockServer({ seed: 42 });
  readWrite = keyOf('read_write');
  reporting = keyOf('reporting');
});

afterAll(async () => {
  await mock.close();
});

describe('/mcp on the mock port', () => {
  it('a 2025-era SDK client opens a session (Mcp-Session-Id), pings and lists tools', async () => {
    const { client, transport } = await connect(readWrite, false);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{8}\.[0-9a-f-]{36}\.[A-Za-z0-9_-]{22}$/);
    expect(client.getServerVersion()?.name).toBe('cca-kit-agent');
    await client.ping();
    const { tools } = await client.listTools();
    expect(Array.isArray(tools)).toBe(true);
    expect(mock.agent?.agent.mcp.sessionCount()).toBeGreaterThanOrEqual(1);
    await transport.terminateSession();
    await client.close();
  });

  it('a client pinned to the stateless 2026-07-28 protocol lists tools (no session)', async () => {
    const { client, transport } = await connect(reporting, true, 'x-api-key');
    expect(transport.sessionId).toBeUndefined();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).not.toContain('prepare_reply');
    await client.close();
  });

  it('AGENT-MCP-AUTH-401-BEFORE-MCP: missing, unknown, revoked and non-Bearer credentials get 401 with WWW-Authenticate', async () => {
    const revoked = mock.engine.admin.listKeys('org_acme').find((k) => k.status === 'revoked')?.key ?? '';
    const expired = mock.engine.admin.listKeys('org_acme').find((k) => k.status === 'expired')?.key ?? '';
    for (const headers of [
      { authorization: '' },
      { authorization: 'Bearer not-a-key' },
      { authorization: `Bearer ${revoked}` },
      { authorization: `Bearer ${expired}` },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    ]) {
      const response = await post(INITIALIZE, headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message.length).toBeGreaterThan(5);
    }
    const viaHeader = await post(INITIALIZE, { authorization: '', 'x-api-key': readWrite });
    expect(viaHeader.status).toBe(200);
  });

  it('AGENT-MCP-REVOKED-KEY-REFUSED-AT-ONCE: a session stops working when its key is revoked', async () => {
    const created = mock.engine.admin.createKey({ organizationId: 'org_acme', profile: 'read_write' });
    const { client } = await connect(created.key, false);
    await client.listTools();
    mock.engine.admin.revokeKey(created.key);
    await expect(client.listTools()).rejects.toThrow();
    await client.close().catch(() => undefined);
  });

  it('AGENT-MCP-DNS-REBINDING-REFUSED: a foreign Host or Origin is refused with 403; loopback and own host pass', async () => {
    const own = new URL(mock.url).host;
    const foreignHost = await post(INITIALIZE, {
      host: 'evil.example.com',
      origin: 'http://evil.example.com',
    });
    expect(foreignHost.status).toBe(403);
    const foreignOrigin = await post(INITIALIZE, { origin: 'https://attacker.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(((await foreignOrigin.json()) as { error: { message: string } }).error.message).toMatch(/Origin/);
    for (const origin of [`http://${own}`, 'http://localhost:3000']) {
      const ok = await post(INITIALIZE, { origin });
      expect(ok.status, origin).toBe(200);
    }
  });

  it('a session is bound to the key that opened it', async () => {
    const opened = await post(INITIALIZE);
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    expect(sessionId).not.toBe('');
    const other = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
      authorization: `Bearer ${reporting}`,
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(other.status).toBe(403);
    const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), {
      'mcp-session-id': 'no-such-session',
    });
    expect(unknown.status).toBe(404);
  });

  it(
    'AGENT-MCP-READ-KEY-WRITE-FORBIDDEN: over HTTP, execute reads with a reporting key and a write throws forbidden naming scope write',
    async () => {
      const { client } = await connect(reporting, false);
      const result = await client.callTool({
        name: 'execute',
        arguments: {
          script: `
          const page = await call('query.search.actions', { limit: 2 });
          let refused = null;
          try {
            await call('config.savedSearch.create', { name: 'mine', query: {} });
          } catch (error) {
            refused = String(error.message);
          }
          return { ids: page.items.map((a) => a.actionId), refused };`,
        },
      });
      expect(result.isError ?? false).toBe(false);
      const value = (answerData(result) as { result: { ids: unknown[]; refused: string | null } }).result;
      expect(value.ids.every((id) => typeof id === 'string')).toBe(true);
      expect(value.refused).toMatch(/forbidden|FORBIDDEN/i);
      expect(value.refused).toMatch(/write/);
      await client.close();
    },
    scaled(30_000),
  );

  it(
    'a stateless 2026-07-28 client calls tools: structured success and structured isError failure',
    async () => {
      const { client } = await connect(readWrite, true);
      const ok = await client.callTool({ name: 'execute', arguments: { script: 'return spec().length;' } });
      expect(ok.isError ?? false).toBe(false);
      expect((answerData(ok) as { result: number }).result).toBeGreaterThan(3);
      const bad = await client.callTool({ name: 'review_reply', arguments: { requestId: 7 } });
      expect(bad.isError).toBe(true);
      expect(answerData(bad)).toMatchObject({ kind: 'invalid_input', field: '/requestId' });
      await client.close();
    },
    scaled(30_000),
  );

  it(
    'cca-kit mock serves /mcp on its port and prints the MCP URL and llms.txt',
    async () => {
      const stop = new AbortController();
      const out: string[] = [];
      const io: CliIo = { stdout: (t) => out.push(t), stderr: () => undefined, signal: stop.signal };
      const running = main(['mock', '--port', '0', '--actions', '50', '--execute-time-ms', '1000'], io);
      const deadline = Date.now() + 20_000;
      while (!out.join('').includes('MCP (agents)') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const printed = out.join('');
      const mcpUrl = /MCP \(agents\) : (\S+)/.exec(printed)?.[1] ?? '';
      expect(mcpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(printed).toMatch(/Agent docs {3}: http:\/\/127\.0\.0\.1:\d+\/llms\.txt/);
      const refused = await fetch(mcpUrl, {
        method: 'POST',
        body: INITIALIZE,
        headers: { 'content-type': 'application/json' },
      });
      expect(refused.status).toBe(401);
      stop.abort();
      expect(await running).toBe(0);
      const badFlag = main(['mock', '--port', '0', '--execute-time-ms', '1'], {
        ...io,
        signal: new AbortController().signal,
      });
      expect(await badFlag).toBe(2);
    },
    scaled(30_000),
  );

  it("a session's GET stream (server-to-client SSE) is served through the node adapter and ends when the client goes", async () => {
    const opened = await post(INITIALIZE);
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    const controller = new AbortController();
    const stream = await fetch(`${mock.url}/mcp`, {
      headers: {
        accept: 'text/event-stream',
        authorization: `Bearer ${readWrite}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    controller.abort();
    await stream.body?.cancel().catch(() => undefined);
    // The session still answers after its stream went away.
    const after = await post(JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'ping' }), {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(after.status).toBe(200);
  });

  it('sessions are bounded: opening one past maxSessions closes the least recently used (then 404)', async () => {
    const small = await startMockServer({ seed: 42, actions: 50, agent: { limits: { maxSessions: 2 } } });
    try {
      const open = async () => {
        const response = await fetch(`${small.url}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${readWrite}`,
          },
          body: INITIALIZE,
        });
        return response.headers.get('mcp-session-id') ?? '';
      };
      const first = await open();
      await open();
      await open();
      expect(small.agent?.agent.mcp.sessionCount()).toBe(2);
      const stale = await fetch(`${small.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${readWrite}`,
          'mcp-session-id': first,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(stale.status).toBe(404);
    } finally {
      await small.close();
    }
  });

  it('malformed JSON, oversized bodies, unknown methods and unknown tools get a clear error, never a 5xx', async () => {
    const malformed = await post('{"jsonrpc":');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);

    const huge = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'a'.repeat(1_100_000) } }),
    );
    expect(huge.status).toBe(413);

    const opened = await post(INITIALIZE);
    const session = {
      'mcp-session-id': opened.headers.get('mcp-session-id') ?? '',
      'mcp-protocol-version': '2025-11-25',
    };
    const unknownMethod = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'no/such/method' }),
      session,
    );
    expect(unknownMethod.status).toBeLessThan(500);
    const unknownBody = (await unknownMethod.json()) as { error: { code: number; message: string } };
    expect(unknownBody.error.code).toBe(-32601);

    const unknownTool = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/call',
        params: { name: 'drop_tables', arguments: {} },
      }),
      session,
    );
    expect(unknownTool.status).toBe(200);
    const toolBody = (await unknownTool.json()) as { error: { code: number; message: string } };
    expect(toolBody.error.code).toBe(-32602);
    expect(toolBody.error.message).toMatch(/Unknown tool "drop_tables"/);

    const hugeInSession = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping', params: { x: 'a'.repeat(1_100_000) } }),
      session,
    );
    expect(hugeInSession.status).toBe(413);

    const notJsonRpc = await post(JSON.stringify({ hello: 'world' }), session);
    expect(notJsonRpc.status).toBeGreaterThanOrEqual(400);
    expect(notJsonRpc.status).toBeLessThan(500);
    expect(mock.engine.unexpectedErrors).toEqual([]);
  });
});
