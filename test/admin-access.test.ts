/**
 * The admin access rule (mocks/engine/admin/access.ts) through every door: the engine with a network
 * client's context, the node HTTP server (API and dashboard page) with the headers a balancer on the
 * same host writes, and the MSW handlers, which are in-process and answer admin whatever `host` says
 * (msw 3 sets it to the target's on every request).
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../mocks/engine/index.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { createHandlers } from '../mocks/msw/index.ts';
import type { CliIo } from '../src/cli/io.ts';
import { main } from '../src/cli/main.ts';

const TOKEN = 'admin-token-for-tests';

async function status(
  engine: Engine,
  headers: Record<string, string>,
  remoteAddress = '127.0.0.1',
): Promise<{ status: number; error: string }> {
  const response = await engine.handle(new Request('http://127.0.0.1:4010/__mock/keys', { headers }), {
    remoteAddress,
  });
  const body = (await response.json()) as { error?: string };
  return { status: response.status, error: body.error ?? '' };
}

const nonLoopbackV4 = fc
  .tuple(fc.integer({ min: 0, max: 255 }), fc.nat(255), fc.nat(255), fc.nat(255))
  .filter(([a]) => a !== 127)
  .map((parts) => parts.join('.'));
const loopbackV4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => `127.${parts.join('.')}`);

describe('admin access for network clients: loopback by socket, Host and forwarding headers alike', () => {
  const engine = createEngine({ seed: 42, actions: 20, adminToken: TOKEN });

  it('refuses a loopback socket whose forwarding headers name another client, saying which header', async () => {
    const cases: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' },
      { 'x-forwarded-for': 'unknown' },
      { 'x-real-ip': '198.51.100.4' },
      { forwarded: 'for=192.0.2.60;proto=http;by=127.0.0.1' },
      { forwarded: 'for="[2001:db8:cafe::17]:4711"' },
      { forwarded: 'for=_hidden' },
      { forwarded: 'for=127.0.0.1;host=sandbox.example' },
      { 'x-forwarded-host': 'sandbox.example' },
      // A balancer that rewrote Host to the upstream's and forwarded for a remote client.
      { host: '127.0.0.1:4010', 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' },
    ];
    for (const headers of cases) {
      const answer = await status(engine, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      const [name] = Object.keys(headers).filter((h) => h !== 'host');
      expect(answer.error, JSON.stringify(headers)).toContain(`its ${name}`);
    }
  });

  it('admits loopback forwarding (a local balancer for a local client) and clients without the headers', async () => {
    for (const headers of [
      {},
      { 'x-forwarded-for': '127.0.0.1' },
      { 'x-forwarded-for': '::1, 127.0.0.1:5173' },
      { 'x-real-ip': '127.0.0.1' },
      { forwarded: 'for="[::1]:5000";host=localhost:4010;proto=http' },
      { 'x-forwarded-host': 'localhost:8080' },
    ])
      expect((await status(engine, headers)).status, JSON.stringify(headers)).toBe(200);
  });

  it('the admin token admits a forwarded remote client; a wrong token does not', async () => {
    const forwarded = { host: 'sandbox.example', 'x-forwarded-for': '203.0.113.9' };
    expect((await status(engine, { ...forwarded, 'x-mock-admin-token': TOKEN })).status).toBe(200);
    expect((await status(engine, { ...forwarded, authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await status(engine, { ...forwarded, 'x-mock-admin-token': 'not-the-token' })).status).toBe(403);
    const remote = await status(engine, {}, '203.0.113.9');
    expect(remote.status).toBe(403);
    expect(remote.error).toContain('the client address 203.0.113.9 is not loopback');
  });

  it('property: a non-loopback IPv4 in any forwarding header refuses, a loopback one admits', async () => {
    const header = fc.constantFrom('x-forwarded-for', 'x-real-ip', 'forwarded');
    const value = (name: string, address: string) => (name === 'forwarded' ? `for=${address}` : address);
    await fc.assert(
      fc.asyncProperty(header, nonLoopbackV4, loopbackV4, async (name, remote, local) => {
        expect((await status(engine, { [name]: value(name, remote) })).status).toBe(403);
        expect((await status(engine, { [name]: value(name, local) })).status).toBe(200);
      }),
      { numRuns: 60 },
    );
  });
});

/** A raw request (node:http, so `Host` can be what a balancer writes), status and body. */
function raw(
  url: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { headers }, (res) => {
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

describe('the HTTP server behind a balancer on the same host', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, seed: 42, actions: 20, adminToken: TOKEN });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('refuses the admin API and the dashboard to a forwarded remote client whose Host was rewritten to the upstream', async () => {
    const upstream = new URL(mock.url).host;
    const forwarded = { host: upstream, 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' };
    for (const path of ['/__mock/keys', '/__mock/journal']) {
      const answer = await raw(mock.url, path, forwarded);
      expect(answer.status, path).toBe(403);
      expect(answer.body).toContain('x-forwarded-for names');
    }
    const page = await raw(mock.url, '/__mock/', { ...forwarded, accept: 'text/html' });
    expect(page.status).toBe(403);
    expect(page.body).toContain('x-forwarded-for names');
    const reset = await fetch(`${mock.url}/__mock/reset`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(reset.status).toBe(403);
    // The same client with the token, and a local client through the same balancer, are admins.
    expect((await raw(mock.url, '/__mock/keys', { ...forwarded, 'x-mock-admin-token': TOKEN })).status).toBe(
      200,
    );
    expect(
      (await raw(mock.url, '/__mock/keys', { host: upstream, 'x-forwarded-for': '127.0.0.1' })).status,
    ).toBe(200);
    expect((await raw(mock.url, '/__mock/', { host: upstream, accept: 'text/html' })).status).toBe(200);
  });
});

describe('the MSW handlers are in-process: the admin API answers whatever the headers say', () => {
  it('answers /__mock/ on any baseUrl with the host header msw 3 sets, a page Origin and forwarding headers', async () => {
    const mock = createHandlers({ baseUrl: 'https://api.example.test', clock: 'frozen' });
    const headers = {
      host: 'api.example.test',
      origin: 'http://myapp.test',
      'x-forwarded-for': '203.0.113.9',
      'content-type': 'application/json',
    };
    const advance = new Request('https://api.example.test/__mock/clock/advance', {
      method: 'POST',
      headers,
      body: JSON.stringify({ ms: 60_000 }),
    });
    // Passed to the handlers as msw 3 does, with the `host` header on the Request itself.
    expect(advance.headers.get('host')).toBe('api.example.test');
    const answered = await getResponse(mock.handlers, advance);
    expect(answered?.status).toBe(200);
    const keys = await getResponse(
      mock.handlers,
      new Request('https://api.example.test/__mock/keys', { headers }),
    );
    expect(keys?.status).toBe(200);
  });

  it("through msw/node setupServer and fetch, every admin route answers (none 403), the docs' examples with 200", async () => {
    const mock = createHandlers({ baseUrl: 'https://api.example.test', clock: 'frozen' });
    const server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const send = (method: string, path: string, body?: unknown) =>
        fetch(`https://api.example.test${path}`, {
          method,
          headers: { 'content-type': 'application/json', origin: 'http://myapp.test' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      expect((await send('POST', '/__mock/clock/advance', { ms: 1000 })).status).toBe(200);
      expect((await send('GET', '/__mock/clock')).status).toBe(200);
      expect((await send('GET', '/__mock/keys')).status).toBe(200);
      expect((await send('POST', '/__mock/reset', {})).status).toBe(200);
      const index = (await (await send('GET', '/__mock/')).json()) as {
        routes: { method: string; path: string }[];
      };
      expect(index.routes.length).toBeGreaterThan(10);
      for (const route of index.routes) {
        const path = route.path.replace(/\{[^}]+\}/g, 'x');
        const answer = await send(route.method, path, route.method === 'GET' ? undefined : {});
        expect(answer.status, `${route.method} ${route.path}`).not.toBe(403);
      }
    } finally {
      server.close();
    }
  });
});

describe('cca-kit mock takes the admin token from CCA_MOCK_ADMIN_TOKEN', () => {
  it('a forwarded remote client gets admin with the token from the environment; a disagreeing flag is refused', async () => {
    const controller = new AbortController();
    const out: string[] = [];
    const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => out.push(t), signal: controller.signal };
    const previous = process.env['CCA_MOCK_ADMIN_TOKEN'];
    process.env['CCA_MOCK_ADMIN_TOKEN'] = TOKEN;
    try {
      const refused: string[] = [];
      const code = await main(['mock', '--port', '0', '--admin-token', 'another-token-value'], {
        ...io,
        stdout: (t) => refused.push(t),
        stderr: (t) => refused.push(t),
      });
      expect(code).not.toBe(0);
      expect(refused.join('')).toContain('--admin-token and CCA_MOCK_ADMIN_TOKEN differ');
      const running = main(['mock', '--port', '0', '--actions', '20'], io);
      try {
        for (let i = 0; i < 400 && !out.join('').includes('Press Ctrl+C'); i++)
          await new Promise((r) => setTimeout(r, 25));
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out.join(''))?.[1] ?? '';
        expect(out.join('')).toContain('(loopback or X-Mock-Admin-Token)');
        const forwarded = { 'x-forwarded-for': '203.0.113.9' };
        expect((await raw(url, '/__mock/keys', forwarded)).status).toBe(403);
        expect((await raw(url, '/__mock/keys', { ...forwarded, 'x-mock-admin-token': TOKEN })).status).toBe(
          200,
        );
      } finally {
        controller.abort();
        expect(await running).toBe(0);
      }
    } finally {
      if (previous === undefined) delete process.env['CCA_MOCK_ADMIN_TOKEN'];
      else process.env['CCA_MOCK_ADMIN_TOKEN'] = previous;
    }
  });
});
