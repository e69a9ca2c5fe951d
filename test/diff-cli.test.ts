/**
 * `cca-kit diff` end to end: a second cca-kit mock, made to differ in known ways by a rewriting proxy,
 * stands in for live; each known difference is found with its kind, two mocks with different seeds
 * show none, a field that varies by itself on live is learned as volatile, baselines and ignores hold.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { main } from '../src/cli/main.ts';
import { runDiff } from '../src/diff/run.ts';
import { captureIo } from './support/cli-io.ts';

type Json = Record<string, unknown>;

let mockA: MockServer;
let mockB: MockServer;
let proxy: Server;
let proxyUrl: string;
let dir: string;
/** Answers per URL: live gets each request twice, and the first answer differs from the second. */
const answers = new Map<string, number>();

/** Rewrites mock B's answers: the known differences of the test. */
function rewrite(path: string, status: number, body: Json): { status: number; body: Json } {
  const nth = (answers.get(path) ?? 0) + 1;
  answers.set(path, nth);
  const data = Array.isArray(body['data']) ? (body['data'] as Json[]) : [];
  if (path.startsWith('/v0/queues')) return { status: 404, body: { success: false, error: 'Not found' } };
  if (path.startsWith('/v0/action/list')) {
    for (const item of data) {
      item['priority'] = 'high'; // an extra response field
      item['actionTitle'] = null; // a nullable field the contract says is a string
      if (nth % 2 === 1) item['flaky'] = true; // varies by itself between two live answers
    }
  }
  if (/^\/v0\/action\/[^/?]+(\?|$)/.test(path)) {
    const visit = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(visit);
      else if (typeof v === 'object' && v !== null) {
        const o = v as Json;
        if ('authorType' in o) o['authorType'] = 'SYSTEM'; // an enum value the contract does not have
        Object.values(o).forEach(visit);
      }
    };
    visit(body);
  }
  return { status, body };
}

let key = '';

