/**
 * The dashboard's node routes and the journal over real HTTP: the page and its assets under the admin
 * access rule and a strict CSP, the HAR export scrubbed as `cca-kit record` scrubs (valid HAR 1.2, no
 * key, no customer name), and /mcp exchanges journaled beside the REST ones.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Har } from 'har-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../mocks/engine/engine.ts';
import type { JournalEntry, JournalSummary } from '../mocks/engine/journal/index.ts';
import { createJournal } from '../mocks/engine/journal/index.ts';
import { createViolationLog } from '../mocks/engine/violations/index.ts';
import { createDashboardRoutes, DASHBOARD_CSP } from '../mocks/http/dashboard/serve.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { keyOf } from './support/keys.ts';

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ seed: 42, actions: 120, interceptors: [createViolationLog()] });
});
afterAll(async () => {
  await mock.close();
});

const admin = async <T>(path: string): Promise<T> =>
  (await (await fetch(`${mock.url}/__mock/${path}`)).json()) as T;

/** The fields HAR 1.2 requires (http://www.softwareishard.com/blog/har-12-spec/), with their types. */
function harProblems(har: Har): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const { log } = har;
  need(log.version === '1.2', 'log.version');
  need(typeof log.creator?.name === 'string' && typeof log.creator?.version === 'string', 'log.creator');
  need(Array.isArray(log.entries), 'log.entries');
  log.entries.forEach((e, i) => {
    const at = `entries[${i}]`;
    need(!Number.isNaN(Date.parse(e.startedDateTime)), `${at}.startedDateTime`);
    need(typeof e.time === 'number' && e.time >= 0, `${at}.time`);
    const q = e.request;
    need(typeof q.method === 'string' && /^https?:\/\//.test(q.url), `${at}.request method/url`);
    need(
      typeof q.httpVersion === 'string' && Array.isArray(q.cookies) && Array.isArray(q.headers),
      `${at}.request lists`,
    );
    need(
      Array.isArray(q.queryString) && q.headersSize === -1 && typeof q.bodySize === 'number',
      `${at}.request sizes`,
    );
    if (q.postData !== undefined)
      need(typeof q.postData.mimeType === 'string', `${at}.request.postData.mimeType`);
    const r = e.response;
    need(typeof r.status === 'number' && typeof r.statusText === 'string', `${at}.response status`);
    need(
      Array.isArray(r.cookies) && Array.isArray(r.headers) && typeof r.redirectURL === 'string',
      `${at}.response lists`,
    );
    need(
      typeof r.content.size === 'number' && typeof r.content.mimeType === 'string',
      `${at}.response.content`,
    );
    need(
      typeof e.cache === 'object' && typeof e.timings.wait === 'number' && typeof e.timings.send === 'number',
      `${at}.timings`,
    );
    for (const header of [...q.headers, ...r.headers])
      need(typeof header.name === 'string' && typeof header.value === 'string', `${at} header`);
  });
  return problems;
}

