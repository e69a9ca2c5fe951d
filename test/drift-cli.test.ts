/**
 * `cca-kit drift` end to end: live documents served over HTTP (a realistic edit of our contract, the
 * real mock, bad documents of every kind), exit codes, reports, level overrides, oasdiff when absent.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { main } from '../src/cli/main.ts';
import { contractDocument } from '../src/contract/load.ts';
import { liveDocumentUrl, runDrift, runOasdiff } from '../src/drift/index.ts';
import { applyEdits, type Edit } from './fixtures/drift/edits.ts';
import { captureIo } from './support/cli-io.ts';

const realistic = JSON.parse(
  await readFile(new URL('./fixtures/drift/realistic.json', import.meta.url), 'utf8'),
) as { edits: Edit[]; expect: [string, string, string][] };

const liveDoc = applyEdits(contractDocument, realistic.edits);
const additiveOnly = applyEdits(contractDocument, [realistic.edits[5] as Edit]);
const enumOnly = applyEdits(contractDocument, [realistic.edits[4] as Edit]);

/** Routes: `/<name>/docs/json` answers the body given here. */
const ROUTES: Record<string, { status: number; body: string }> = {
  realistic: { status: 200, body: JSON.stringify(liveDoc) },
  additive: { status: 200, body: JSON.stringify(additiveOnly) },
  enum: { status: 200, body: JSON.stringify(enumOnly) },
  'not-json': { status: 200, body: '<html>Swagger UI</html>' },
  'not-openapi': { status: 200, body: '{"success":true,"data":[]}' },
  swagger: { status: 200, body: '{"swagger":"2.0","info":{"title":"x","version":"1"},"paths":{}}' },
  'openapi-4': { status: 200, body: '{"openapi":"4.0.0","info":{"title":"x","version":"1"},"paths":{}}' },
  'no-paths': { status: 200, body: '{"openapi":"3.1.0","info":{"title":"x","version":"1"}}' },
  dangling: {
    status: 200,
    body: JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'x', version: '1' },
      paths: { '/a': { get: { responses: { '200': { $ref: '#/components/responses/Gone' } } } } },
    }),
  },
  missing: { status: 404, body: '{"success":false,"error":"not found"}' },
};

let server: Server;
let url: string;
let mock: MockServer;
let dir: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const name = (req.url ?? '').split('/')[1] ?? '';
    if (name === 'hang') return; // never answers: the timeout must end the wait
    const route = ROUTES[name];
    res.writeHead(route?.status ?? 404, { 'content-type': 'application/json' });
    res.end(route?.body ?? '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  mock = await startMockServer({ seed: 7, actions: 5, agent: false });
  dir = await mkdtemp(join(tmpdir(), 'cca-drift-cli-'));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await mock.close();
  await rm(dir, { recursive: true, force: true });
});

