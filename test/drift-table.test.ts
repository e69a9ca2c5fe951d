/**
 * Every check of the drift table, proved by a contract pair (test/fixtures/drift/pairs.json): the live
 * document is served over HTTP at `{base_url}/docs/json` and each pair yields exactly its expected findings.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIFT_CHECKS, runDrift } from '../src/drift/index.ts';
import { applyEdits, type Edit } from './fixtures/drift/edits.ts';

interface Pair {
  readonly check: string;
  readonly edits: readonly Edit[];
  readonly expect: readonly (readonly [string, string])[];
}
interface Fixture {
  readonly base: Record<string, unknown>;
  readonly pairs: readonly Pair[];
}

const fixture = JSON.parse(
  await readFile(new URL('./fixtures/drift/pairs.json', import.meta.url), 'utf8'),
) as Fixture;

let server: Server;
let baseUrl: string;
let dir: string;
let baseFile: string;

beforeAll(async () => {
  const live = new Map(
    fixture.pairs.map((p) => [`/${p.check}/docs/json`, JSON.stringify(applyEdits(fixture.base, p.edits))]),
  );
  server = createServer((req, res) => {
    const body = live.get(req.url ?? '');
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(body ?? '{"success":false,"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'cca-drift-table-'));
  baseFile = join(dir, 'base.json');
  await writeFile(baseFile, JSON.stringify(fixture.base));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('drift table', () => {
  it('has exactly one fixture pair per check', () => {
    expect(fixture.pairs.map((p) => p.check).sort()).toEqual(DRIFT_CHECKS.map((c) => c.id).sort());
  });

  it('docs/drift.md lists every check with its level', async () => {
    const docs = await readFile(new URL('../docs/drift.md', import.meta.url), 'utf8');
    for (const c of DRIFT_CHECKS) {
      const level = c.level === 'breaking' ? '**breaking**' : c.level;
      expect(docs).toContain(`| \`${c.id}\` | ${level} |`);
    }
  });

  it('a path parameter renamed with its template is documentation only (the URL on the wire is the same)', async () => {
    const live = structuredClone(fixture.base) as {
      paths: Record<string, Record<string, { parameters: { name: string }[] }>>;
    };
    const item = live.paths['/v0/things/{id}'];
    if (item === undefined) throw new Error('fixture changed');
    for (const op of Object.values(item)) if (op.parameters[0]) op.parameters[0].name = 'thingId';
    live.paths['/v0/things/{thingId}'] = item;
    delete live.paths['/v0/things/{id}'];
    const file = join(dir, 'renamed.json');
    await writeFile(file, JSON.stringify(live));
    const outcome = await runDrift({ live: { file }, base: { file: baseFile } });
    if (!outcome.ok) throw new Error(outcome.problem.message);
    expect(outcome.report.findings.map((f) => [f.checkId, f.operation])).toEqual([
      ['documentation-changed', 'GET /v0/things/{id}'],
      ['documentation-changed', 'PATCH /v0/things/{id}'],
    ]);
    expect(outcome.report.exitCode).toBe(0);
  });

  it('finds nothing between a document and itself', async () => {
    const outcome = await runDrift({ live: { file: baseFile }, base: { file: baseFile } });
    expect(outcome.ok && outcome.report.findings).toEqual([]);
    expect(outcome.ok && outcome.report.exitCode).toBe(0);
  });

  for (const pair of fixture.pairs) {
    const check = DRIFT_CHECKS.find((c) => c.id === pair.check);
    it(`${pair.check}: ${check?.level ?? '?'} (${check?.title ?? 'not in the table'})`, async () => {
      const outcome = await runDrift({ live: { url: `${baseUrl}/${pair.check}` }, base: { file: baseFile } });
      if (!outcome.ok) throw new Error(outcome.problem.message);
      const found = outcome.report.findings.map((f) => `${f.checkId} ${f.operation}`).sort();
      expect(found).toEqual(pair.expect.map(([id, op]) => `${id} ${op}`).sort());
      for (const f of outcome.report.findings) expect(f.level).toBe(check?.level);
      const fails = check?.level === 'breaking';
      expect(outcome.report.exitCode).toBe(fails ? 1 : 0);
    });
  }
});
