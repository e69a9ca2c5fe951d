/**
 * The contract's examples against an example-driven peer tool. Specmatic pairs request and response
 * examples by name and replays them: every pair a key can satisfy must pass against the default mock
 * (seed 42). Examples that name records name records of the default seed; the two moderation cases
 * they read are made by `prepareExampleRecords` (a mock starts with no moderation case), whose ids
 * are deterministic for the seed.
 *
 * Specmatic's npm wrapper exits 0 even when scenarios fail, so the jar runs directly and its JUnit
 * report is read. One key per run: a Read and write key for everything but ingestion, an Import key
 * for ingestion (`--filter`), the two runs side by side.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moderationSubmission } from '../contract/src/examples.ts';
import keys from '../fixtures/keys.json' with { type: 'json' };
import { contract } from '../src/contract/index.ts';
import { type RunningTarget, startMockTarget } from '../suites/target.ts';
import { ROOT } from './support/processes.ts';
import { scaled } from './support/timeouts.ts';

const JAR = join(ROOT, 'node_modules', 'specmatic', 'specmatic.jar');
const CONTRACT = join(ROOT, 'contract', 'openapi.json');
const INGEST_PATH = '/v0/ingest/records';

function keyOf(profile: string): string {
  const found = keys.find(
    (k) => k.organizationId === 'org_acme' && k.profile === profile && k.status === 'active',
  );
  if (found === undefined) throw new Error(`fixtures/keys.json has no active ${profile} key of org_acme`);
  return found.key;
}

const READ_WRITE_KEY = keyOf('read_write');
const IMPORT_KEY = keyOf('import');

/**
 * What the examples read that the seed does not hold: the moderation case of the `accepted` example
 * (ad-2026-000981, stepped to completed) and a second one left pending (ad-2026-000982).
 */
async function prepareExampleRecords(baseUrl: string): Promise<{ completed: string; pending: string }> {
  const submit = async (externalId: string): Promise<string> => {
    const res = await fetch(`${baseUrl}/v0/moderation/cases`, {
      method: 'POST',
      headers: { 'x-api-key': READ_WRITE_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ ...moderationSubmission, externalId }),
    });
    const body = (await res.json()) as { caseId?: unknown };
    if (res.status !== 202 || typeof body.caseId !== 'string')
      throw new Error(`submit ${externalId}: ${res.status}`);
    return body.caseId;
  };
  const completed = await submit('ad-2026-000981');
  const pending = await submit('ad-2026-000982');
  for (const _step of ['running', 'completed']) {
    const res = await fetch(`${baseUrl}/__mock/moderation/cases/${completed}/step`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`step ${completed}: ${res.status}`);
  }
  return { completed, pending };
}

interface Scenario {
  readonly name: string;
  readonly passed: boolean;
}

function unescapeXml(text: string): string {
  const entities: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_m, name: string) => entities[name] ?? '');
}

