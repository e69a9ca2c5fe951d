/**
 * Two transport gaps closed: a session's `GET /mcp` stream sends its headers at once and keep-alive
 * comments after (the SDK's stream has no first chunk, so without them a client waits for headers
 * forever), and `cca-kit mcp --stdio` answers a line that is not JSON with -32700 (and one that is JSON
 * but no JSON-RPC message with -32600), then goes on serving.
 */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLine } from '../mocks/agent/server/stdio-wire.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import type { CliIo } from '../src/cli/io.ts';
import { main } from '../src/cli/main.ts';
import { ROOT } from './support/processes.ts';
import { CLI_ARGS, seededKey, stdioTransport } from './support/stdio-mcp.ts';
import { scaled } from './support/timeouts.ts';

let mock: MockServer;
let key: string;

beforeAll(async () => {
  // A short keep-alive interval so the second comment shows up within the test.
  mock = await startMockServer({ seed: 42, actions: 50, agent: { limits: { keepAliveMs: 200 } } });
  key = seededKey('read_write');
});
afterAll(async () => {
  await mock.close();
});

async function openSession(): Promise<string> {
  const response = await fetch(`${mock.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  const id = response.headers.get('mcp-session-id');
  await response.text();
  if (id === null) throw new Error(`no session id (status ${response.status})`);
  await fetch(`${mock.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  }).then((r) => r.text());
  return id;
}

describe('GET /mcp on a session', () => {
  it(
    'a session stream: the headers arrive without any server event, then keep-alive comments',
    async () => {
      const session = await openSession();
      const controller = new AbortController();
      // The guard fails a hang (headers never sent); it asserts no speed.
      const hang = setTimeout(() => controller.abort(), 20_000);
      const response = await fetch(`${mock.url}/mcp`, {
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${key}`,
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
        },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes(': keep-alive\n\n')) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      clearTimeout(hang);
      expect(text.startsWith(': stream open\n\n')).toBe(true);
      expect(text).toContain(': keep-alive\n\n');
      // Only comments: no event was invented.
      expect(text.split('\n').filter((l) => l !== '' && !l.startsWith(':'))).toEqual([]);
      await reader.cancel();
    },
    scaled(30_000),
  );
});

describe('stdio: malformed lines', () => {
  it('judgeLine: not JSON is -32700, JSON but no JSON-RPC message is -32600, a batch is -32600', () => {
    expect(judgeLine('{"jsonrpc":"2.0",')).toMatchObject({ ok: false, code: -32700 });
    expect(judgeLine('hello')).toMatchObject({ ok: false, code: -32700 });
    expect(judgeLine('{"id":1,"method":"tools/list"}')).toMatchObject({ ok: false, code: -32600 });
    expect(judgeLine('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({
      ok: false,
      code: -32600,
    });
    expect(judgeLine('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({ ok: true });
    expect(judgeLine('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toEqual({ ok: true });
  });

  it(
    'a malformed line is answered -32700 (id null) and the server goes on',
    async () => {
      const child = spawn(process.execPath, [...CLI_ARGS, 'mcp', '--stdio', '--actions', '50'], {
        cwd: ROOT,
        env: { ...process.env, CCA_API_KEY: seededKey('reporting') },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const lines = () => stdout.split('\n').filter((l) => l.trim() !== '');
      const until = async (count: number) => {
        const deadline = Date.now() + 25_000;
        while (lines().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      };
      child.stdin.write('{"jsonrpc":"2.0","id":7,"method":\n');
      await until(1);
      child.stdin.write('{"id":8,"method":"tools/list"}\n');
      await until(2);
      child.stdin.write(
        `${JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        })}\n`,
      );
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      child.stdin.write('not json at all\n');
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
      await until(5);
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
      const messages = lines().map(
        (l) =>
          JSON.parse(l) as {
            jsonrpc: string;
            id: unknown;
            error?: { code: number; message: string };
            result?: unknown;
          },
      );
      expect(messages).toHaveLength(5);
      expect(messages[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      expect(messages[1]).toMatchObject({ jsonrpc: '2.0', id: 8, error: { code: -32600 } });
      expect(messages.filter((m) => m.error?.code === -32700)).toHaveLength(2);
      const listed = messages.find((m) => m.id === 2) as { result: { tools: unknown[] } };
      expect(listed.result.tools.length).toBeGreaterThan(0);
      expect(messages.find((m) => m.id === 1)?.result).toBeDefined();
      expect(stderr).toMatch(/answered a malformed line with -32700/);
    },
    scaled(40_000),
  );
});

describe('--docs-url', () => {
  it(
    'the instructions name the URL a proxying host gives; a URL that is not http(s) is a usage error',
    async () => {
      const { transport } = stdioTransport(['--docs-url', 'https://docs.example.test/cca/llms.txt']);
      const client = new Client({ name: 'docs-url', version: '1.0.0' });
      await client.connect(transport);
      expect(client.getInstructions()).toContain('Documentation: https://docs.example.test/cca/llms.txt');
      await client.close();
      const errors: string[] = [];
      const io: CliIo = {
        stdout: () => undefined,
        stderr: (text) => errors.push(text),
        signal: new AbortController().signal,
      };
      expect(await main(['mcp', '--stdio', '--docs-url', 'file:///etc/passwd'], io)).toBe(2);
      expect(errors.join('')).toMatch(/--docs-url must be an http or https URL \(got file:\)/);
    },
    scaled(30_000),
  );
});
