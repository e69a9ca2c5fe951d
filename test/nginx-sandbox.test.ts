/**
 * The team-sandbox nginx block of docs/mock.md, run as written with Debian's nginx (`apt-get install -y
 * nginx`) on loopback ports, started and stopped here. Only the two addresses are put in (a free
 * loopback port for `listen 8080`, the mock's for `127.0.0.1:4010`). A remote client is simulated on
 * loopback with nginx's realip module in the wrapper around the block: `X-Test-Client` becomes
 * nginx's `$remote_addr`, exactly what a client from that address would give.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { scaled } from './support/timeouts.ts';

const NGINX = '/usr/sbin/nginx';
const TOKEN = 'sandbox-admin-token-for-tests';
const REMOTE = '203.0.113.9';

async function docsBlock(): Promise<string> {
  const doc = await readFile(new URL('../docs/mock.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Behind a balancer'));
  const block = /```nginx\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('docs/mock.md has no nginx block under "Behind a balancer"');
  return block;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface Nginx {
  readonly url: string;
  stop(): Promise<void>;
}

async function startNginx(serverBlock: string, upstream: string): Promise<Nginx> {
  if (!existsSync(NGINX))
    throw new Error(
      `${NGINX} is missing: install Debian's nginx (apt-get install -y nginx) to run this test`,
    );
  const port = await freePort();
  const block = serverBlock
    .replace('listen 8080;', `listen 127.0.0.1:${port};`)
    .replace('127.0.0.1:4010', upstream);
  expect(block).toContain(`listen 127.0.0.1:${port};`);
  expect(block).toContain(`http://${upstream}`);
  const dir = await mkdtemp(join(tmpdir(), 'cca-nginx-'));
  const conf = `
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # The test's stand-in for a client on another machine (see the module comment).
  set_real_ip_from 127.0.0.1;
  real_ip_header X-Test-Client;
${block}
}
`;
  await writeFile(join(dir, 'nginx.conf'), conf);
  const child: ChildProcess = spawn(
    NGINX,
    [
      '-p',
      dir,
      '-c',
      join(dir, 'nginx.conf'),
      '-e',
      join(dir, 'error.log'),
      '-g',
      'daemon off; master_process off;',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not start:\n${output}\n${conf}`);
    }
    try {
      await fetch(`${url}/docs/json`);
      return { url, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the docs team-sandbox nginx block in front of the mock', () => {
  let mock: MockServer;
  let nginx: Nginx;
  let upstream: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, seed: 42, actions: 20, adminToken: TOKEN });
    upstream = new URL(mock.url).host;
    nginx = await startNginx(await docsBlock(), upstream);
  }, scaled(60_000));
  afterAll(async () => {
    await nginx?.stop();
    await mock?.close();
  });

  it('refuses /__mock/ and the dashboard to a remote client, also with forged forwarding headers; the token opens them', async () => {
    const remote = { 'x-test-client': REMOTE, host: 'sandbox.example:8080' };
    const forged = [
      {},
      { 'x-forwarded-for': '127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
      { forwarded: 'for=127.0.0.1;host=localhost' },
      { host: 'localhost:8080', 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' },
    ];
    for (const extra of forged) {
      const headers = { ...remote, ...extra };
      for (const [method, path] of [
        ['GET', '/__mock/keys'],
        ['GET', '/__mock/journal'],
        ['POST', '/__mock/reset'],
        ['POST', '/__mock/keys/x/revoke'],
      ] as const) {
        const answer = await send(nginx.url, method, path, headers);
        expect(answer.status, `${method} ${path} ${JSON.stringify(extra)}`).toBe(403);
        // The refusal names what gave the client away: its address, or the public name it used.
        expect(answer.body).toMatch(/203\.0\.113\.9|sandbox\.example/);
      }
      const page = await send(nginx.url, 'GET', '/__mock/', { ...headers, accept: 'text/html' });
      expect(page.status, JSON.stringify(extra)).toBe(403);
    }
    const withToken = { ...remote, 'x-mock-admin-token': TOKEN };
    expect((await send(nginx.url, 'GET', '/__mock/keys', withToken)).status).toBe(200);
    expect((await send(nginx.url, 'GET', '/__mock/', { ...withToken, accept: 'text/html' })).status).toBe(
      200,
    );
  });

  it('serves the API to a remote client with a key, and admin to a client on the sandbox host itself', async () => {
    const key = mock.engine.admin
      .listKeys('org_acme')
      .find((k) => k.profile === 'reporting' && k.status === 'active');
    expect(key).toBeDefined();
    const list = await send(nginx.url, 'GET', '/v0/action/list?pageSize=2', {
      'x-test-client': REMOTE,
      host: 'sandbox.example:8080',
      'x-api-key': key?.key ?? '',
    });
    expect(list.status).toBe(200);
    expect(Array.isArray((JSON.parse(list.body) as { data?: unknown }).data)).toBe(true);
    const local = await send(nginx.url, 'GET', '/__mock/keys', {
      host: `localhost:${new URL(nginx.url).port}`,
    });
    expect(local.status).toBe(200);
  });

  it('the same block without its forwarding headers would make a remote client an admin (why they are there)', async () => {
    const bare = (await docsBlock())
      .split('\n')
      .filter((line) => !/proxy_set_header (X-Forwarded-For|X-Real-IP|Host)\b/.test(line))
      .join('\n');
    const unsafe = await startNginx(bare, upstream);
    try {
      const answer = await send(unsafe.url, 'GET', '/__mock/keys', { 'x-test-client': REMOTE });
      expect(answer.status).toBe(200);
    } finally {
      await unsafe.stop();
    }
  });
});