/** Runs the jar against a base URL with one key and reads its JUnit report. */
async function runSpecmatic(baseUrl: string, key: string, filter: string): Promise<Scenario[]> {
  const dir = await mkdtemp(join(tmpdir(), 'cca-specmatic-'));
  try {
    const output = await new Promise<string>((resolve) => {
      execFile(
        'java',
        [
          // C1 only and a serial collector: a short run starts in well under half the time.
          '-XX:TieredStopAtLevel=1',
          '-XX:+UseSerialGC',
          '-jar',
          JAR,
          'test',
          CONTRACT,
          `--testBaseURL=${baseUrl}`,
          `--junitReportDir=${dir}`,
          `--filter=${filter}`,
        ],
        {
          cwd: dir,
          env: { ...process.env, ApiKey: key },
          timeout: scaled(150_000),
          maxBuffer: 64 * 1024 * 1024,
        },
        (_error, stdout, stderr) => resolve(`${stdout}\n${stderr}`),
      );
    });
    const files = (await readdir(dir)).filter((f) => f.endsWith('.xml'));
    if (files.length === 0) throw new Error(`specmatic wrote no JUnit report:\n${output.slice(-3000)}`);
    const xml = (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
    return [...xml.matchAll(/<testcase\b[^>]*\bname="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)].map(
      (m) => ({
        name: unescapeXml(m[1] ?? '').replace(/^.*Scenario: /, ''),
        passed: !/<(failure|error)\b/.test(m[3] ?? ''),
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Request examples paired by name with a response example, as example-driven tools pair them. */
function examplePairs(): { operationId: string; name: string; status: number }[] {
  const pairs: { operationId: string; name: string; status: number }[] = [];
  for (const op of contract.operations.values()) {
    const raw = contract.document.paths?.[op.pathTemplate]?.[op.method.toLowerCase() as 'get'];
    const requestNames = new Set<string>();
    for (const p of raw?.parameters ?? [])
      for (const n of Object.keys(('examples' in p && p.examples) || {})) requestNames.add(n);
    const body = raw?.requestBody;
    if (body !== undefined && 'content' in body)
      for (const n of Object.keys(body.content['application/json']?.examples ?? {})) requestNames.add(n);
    for (const [status, response] of Object.entries(raw?.responses ?? {})) {
      if (!('content' in response)) continue;
      // An operation that takes no input plays its response examples alone.
      for (const n of Object.values(response.content ?? {}).flatMap((media) =>
        Object.keys(media.examples ?? {}),
      ))
        if (requestNames.has(n) || (raw?.parameters ?? []).length + (body === undefined ? 0 : 1) === 0)
          pairs.push({ operationId: op.operationId, name: n, status: Number(status) });
    }
  }
  return pairs;
}

describe('Specmatic replays the contract examples against the default mock', () => {
  let mock: RunningTarget;
  let prepared: { completed: string; pending: string };
  beforeAll(async () => {
    mock = await startMockTarget({ seed: 42 });
    prepared = await prepareExampleRecords(mock.target.baseUrl);
  });
  afterAll(async () => {
    await mock.close();
  });

  it('the examples name records of the default seed: the moderation case ids are those the preparation makes', () => {
    const caseIds = contract.getOperation('getModerationCase');
    const examples = contract.document.paths?.[caseIds.pathTemplate]?.get?.parameters?.[0];
    const values = examples !== undefined && 'examples' in examples ? examples.examples : undefined;
    expect({
      completed:
        values?.['completed'] && 'value' in values['completed'] ? values['completed'].value : undefined,
      pending: values?.['pending'] && 'value' in values['pending'] ? values['pending'].value : undefined,
    }).toEqual(prepared);
  });

  it('every example pair answers its paired status on the default mock (the examples kept in step with the seed)', async () => {
    const checked: string[] = [];
    for (const { operationId, name, status } of examplePairs()) {
      const op = contract.getOperation(operationId);
      const raw = contract.document.paths?.[op.pathTemplate]?.[op.method.toLowerCase() as 'get'];
      const exampleValue = (examples: unknown): unknown => {
        const all = (examples ?? {}) as Record<string, { value?: unknown }>;
        return (all[name] ?? Object.values(all)[0])?.value;
      };
      let path = op.pathTemplate;
      const query = new URLSearchParams();
      for (const p of raw?.parameters ?? []) {
        if (!('in' in p) || !('examples' in p)) continue;
        const named = (p.examples ?? {}) as Record<string, { value?: unknown }>;
        if (p.in === 'path')
          path = path.replace(`{${p.name}}`, encodeURIComponent(String(exampleValue(p.examples))));
        else if (p.in === 'query' && named[name] !== undefined) query.set(p.name, String(named[name].value));
      }
      const body =
        raw?.requestBody !== undefined && 'content' in raw.requestBody
          ? exampleValue(raw.requestBody.content['application/json']?.examples)
          : undefined;
      const key =
        op.requiredScope === null ? undefined : op.requiredScope === 'ingest' ? IMPORT_KEY : READ_WRITE_KEY;
      const res = await fetch(`${mock.target.baseUrl}${path}${query.size > 0 ? `?${query}` : ''}`, {
        method: op.method,
        headers: {
          ...(key === undefined ? {} : { 'x-api-key': key }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      await res.arrayBuffer();
      checked.push(
        `${operationId} ${name}: ${res.status === status ? 'ok' : `answered ${res.status}, example says ${status}`}`,
      );
    }
    expect(checked.filter((c) => !c.endsWith(': ok'))).toEqual([]);
    expect(checked).toHaveLength(29);
  });

  it(
    'runs every example scenario a key can satisfy, and all of them pass (29 of 29)',
    async () => {
      expect(examplePairs().length).toBe(29);
      const [main, ingest] = await Promise.all([
        runSpecmatic(mock.target.baseUrl, READ_WRITE_KEY, `PATH!='${INGEST_PATH}'`),
        runSpecmatic(mock.target.baseUrl, IMPORT_KEY, `PATH='${INGEST_PATH}'`),
      ]);
      const all = [...main, ...ingest];
      expect(all.filter((s) => !s.passed).map((s) => s.name)).toEqual([]);
      expect({ scenarios: all.length, passed: all.filter((s) => s.passed).length }).toEqual({
        scenarios: 29,
        passed: 29,
      });
      for (const name of [
        'GET /docs/json -> 200',
        "POST /v0/ingest/records -> 202/202 with the request from the example 'accepted'",
      ])
        expect(
          all.some((s) => s.name.startsWith(name) && s.passed),
          name,
        ).toBe(true);
    },
    scaled(240_000),
  );
});
