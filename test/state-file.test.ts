/**
 * `cca-kit mock --state-file`: what clients wrote survives a real restart of the process (SIGTERM and
 * SIGKILL), moderation cases move on with the clock meanwhile, and a file written by another seed or
 * damaged in the middle is refused with a clear error before anything is applied.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { json, type MockProcess, runMock, startMock } from './support/state-processes.ts';
import { scaled } from './support/timeouts.ts';

const FLAGS = ['--seed', '7', '--actions', '120', '--moderation-latency', '400'];

interface KeyView {
  readonly key: string;
  readonly organizationId: string;
  readonly profile: string;
  readonly status: string;
}

describe('cca-kit mock --state-file', () => {
  let dir: string;
  let file: string;
  let mock: MockProcess | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cca-state-file-'));
    file = join(dir, 'sandbox.state');
  });
  afterAll(async () => {
    await mock?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'keeps keys, revocations, moderation mode, cases and the clock across a restart; cases move on with the clock',
    async () => {
      mock = await startMock([...FLAGS, '--state-file', file]);
      const base = mock.url;
      const keys = (await json(`${base}/__mock/keys`)).body['keys'] as KeyView[];
      const org = (keys[0] as KeyView).organizationId;
      const victim = keys.find(
        (k) => k.organizationId === org && k.status === 'active' && k.profile === 'reporting',
      );
      expect(victim).toBeDefined();
      await json(`${base}/__mock/organizations/${org}/moderation-mode`, {
        method: 'PUT',
        body: JSON.stringify({ mode: 'ad_policy' }),
      });
      const created = await json(`${base}/__mock/keys`, {
        method: 'POST',
        body: JSON.stringify({ organizationId: org, profile: 'read_write', name: 'kept across restarts' }),
      });
      expect(created.status).toBe(201);
      const writeKey = (created.body['key'] as KeyView).key;
      expect((await json(`${base}/__mock/keys/${victim?.key}/revoke`, { method: 'POST' })).status).toBe(200);
      const submitted = await json(`${base}/v0/moderation/cases`, {
        method: 'POST',
        headers: { 'x-api-key': writeKey },
        body: JSON.stringify(sampleSubmission({ externalId: 'kept-1' })),
      });
      expect(submitted.status).toBe(202);
      const caseId = submitted.body['caseId'] as string;
      const advanced = await json(`${base}/__mock/clock/advance`, {
        method: 'POST',
        body: JSON.stringify({ ms: 3_600_000 }),
      });
      const clockBefore = (advanced.body['clock'] as { now: number }).now;
      await mock.stop('SIGTERM');

      mock = await startMock([...FLAGS, '--state-file', file]);
      expect(mock.output()).toMatch(/State {8}: file .* \(5 writes in all/);
      const again = mock.url;
      // The created key still works, the revoked one is still refused (spec 5.6).
      expect((await fetch(`${again}/v0/agents`, { headers: { 'x-api-key': writeKey } })).status).toBe(200);
      const revoked = await fetch(`${again}/v0/agents`, { headers: { 'x-api-key': victim?.key ?? '' } });
      expect(revoked.status).toBe(401);
      // The case is there, and it moved on with the clock while the mock was down.
      const read = await json(`${again}/v0/moderation/cases/${caseId}`, {
        headers: { 'x-api-key': writeKey },
      });
      expect(read.status).toBe(200);
      expect(['completed', 'failed']).toContain(read.body['analysisStatus']);
      // The same submission is a duplicate of the kept case, not a second case.
      const duplicate = await json(`${again}/v0/moderation/cases`, {
        method: 'POST',
        headers: { 'x-api-key': writeKey },
        body: JSON.stringify(sampleSubmission({ externalId: 'kept-1' })),
      });
      expect(duplicate.body).toMatchObject({ caseId, status: 'duplicate' });
      // The clock kept its advance (and real time ran on).
      const clock = (await json(`${again}/__mock/clock`)).body['clock'] as { now: number };
      expect(clock.now).toBeGreaterThanOrEqual(clockBefore);
      const health = await json(`${again}/__mock/health`);
      expect(health.body).toMatchObject({ status: 'ready', store: { store: 'file', position: 6, lag: 0 } });
    },
    scaled(60_000),
  );

  it(
    'an answered write survives SIGKILL (each write is flushed to disk before its answer)',
    async () => {
      const base = mock?.url ?? '';
      const created = await json(`${base}/__mock/keys`, {
        method: 'POST',
        body: JSON.stringify({ organizationId: 'org_acme', profile: 'reporting', name: 'survives kill -9' }),
      });
      expect(created.status).toBe(201);
      await mock?.stop('SIGKILL');
      mock = await startMock([...FLAGS, '--state-file', file]);
      const keys = (await json(`${mock.url}/__mock/keys?organizationId=org_acme`)).body['keys'] as KeyView[];
      expect(keys.map((k) => k.key)).toContain((created.body['key'] as KeyView).key);
      await mock.stop('SIGTERM');
      mock = undefined;
    },
    scaled(60_000),
  );

  it(
    'refuses a file written with another seed, naming what differs, and applies nothing',
    async () => {
      const before = readFileSync(file, 'utf8');
      const run = await runMock([
        '--seed',
        '8',
        '--actions',
        '120',
        '--moderation-latency',
        '400',
        '--state-file',
        file,
      ]);
      expect(run.code).toBe(1);
      expect(run.output).toMatch(/was written by a mock started differently \(seed "7" there, "8" here/);
      expect(run.output).toContain('nothing was applied');
      expect(readFileSync(file, 'utf8')).toBe(before);
    },
    scaled(30_000),
  );

  it(
    'refuses a file with a damaged line in the middle, naming the line; a cut-off last line is dropped',
    async () => {
      const damaged = join(dir, 'damaged.state');
      const lines = readFileSync(file, 'utf8').split('\n');
      writeFileSync(
        damaged,
        [lines[0], '{"real": 1, "command": {"type": "no.such.command"}}', ...lines.slice(1)].join('\n'),
      );
      const refused = await runMock([...FLAGS, '--state-file', damaged]);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/damaged\.state line 2 holds a command this version does not know/);

      const cut = join(dir, 'cut.state');
      writeFileSync(cut, readFileSync(file, 'utf8'));
      appendFileSync(cut, '{"real": 17, "command": {"type": "keys.rev');
      const started = await startMock([...FLAGS, '--state-file', cut]);
      try {
        expect(started.output()).toMatch(/note: dropped a cut-off last line/);
        const health = await json(`${started.url}/__mock/health`);
        expect(health.body).toMatchObject({ status: 'ready', store: { store: 'file', position: 7 } });
      } finally {
        await started.stop('SIGTERM');
      }
      expect(readFileSync(cut, 'utf8').endsWith('\n')).toBe(true);
    },
    scaled(60_000),
  );
});
