/**
 * `cca-kit mcp --stdio` spawned as a child process with the official SDK's stdio client: the key from
 * CCA_API_KEY, nothing but protocol on stdout, a refused key ends with a message on stderr.
 *
 * The command runs from the sources (`main(['mcp', '--stdio'])` through tsx), the same code
 * `bin/cca-kit.js` runs from dist/ after `npm run build`.
 */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { outputOf, ROOT } from './support/processes.ts';
import { CLI_ARGS, seededKey, stdioTransport } from './support/stdio-mcp.ts';
import { scaled } from './support/timeouts.ts';

describe('cca-kit mcp --stdio', () => {
  it(
    'AGENT-MCP-STDIO-PROTOCOL-ONLY: an SDK client lists and calls tools; stdout carries only JSON-RPC',
    async () => {
      const { transport, stderr: stderrOf } = stdioTransport();
      const client = new Client({ name: 'stdio-test', version: '1.0.0' });
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['prepare_reply', 'open_reply']));
      const opened = await client.callTool({ name: 'open_reply', arguments: { requestId: 'not-a-uuid' } });
      expect(opened.isError).toBe(true);
      await client.close();
      expect(stderrOf()).toMatch(/serving on stdio for org_acme/);
    },
    scaled(30_000),
  );

  it(
    'every line on stdout is a JSON-RPC message, even with logs on stderr',
    async () => {
      const child = spawn(process.execPath, [...CLI_ARGS, 'mcp', '--stdio', '--actions', '50'], {
        cwd: ROOT,
        env: { ...process.env, CCA_API_KEY: seededKey('reporting') },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      send({ jsonrpc: '2.0', id: 3, method: 'no/such/method' });
      const deadline = Date.now() + 20_000;
      while (stdout.split('\n').filter((l) => l.trim() !== '').length < 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
      const lines = stdout.split('\n').filter((l) => l.trim() !== '');
      expect(lines.length).toBe(3);
      const messages = lines.map(
        (l) => JSON.parse(l) as { jsonrpc: string; id: number; error?: { code: number } },
      );
      for (const message of messages) expect(message.jsonrpc).toBe('2.0');
      expect(messages.find((m) => m.id === 3)?.error?.code).toBe(-32601);
    },
    scaled(30_000),
  );

  it(
    'a missing or refused CCA_API_KEY ends with exit 2 and a message on stderr, nothing on stdout',
    async () => {
      for (const key of ['', 'cca_not_a_key']) {
        const child = spawn(process.execPath, [...CLI_ARGS, 'mcp', '--stdio', '--actions', '50'], {
          cwd: ROOT,
          env: { ...process.env, CCA_API_KEY: key },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        const { code, stdout, stderr } = await outputOf(child);
        expect(code).toBe(2);
        expect(stdout).toBe('');
        expect(stderr).toMatch(key === '' ? /CCA_API_KEY is not set/ : /was refused \(unknown\)/);
      }
    },
    scaled(30_000),
  );
});
