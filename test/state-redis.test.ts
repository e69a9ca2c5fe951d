/**
 * `cca-kit mock --state redis://`: three real replicas of the built CLI share one command log in a
 * real Redis (Debian's redis-server on an ephemeral loopback port), behind a round-robin proxy.
 * Proves: `cca-kit conform --allow-writes` passes through the proxy; a key revoked through one replica
 * is refused at once by the others (spec 5.6); one externalId submitted at once through different
 * replicas gives exactly one case; a replica killed mid-run catches up when restarted; with Redis
 * lost, writes answer 503 with an error body and reads go on, and the replicas catch up when it is
 * back; all replicas restarted keep the state; a replica of another seed, or with no Redis, is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { runConformCommand } from '../src/cli/conform-command.ts';
import { KEY_ENV } from '../src/client/types.ts';
import { mockKeys } from '../suites/target.ts';
import { captureIo } from './support/cli-io.ts';
import { freePort } from './support/processes.ts';
import {
  json,
  type MockProcess,
  type RedisServer,
  type RoundRobinProxy,
  runMock,
  startMock,
  startRedis,
  startRoundRobinProxy,
} from './support/state-processes.ts';

const keys = mockKeys();
const ORG = 'org_acme';

describe('cca-kit mock --state redis:// (three replicas behind a round-robin proxy)', () => {
  let redis: RedisServer;
  let replicas: MockProcess[] = [];
  let proxy: RoundRobinProxy;
  const args = (): string[] => ['--seed', '42', '--state', redis.url];

  beforeAll(async () => {
    redis = await startRedis();
    replicas = await Promise.all([startMock(args()), startMock(args()), startMock(args())]);
    proxy = await startRoundRobinProxy(() => replicas.map((r) => r.url));
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all(replicas.map((r) => r.stop('SIGKILL')));
    await redis?.remove();
  });

  // The laws that write and read back what they wrote: the ones a replica lagging behind another would
  // fail. The read-only laws see one seeded data set on every replica and run against one mock elsewhere.
  it('cca-kit conform --allow-writes passes through the round-robin proxy (the laws that write)', async () => {
    const run = captureIo();
    const only = ['--only', 'auth,custom-fields,moderation,ingestion,stateful'];
    const code = await runConformCommand(['--allow-writes', ...only], run.io, {
      CCA_BASE_URL: proxy.url,
      [KEY_ENV.read]: keys.read,
      [KEY_ENV.write]: keys.write,
      [KEY_ENV.ingest]: keys.ingest,
      ...(keys.readWrite === undefined ? {} : { [KEY_ENV.readWrite]: keys.readWrite }),
      ...(keys.otherOrgRead === undefined ? {} : { [KEY_ENV.otherOrgRead]: keys.otherOrgRead }),
    });
    const report = run.out.join('');
    expect(report, report.slice(-4000)).toMatch(/RESULT: (PASS|CONFORMANT)/i);
    expect(code).toBe(0);
    expect(new Set(proxy.hits)).toEqual(new Set([0, 1, 2]));
  });

  it('a key revoked through one replica is refused at once by the others (spec 5.6)', async () => {
    const [a, b, c] = replicas as [MockProcess, MockProcess, MockProcess];
    const created = await json(`${a.url}/__mock/keys`, {
      method: 'POST',
      body: JSON.stringify({ organizationId: ORG, profile: 'reporting', name: 'revoked across replicas' }),
    });
    const key = (created.body['key'] as { key: string }).key;
    for (const replica of [b, c]) {
      expect((await fetch(`${replica.url}/v0/agents`, { headers: { 'x-api-key': key } })).status).toBe(200);
    }
    expect((await json(`${b.url}/__mock/keys/${key}/revoke`, { method: 'POST' })).status).toBe(200);
    for (const replica of [a, c]) {
      const refused = await json(`${replica.url}/v0/agents`, { headers: { 'x-api-key': key } });
      expect(refused.status).toBe(401);
      expect(refused.body['error']).toMatch(/revoked/);
    }
  });

  it('one externalId submitted at once through different replicas gives exactly one case', async () => {
    const submission = JSON.stringify(sampleSubmission({ externalId: 'race-across-replicas' }));
    const answers = await Promise.all(
      [...replicas, ...replicas, ...replicas].map((replica) =>
        json(`${replica.url}/v0/moderation/cases`, {
          method: 'POST',
          headers: { 'x-api-key': keys.write ?? '' },
          body: submission,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    const statuses = answers.map((a) => a.body['status']).sort();
    expect(statuses).toEqual(['accepted', ...Array(8).fill('duplicate')]);
    expect(new Set(answers.map((a) => a.body['caseId'])).size).toBe(1);
    for (const replica of replicas) {
      const cases = (await json(`${replica.url}/__mock/moderation/cases?organizationId=${ORG}`)).body[
        'cases'
      ] as { externalId: string }[];
      expect(cases.filter((c) => c.externalId === 'race-across-replicas')).toHaveLength(1);
    }
  });

  it('a replica killed mid-run catches up from the log when restarted', async () => {
    await replicas[2]?.stop('SIGKILL');
    const created = await json(`${replicas[0]?.url}/__mock/keys`, {
      method: 'POST',
      body: JSON.stringify({
        organizationId: ORG,
        profile: 'read_write',
        name: 'written while one was down',
      }),
    });
    const key = (created.body['key'] as { key: string }).key;
    replicas[2] = await startMock(args());
    expect((await fetch(`${replicas[2].url}/v0/agents`, { headers: { 'x-api-key': key } })).status).toBe(200);
    const healths = await Promise.all(replicas.map((r) => json(`${r.url}/__mock/health`)));
    const positions = healths.map((h) => (h.body['store'] as { position: number }).position);
    expect(new Set(positions).size).toBe(1);
    expect(healths[2]?.body).toMatchObject({
      status: 'ready',
      store: { store: 'redis', lag: 0, connected: true },
    });
  });

  it('Redis lost: writes answer 503 with an error body, reads answer locally; back: every replica catches up', async () => {
    const [a, b] = replicas as [MockProcess, MockProcess];
    await redis.stop();
    const refused = await json(`${a.url}/__mock/keys`, {
      method: 'POST',
      body: JSON.stringify({ organizationId: ORG, profile: 'reporting' }),
    });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ success: false });
    expect(refused.body['error']).toMatch(/Service unavailable: .*nothing was changed/);
    const submitted = await json(`${b.url}/v0/moderation/cases`, {
      method: 'POST',
      headers: { 'x-api-key': keys.write ?? '' },
      body: JSON.stringify(sampleSubmission({ externalId: 'while-redis-is-down' })),
    });
    expect(submitted.status).toBe(503);
    expect(submitted.body['success']).toBe(false);
    expect((await fetch(`${a.url}/v0/agents`, { headers: { 'x-api-key': keys.read ?? '' } })).status).toBe(
      200,
    );
    expect((await json(`${a.url}/__mock/health`)).status).toBe(503);

    await redis.restart();
    // The client reconnects on its own (backoff up to 1 s); then writes go through again.
    let created: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
    for (let attempt = 0; attempt < 50 && created.status !== 201; attempt++) {
      created = await json(`${b.url}/__mock/keys`, {
        method: 'POST',
        body: JSON.stringify({ organizationId: ORG, profile: 'reporting', name: 'after redis came back' }),
      });
      if (created.status !== 201) await new Promise((r) => setTimeout(r, 200));
    }
    expect(created.status).toBe(201);
    const key = (created.body['key'] as { key: string }).key;
    let seen = 0;
    for (let attempt = 0; attempt < 50 && seen !== 200; attempt++) {
      seen = (await fetch(`${a.url}/v0/agents`, { headers: { 'x-api-key': key } })).status;
      if (seen !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(seen).toBe(200);
  });

  it('all replicas restarted: the state is still there', async () => {
    const before = (await json(`${replicas[0]?.url}/__mock/keys?organizationId=${ORG}`)).body['keys'];
    await Promise.all(replicas.map((r) => r.stop('SIGTERM')));
    replicas = await Promise.all([startMock(args()), startMock(args()), startMock(args())]);
    for (const replica of replicas) {
      expect((await json(`${replica.url}/__mock/keys?organizationId=${ORG}`)).body['keys']).toEqual(before);
      const cases = (await json(`${replica.url}/__mock/moderation/cases?organizationId=${ORG}`)).body[
        'cases'
      ] as { externalId: string }[];
      expect(cases.filter((c) => c.externalId === 'race-across-replicas')).toHaveLength(1);
    }
  });

  it('a replica started with another seed is refused, naming the difference; no Redis at start is a clear error', async () => {
    const other = await runMock(['--seed', '43', '--state', redis.url]);
    expect(other.code).toBe(1);
    expect(other.output).toMatch(/was written by a mock started differently \(seed "42" there, "43" here/);
    const closed = await freePort();
    const none = await runMock(['--seed', '42', '--state', `redis://127.0.0.1:${closed}/0`]);
    expect(none.code).toBe(1);
    expect(none.output).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/0/);
  });
});