beforeAll(async () => {
  mockA = await startMockServer({ seed: 11, actions: 300, agent: false });
  mockB = await startMockServer({ seed: 12, actions: 300, agent: false });
  proxy = createServer((req, res) => {
    const path = req.url ?? '/';
    fetch(new URL(path, mockB.url), { headers: { 'x-api-key': String(req.headers['x-api-key'] ?? '') } })
      .then(async (r) => {
        const out = rewrite(path, r.status, (await r.json()) as Json);
        res.writeHead(out.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(out.body));
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'cca-diff-'));
  const listed = (await (await fetch(new URL('/__mock/keys', mockB.url))).json()) as {
    keys: { key: string; profile: string; status: string }[];
  };
  key = listed.keys.find((k) => k.profile === 'reporting' && k.status === 'active')?.key ?? '';
  process.env['CCA_READ_KEY'] = key;
});

afterAll(async () => {
  delete process.env['CCA_READ_KEY'];
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await mockA.close();
  await mockB.close();
  await rm(dir, { recursive: true, force: true });
});

interface Report {
  differences: {
    kind: string;
    operationId: string;
    where: string;
    detail: string;
    request: string;
    key: string;
  }[];
  volatile: Record<string, string[]>;
  requests: number;
}

describe('cca-kit diff', () => {
  it('two identical mocks with different seeds show no difference (exit 0)', async () => {
    const run = captureIo();
    const json = join(dir, 'same.json');
    expect(
      await main(
        ['diff', '--mock', mockA.url, '--base-url', mockB.url, '--seed', '5', '--json', json],
        run.io,
      ),
    ).toBe(0);
    const report = JSON.parse(await readFile(json, 'utf8')) as Report;
    expect(report.requests).toBeGreaterThan(10);
    expect(report.differences).toEqual([]);
  });

  it('finds each known difference with the right kind and the request that shows it', async () => {
    const run = captureIo();
    const json = join(dir, 'known.json');
    const junit = join(dir, 'known.xml');
    expect(
      await main(
        [
          'diff',
          '--mock',
          mockA.url,
          '--base-url',
          proxyUrl,
          '--seed',
          '5',
          '--json',
          json,
          '--junit',
          junit,
        ],
        run.io,
      ),
    ).toBe(1);
    const report = JSON.parse(await readFile(json, 'utf8')) as Report;
    const has = (kind: string, op: string, where: RegExp) =>
      report.differences.some((d) => d.kind === kind && d.operationId === op && where.test(d.where));
    expect(has('live-only', 'listActions', /^\$\.data\[\]\.priority$/)).toBe(true);
    expect(has('mismatch', 'listActions', /^\$\.data\[\]\.actionTitle$/)).toBe(true);
    expect(has('live-violates-contract', 'listActions', /actionTitle/)).toBe(true);
    expect(has('mismatch', 'listQueues', /^status$/)).toBe(true);
    expect(has('live-violates-contract', 'getAction', /authorType/)).toBe(true);
    expect(report.differences.filter((d) => d.kind === 'mock-violates-contract')).toEqual([]);
    expect(report.differences.find((d) => d.operationId === 'listQueues')?.request).toMatch(
      /^GET \/v0\/queues/,
    );
    // The field that varies by itself on live is learned, not reported.
    expect(report.differences.some((d) => d.where.includes('flaky'))).toBe(false);
    expect(report.volatile['listActions']).toContain('$.data[].flaky');
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('name="listQueues"');
    expect(xml).not.toContain(key);
  });

  it('a baseline of known differences makes the run pass; --ignore hides a path', async () => {
    const baseline = join(dir, 'baseline.json');
    const args = ['diff', '--mock', mockA.url, '--base-url', proxyUrl, '--seed', '5'];
    expect(await main([...args, '--write-baseline', baseline], captureIo().io)).toBe(1);
    expect(await main([...args, '--baseline', baseline], captureIo().io)).toBe(0);
    const json = join(dir, 'ignored.json');
    await main([...args, '--ignore', '$.data[].priority', '--json', json], captureIo().io);
    const report = JSON.parse(await readFile(json, 'utf8')) as Report;
    expect(report.differences.some((d) => d.where.includes('priority'))).toBe(false);
    expect(report.differences.some((d) => d.where.includes('actionTitle'))).toBe(true);
  });

  it('starts a mock in process when --mock is absent, and stops it', async () => {
    const run = captureIo();
    expect(await main(['diff', '--base-url', mockB.url, '--seed', '3'], run.io)).toBe(0);
    expect(run.out.join('')).toContain('in-process mock (seed 3)');
  });

  it('exits 2 when live refuses every request (no key): nothing was compared', async () => {
    const run = captureIo();
    process.env['CCA_READ_KEY'] = 'cca_live_not_a_key';
    try {
      expect(await main(['diff', '--mock', mockA.url, '--base-url', mockB.url], run.io)).toBe(2);
    } finally {
      process.env['CCA_READ_KEY'] = key;
    }
    // The key is tried once first: one line naming the variable, nothing compared.
    expect(run.err.join('')).toContain('CCA_READ_KEY refused: 401');
    expect(run.out.join('')).toBe('');
  });

  it('bounds each body: an answer over the size limit is reported, not read whole', async () => {
    const run = await runDiff({
      mock: { baseUrl: mockA.url, key: undefined },
      live: { baseUrl: mockB.url, key },
      seed: 1,
      maxBodyBytes: 200,
    });
    const large = run.differences.find((d) => d.operationId === 'listActions' && d.where === 'answer');
    expect(large?.detail).toContain('live: body over 200 bytes');
    expect(run.requests).toBeGreaterThan(10);
    expect(run.skipped).toEqual(['getModerationCase: no source for path parameter caseId']);
  });

  it('usage errors exit 2: no --base-url, a bad seed, a bad baseline', async () => {
    expect(await main(['diff'], captureIo().io)).toBe(2);
    expect(await main(['diff', '--base-url', mockB.url, '--seed', '-1'], captureIo().io)).toBe(2);
    const bad = join(dir, 'bad-baseline.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(bad, '{"known": 3}'));
    const run = captureIo();
    expect(await main(['diff', '--base-url', mockB.url, '--baseline', bad], run.io)).toBe(2);
    expect(run.err.join('')).toContain('expected {"known"');
  });
});