describe('the journal over HTTP', () => {
  it('journals /mcp exchanges with the JSON-RPC method, the key profile and organization, never the key', async () => {
    const key = keyOf(mock.engine.admin, 'org_acme', 'reporting');
    const client = new Client(
      { name: 'journal-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(`${mock.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    await client.close();
    let entries: JournalSummary[] = [];
    for (let i = 0; i < 50; i++) {
      entries = (await admin<{ entries: JournalSummary[] }>('journal?interface=mcp')).entries;
      if (entries.some((e) => e.operation === 'tools/list')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const listed = entries.find((e) => e.operation === 'tools/list');
    expect(listed).toMatchObject({
      interface: 'mcp',
      method: 'POST',
      path: '/mcp',
      status: 200,
      organizationId: 'org_acme',
      keyProfile: 'reporting',
    });
    const detail = (await admin<{ entry: JournalEntry }>(`journal/${listed?.seq}`)).entry;
    expect(detail.request.body.text).toContain('"tools/list"');
    expect(detail.response.body.text).toContain('"tools"');
    expect(detail.request.headers).toContainEqual(['authorization', 'Bearer [masked]']);
    expect(JSON.stringify(await admin('journal'))).not.toContain(key);
  });

  it('exports the journal as valid HAR 1.2, scrubbed as cca-kit record scrubs: no key, no customer name or email', async () => {
    const key = keyOf(mock.engine.admin, 'org_acme', 'reporting');
    const list = await fetch(`${mock.url}/v0/action/list?pageSize=5`, { headers: { 'x-api-key': key } });
    const { data } = (await list.json()) as { data: { userName: string | null; userEmail: string | null }[] };
    const names = data
      .flatMap((item) => [item.userName, item.userEmail])
      .filter((v): v is string => v !== null && v.length >= 4);
    expect(names.length).toBeGreaterThan(0);
    await fetch(`${mock.url}/v0/action/list?pageSize=0`, { headers: { 'x-api-key': key } });
    // The journal itself keeps the answer as it was (only keys are masked there).
    const raw = JSON.stringify(await admin('journal/1'));
    const response = await fetch(`${mock.url}/__mock/journal.har`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(
      /attachment; filename="cca-kit-journal\.har"/,
    );
    const text = await response.text();
    const har = JSON.parse(text) as Har;
    expect(harProblems(har)).toEqual([]);
    expect(har.log.creator.name).toBe('cca-kit mock journal');
    expect(
      har.log.entries.some(
        (e) => e.request.url.endsWith('/v0/action/list?pageSize=0') && e.response.status === 400,
      ),
    ).toBe(true);
    expect(text).not.toContain(key);
    for (const name of names) expect(text).not.toContain(name);
    expect(raw).not.toContain(key);
    // Filters apply to the export as to the list.
    const filtered = JSON.parse(
      await (await fetch(`${mock.url}/__mock/journal.har?status=400`)).text(),
    ) as Har;
    expect(filtered.log.entries.map((e) => e.response.status)).toEqual([400]);
    expect((await fetch(`${mock.url}/__mock/journal.har?status=nope`)).status).toBe(400);
  });
});

describe('GET /__mock/ingestion/batches', () => {
  it('lists accepted batches from the journal with each record pending, then an action once processed', async () => {
    const key = keyOf(mock.engine.admin, 'org_acme', 'import');
    const record = (externalId: string, extra: Record<string, unknown> = {}) => ({
      externalId,
      authorId: '00017',
      authorName: 'Zoë',
      body: `body of ${externalId}`,
      createdAt: '2026-11-20T10:00:00Z',
      recordType: 'message',
      ...extra,
    });
    const sent = await fetch(`${mock.url}/v0/ingest/records`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({
        platform: 'DISCORD',
        serverId: '000042',
        serverName: 'Guild',
        records: [record('r-1'), record('r-2', { threadExternalId: 'r-1' })],
      }),
    });
    expect(sent.status).toBe(202);
    type Batches = {
      batches: {
        organizationId: string;
        platform: string;
        records: { externalId: string; fate: string; actionId?: string }[];
      }[];
    };
    const before = await admin<Batches>('ingestion/batches?organizationId=org_acme');
    expect(before.batches[0]).toMatchObject({ organizationId: 'org_acme', platform: 'DISCORD' });
    expect(before.batches[0]?.records.map((r) => [r.externalId, r.fate])).toEqual([
      ['r-1', 'pending'],
      ['r-2', 'pending'],
    ]);
    await fetch(`${mock.url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 60_000 }),
    });
    await fetch(`${mock.url}/__mock/ingestion/flush`, { method: 'POST' });
    const after = await admin<Batches>('ingestion/batches');
    const records = after.batches[0]?.records ?? [];
    expect(records.map((r) => r.fate)).toEqual(['action', 'action']);
    // Both records are one thread (r-2 answers r-1): one action, and it can be read.
    expect(records[0]?.actionId).toBe(records[1]?.actionId);
    const reporting = keyOf(mock.engine.admin, 'org_acme', 'reporting');
    const action = await fetch(`${mock.url}/v0/action/${records[0]?.actionId}`, {
      headers: { 'x-api-key': reporting },
    });
    expect(action.status).toBe(200);
    expect((await admin<Batches>('ingestion/batches?organizationId=org_globex')).batches).toEqual([]);
  });
});

describe('the dashboard page on the node adapter', () => {
  it('serves the page to a browser with a strict CSP and no inline script or style; JSON clients still get the route index', async () => {
    const page = await fetch(`${mock.url}/__mock/`, {
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).not.toMatch(/unsafe|\*|https?:/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="/__mock/dashboard/app.js">']);
    expect(html).not.toMatch(/<script[^>]*>[^<]+<\/script>|<style|\sstyle=|\son[a-z]+=|https?:\/\//);
    const index = (await (await fetch(`${mock.url}/__mock/`)).json()) as { routes: { path: string }[] };
    expect(index.routes.map((r) => r.path)).toContain('/__mock/journal');
    for (const [name, type] of [
      ['app.js', 'text/javascript; charset=utf-8'],
      ['dom.js', 'text/javascript; charset=utf-8'],
      ['dashboard.css', 'text/css; charset=utf-8'],
      ['favicon.svg', 'image/svg+xml'],
    ] as const) {
      const asset = await fetch(`${mock.url}/__mock/dashboard/${name}`);
      expect([name, asset.status, asset.headers.get('content-type')]).toEqual([name, 200, type]);
      expect(await asset.text()).not.toMatch(
        /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/,
      );
    }
    for (const name of ['nope.js', '..%2Fserve.ts', 'serve.ts', 'APP.JS', 'app.ts'])
      expect([name, (await fetch(`${mock.url}/__mock/dashboard/${name}`)).status]).toEqual([name, 404]);
  });

  it('follows the admin access rule: a non-loopback client gets 403 unless it presents the admin token', async () => {
    const engine = createEngine({
      seed: 1,
      actions: 10,
      adminToken: 'secret-token-123',
      interceptors: [createJournal()],
    });
    const routes = createDashboardRoutes(engine);
    const ask = async (remoteAddress: string, headers: Record<string, string>, url = '/__mock/') => {
      let status = 0;
      const req = {
        method: 'GET',
        url,
        headers: { accept: 'text/html', ...headers },
        socket: { remoteAddress },
      };
      const res = {
        writeHead: (code: number) => {
          status = code;
        },
        end: () => undefined,
      };
      const served = await routes.serve(
        req as unknown as IncomingMessage,
        res as unknown as ServerResponse,
        'http://mock',
      );
      return served ? status : 'not served';
    };
    expect(await ask('10.0.0.9', {})).toBe(403);
    expect(await ask('10.0.0.9', {}, '/__mock/journal.har')).toBe(403);
    expect(await ask('10.0.0.9', { 'x-mock-admin-token': 'wrong' })).toBe(403);
    expect(await ask('10.0.0.9', { 'x-mock-admin-token': 'secret-token-123' })).toBe(200);
    expect(await ask('::ffff:127.0.0.1', {})).toBe(200);
    expect(await ask('127.0.0.1', {}, '/__mock/clock')).toBe('not served');
  });
});