describe('cca-kit drift', () => {
  it('finds no drift between the bundled contract and the mock it ships (exit 0)', async () => {
    const run = captureIo();
    expect(await main(['drift', '--base-url', mock.url], run.io)).toBe(0);
    expect(run.out.join('')).toContain('0 breaking, 0 additive');
  });

  it('classifies every change of a realistic edit of the contract, and exits 1 on the breaking ones', async () => {
    const run = captureIo();
    const json = join(dir, 'r.json');
    const junit = join(dir, 'r.xml');
    const markdown = join(dir, 'r.md');
    const code = await main(
      ['drift', '--base-url', `${url}/realistic`, '--json', json, '--junit', junit, '--markdown', markdown],
      run.io,
    );
    expect(code).toBe(1);
    const report = JSON.parse(await readFile(json, 'utf8')) as {
      findings: { checkId: string; operation: string; location: string }[];
      uncovered: { operations: string[]; parameters: string[]; properties: string[] };
    };
    const found = report.findings.map((f) => [f.checkId, f.operation, f.location].join(' | ')).sort();
    expect(found).toEqual(realistic.expect.map((e) => e.join(' | ')).sort());
    expect(report.uncovered.operations).toEqual(['GET /v0/agents/{id}/schedule (getAgentSchedule)']);
    expect(report.uncovered.parameters).toEqual(['GET /v0/action/list: query parameter locale']);
    expect(report.uncovered.properties).toContain(
      'GET /v0/action/{id}: response 200 application/json: tags[].color',
    );
    const console = run.out.join('');
    expect(console).toMatch(/GET \/v0\/queues\n {2}BREAKING {2}op-removed/);
    expect(console).toContain('Live but not in the contract');
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/name="op-removed operation removed" time="0">\n\s+<failure/);
    expect(xml).toContain('failures="3"');
    const md = await readFile(markdown, 'utf8');
    expect(md).toContain('### :x: API drift: breaking changes');
    expect(md).toContain('| **breaking** | `GET /v0/queues` | `op-removed` | operation |');
  });

  it('exits 0 on additive changes only, 1 with --fail-on additive', async () => {
    expect(await main(['drift', '--base-url', `${url}/additive`], captureIo().io)).toBe(0);
    expect(
      await main(['drift', '--base-url', `${url}/additive`, '--fail-on', 'additive'], captureIo().io),
    ).toBe(1);
  });

  it('--level changes the level of a check: a widened response enum made additive exits 0', async () => {
    expect(await main(['drift', '--base-url', `${url}/enum`], captureIo().io)).toBe(1);
    expect(
      await main(
        ['drift', '--base-url', `${url}/enum`, '--level', 'response-enum-widened=additive'],
        captureIo().io,
      ),
    ).toBe(0);
    const bad = captureIo();
    expect(
      await main(['drift', '--base-url', `${url}/enum`, '--level', 'no-such-check=additive'], bad.io),
    ).toBe(2);
    expect(bad.err.join('')).toContain('unknown check id "no-such-check"');
  });

  it('reads saved documents with --live and --contract', async () => {
    const live = join(dir, 'live.json');
    const base = join(dir, 'base.json');
    await writeFile(live, JSON.stringify(liveDoc));
    await writeFile(base, JSON.stringify(liveDoc));
    expect(await main(['drift', '--live', live], captureIo().io)).toBe(1);
    expect(await main(['drift', '--live', live, '--contract', base], captureIo().io)).toBe(0);
  });

  const bad: [string, string, RegExp][] = [
    ['not-json', 'not-json', /not JSON/],
    ['not-openapi', 'not-openapi', /not OpenAPI: no "openapi" version field/],
    ['swagger', 'unsupported-version', /Swagger 2\.0 is not supported/],
    ['openapi-4', 'unsupported-version', /OpenAPI 4\.0\.0 is not supported/],
    ['no-paths', 'not-openapi', /not valid OpenAPI 3\.1\.0: no "paths" object/],
    ['dangling', 'not-openapi', /unresolved .*\$ref #\/components\/responses\/Gone/],
    ['missing', 'unreachable', /answered HTTP 404/],
  ];
  for (const [route, problem, message] of bad) {
    it(`exits 2 naming a bad live document: ${route} -> ${problem}`, async () => {
      const run = captureIo();
      const junit = join(dir, `${route}.xml`);
      expect(await main(['drift', '--base-url', `${url}/${route}`, '--junit', junit], run.io)).toBe(2);
      expect(run.err.join('')).toContain(`${problem}: ${url}/${route}/docs/json`);
      expect(run.err.join('')).toMatch(message);
      expect(await readFile(junit, 'utf8')).toContain(`<failure message="${problem}">`);
    });
  }

  it('exits 2 on an unreachable service, a hung one (timeout) and a missing file', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = captureIo();
    expect(await main(['drift', '--base-url', `http://127.0.0.1:${port}`], refused.io)).toBe(2);
    expect(refused.err.join('')).toMatch(/unreachable: .*unreachable \(.*ECONNREFUSED/);
    const hung = captureIo();
    const started = Date.now();
    expect(await main(['drift', '--base-url', `${url}/hang`, '--timeout-ms', '300'], hung.io)).toBe(2);
    // The service never answers: any finite wait is the timeout's.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(hung.err.join('')).toContain('no answer within 300 ms');
    const file = captureIo();
    expect(await main(['drift', '--live', join(dir, 'nope.json')], file.io)).toBe(2);
    expect(file.err.join('')).toContain('cannot read the file (ENOENT)');
  });

  it('names a bad --contract file too, and keeps a base URL path prefix', async () => {
    const broken = join(dir, 'broken-contract.json');
    await writeFile(broken, '{"openapi": "3.1.0",');
    const run = captureIo();
    expect(await main(['drift', '--base-url', `${url}/realistic`, '--contract', broken], run.io)).toBe(2);
    expect(run.err.join('')).toContain(`not-json: ${broken}: not JSON`);
    expect(liveDocumentUrl('https://api.example.com/cca/').href).toBe(
      'https://api.example.com/cca/docs/json',
    );
  });

  it('refuses a document over the size limit without reading it all', async () => {
    const outcome = await runDrift({
      live: { url: `${url}/realistic` },
      limits: { maxBytes: 1000, timeoutMs: 5000 },
    });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.problem.problem).toBe('too-large');
  });

  it('usage errors exit 2: neither or both of --base-url and --live, a bad --fail-on', async () => {
    expect(await main(['drift'], captureIo().io)).toBe(2);
    expect(await main(['drift', '--base-url', url, '--live', 'x.json'], captureIo().io)).toBe(2);
    expect(await main(['drift', '--base-url', url, '--fail-on', 'never'], captureIo().io)).toBe(2);
  });

  it('oasdiff: reports "not installed" when the binary is absent, and runs it when present', async () => {
    const base = join(dir, 'o-base.json');
    const live = join(dir, 'o-live.json');
    await writeFile(base, JSON.stringify(contractDocument));
    await writeFile(live, JSON.stringify(liveDoc));
    const absent = await runOasdiff(base, live, 'cca-kit-no-such-oasdiff-binary');
    expect(absent).toEqual({
      available: false,
      reason: 'cca-kit-no-such-oasdiff-binary is not installed (not found on PATH)',
    });
    const cli = captureIo();
    expect(await main(['drift', '--base-url', `${url}/realistic`, '--oasdiff'], cli.io)).toBe(1);
    expect(cli.out.join('')).toMatch(/oasdiff: oasdiff is not installed|oasdiff \(second opinion\): \d+/);
    const onPath = await runOasdiff(base, live);
    if (!onPath.available) expect(onPath.reason).toContain('not installed');
    else {
      // When oasdiff is installed, it must agree that the removed operation is breaking.
      expect(onPath.ok).toBe(true);
      expect(onPath.ok && onPath.changes.some((c) => c.operation.includes('/v0/queues'))).toBe(true);
    }
  });
});
