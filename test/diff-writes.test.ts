/**
 * `cca-kit diff --allow-writes` end to end: a proxy over a second cca-kit mock stands in for live and
 * counts requests by method. Without the flag no write reaches live; with it, every seeded write goes to
 * both sides with the run prefix, two identical mocks show no difference, and a rewritten ingestion 202
 * body is found with the right kind. A write whose key is absent is reported as not sent.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { main } from '../src/cli/main.ts';
import { captureIo } from './support/cli-io.ts';

type Json = Record<string, unknown>;

let mockA: MockServer;
let mockB: MockServer;
let proxy: Server;
let proxyUrl: string;
let dir: string;
/** Requests that reached live, by method; and the bodies of the writes. */
const methods = new Map<string, number>();
const writeBodies: { method: string; path: string; body: string }[] = [];
/** When set, the proxy changes the 202 body of ingestion: `accepted` becomes a string, a key is added. */
let rewriteIngestion = false;

async function keyOf(mock: MockServer, profile: string): Promise<string> {
  const listed = (await (await fetch(new URL('/__mock/keys', mock.url))).json()) as {
    keys: { key: string; profile: string; status: string }[];
  };
  return listed.keys.find((k) => k.profile === profile && k.status === 'active')?.key ?? '';
}

const ENV = ['CCA_READ_KEY', 'CCA_WRITE_KEY', 'CCA_INGEST_KEY'] as const;
const keys: Record<(typeof ENV)[number], string> = {
  CCA_READ_KEY: '',
  CCA_WRITE_KEY: '',
  CCA_INGEST_KEY: '',
};

beforeAll(async () => {
  mockA = await startMockServer({ seed: 21, actions: 200, agent: false });
  mockB = await startMockServer({ seed: 22, actions: 200, agent: false });
  proxy = createServer((req, res) => {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    methods.set(method, (methods.get(method) ?? 0) + 1);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (method !== 'GET') writeBodies.push({ method, path, body });
      const headers: Record<string, string> = { 'x-api-key': String(req.headers['x-api-key'] ?? '') };
      if (body !== '') headers['content-type'] = 'application/json';
      fetch(new URL(path, mockB.url), { method, headers, ...(body === '' ? {} : { body }) })
        .then(async (r) => {
          const answer = (await r.json()) as Json;
          if (rewriteIngestion && path === '/v0/ingest/records' && r.status === 202) {
            answer['accepted'] = String(answer['accepted']);
            answer['queuePosition'] = 7;
          }
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer));
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'cca-diff-writes-'));
  keys.CCA_READ_KEY = await keyOf(mockB, 'reporting');
  keys.CCA_WRITE_KEY = await keyOf(mockB, 'write');
  keys.CCA_INGEST_KEY = await keyOf(mockB, 'import');
});

beforeEach(() => {
  methods.clear();
  writeBodies.length = 0;
  rewriteIngestion = false;
  for (const name of ENV) process.env[name] = keys[name];
});

afterAll(async () => {
  for (const name of ENV) delete process.env[name];
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await mockA.close();
  await mockB.close();
  await rm(dir, { recursive: true, force: true });
});

interface Report {
  differences: { kind: string; operationId: string; where: string; request: string }[];
  requests: number;
  writes: { allowed: boolean; prefix?: string; sent: number; notSent: string[] };
}

async function diff(extra: readonly string[]): Promise<{ code: number; report: Report; out: string }> {
  const run = captureIo();
  const json = join(dir, `r-${Math.random().toString(36).slice(2)}.json`);
  const code = await main(
    ['diff', '--mock', mockA.url, '--base-url', proxyUrl, '--seed', '4', '--json', json, ...extra],
    run.io,
  );
  const report = JSON.parse(await readFile(json, 'utf8')) as Report;
  return { code, report, out: run.out.join('') };
}

describe('cca-kit diff --allow-writes', () => {
  it('without the flag nothing is written: every request that reaches live is a GET', async () => {
    const { code, report, out } = await diff([]);
    expect(code).toBe(0);
    expect(report.requests).toBeGreaterThan(10);
    expect(methods.get('GET') ?? 0).toBeGreaterThan(10);
    expect([...methods.keys()]).toEqual(['GET']);
    expect(report.writes).toEqual({ allowed: false, sent: 0, notSent: [] });
    expect(out).toContain('writes: none');
  });

  it('two identical mocks with different seeds show no difference with writes on; each write reaches live once, prefixed', async () => {
    const { code, report } = await diff(['--allow-writes']);
    expect(report.differences).toEqual([]);
    expect(code).toBe(0);
    expect(report.writes.sent).toBe(3);
    expect(report.writes.notSent).toEqual([]);
    const prefix = report.writes.prefix ?? '';
    expect(prefix).toMatch(/^cca-conform-[a-z0-9]{1,24}-$/);
    // POST ingestion, POST moderation, PATCH custom field, PATCH restoring its original value.
    expect(methods.get('POST')).toBe(2);
    expect(methods.get('PATCH')).toBe(2);
    const ingest = writeBodies.find((w) => w.path === '/v0/ingest/records');
    const batch = JSON.parse(ingest?.body ?? '{}') as { serverId: string; records: { externalId: string }[] };
    expect(batch.serverId.startsWith(prefix)).toBe(true);
    expect(batch.records.every((r) => r.externalId.startsWith(prefix))).toBe(true);
    const moderation = writeBodies.find((w) => w.path === '/v0/moderation/cases');
    expect(
      (JSON.parse(moderation?.body ?? '{}') as { externalId: string }).externalId.startsWith(prefix),
    ).toBe(true);
  });

  it('finds a rewritten ingestion 202 body: live-only key, mismatched type, live violates the contract', async () => {
    rewriteIngestion = true;
    const { code, report } = await diff(['--allow-writes']);
    expect(code).toBe(1);
    const on = report.differences.filter((d) => d.operationId === 'ingestRecords');
    const has = (kind: string, where: string) => on.some((d) => d.kind === kind && d.where === where);
    expect(has('live-only', '$.queuePosition')).toBe(true);
    expect(has('mismatch', '$.accepted')).toBe(true);
    expect(on.some((d) => d.kind === 'live-violates-contract' && d.where.includes('accepted'))).toBe(true);
    expect(on.find((d) => d.kind === 'mismatch')?.request).toBe('POST /v0/ingest/records');
    expect(report.differences.filter((d) => d.operationId !== 'ingestRecords')).toEqual([]);
  });

  it('a write whose key is absent is not sent, with the reason; the others still go', async () => {
    delete process.env['CCA_INGEST_KEY'];
    const { report, out } = await diff(['--allow-writes']);
    expect(report.writes.notSent).toEqual(['ingestRecords: no live key; set CCA_INGEST_KEY (an Import key)']);
    expect(report.writes.sent).toBe(2);
    expect(writeBodies.some((w) => w.path === '/v0/ingest/records')).toBe(false);
    expect(out).toContain('not sent: ingestRecords');
  });

  it('--max-requests bounds the requests to each side: the run stops and says so', async () => {
    const { report } = await diff(['--allow-writes', '--max-requests', '5']);
    // Plus the preflight's two GETs to live (/docs/json, then the key on the action list).
    expect((methods.get('GET') ?? 0) + (methods.get('POST') ?? 0)).toBeLessThanOrEqual(5 + 2);
    expect(methods.has('PATCH')).toBe(false);
    expect(JSON.stringify(report)).toContain('request budget of 5 requests exhausted');
  });

  it('writes do not hide that live refused every read: still exit 2', async () => {
    process.env['CCA_READ_KEY'] = 'cca_live_not_a_key';
    const run = captureIo();
    expect(await main(['diff', '--mock', mockA.url, '--base-url', proxyUrl, '--allow-writes'], run.io)).toBe(
      2,
    );
    expect(run.err.join('')).toContain('CCA_READ_KEY refused: 401');
  });

  it('usage errors exit 2: a bad --max-rps or --max-requests', async () => {
    expect(await main(['diff', '--base-url', proxyUrl, '--max-rps', 'fast'], captureIo().io)).toBe(2);
    expect(await main(['diff', '--base-url', proxyUrl, '--max-requests', '0'], captureIo().io)).toBe(2);
  });
});
