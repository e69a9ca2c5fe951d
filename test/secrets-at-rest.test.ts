/**
 * No key value at rest or in a log: after writes of every kind (keys created and revoked, by value and
 * by id, moderation, custom fields, ingestion, clock, policy, mode, reset) through the built CLI on a
 * `--state-file` and on a real redis-server, no seeded key (fixtures/keys.json) and no created key
 * appears in the state file, in any Redis key (the stream, the origin), in what the process wrote
 * after its start-up banner, or in the admin answers that show traffic and state: violations (a key
 * sent in a query string too), journal, health, moderation cases, ingestion batches. A revocation
 * logged by an older version with the key's value still replays, as a revocation by id.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import keysJson from '../fixtures/keys.json' with { type: 'json' };
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { mockKeys } from '../suites/target.ts';
import {
  json,
  type MockProcess,
  type RedisServer,
  startMock,
  startRedis,
} from './support/state-processes.ts';
import { scaled } from './support/timeouts.ts';

const keys = mockKeys();
const SEEDED = (keysJson as readonly { key: string }[]).map((k) => k.key);
const BANNER_END = 'Press Ctrl+C to stop.';

interface KeyView {
  readonly id: string;
  readonly key: string;
  readonly organizationId: string;
  readonly profile: string;
  readonly status: string;
}

/** Writes of every kind a client or an operator makes; returns the key values it created. */
async function writeEverything(base: string): Promise<string[]> {
  const created: string[] = [];
  for (const name of ['one', 'two', 'three']) {
    const answer = await json(`${base}/__mock/keys`, {
      method: 'POST',
      body: JSON.stringify({ organizationId: 'org_acme', profile: 'read_write', name }),
    });
    expect(answer.status).toBe(201);
    created.push((answer.body['key'] as KeyView).key);
  }
  const listed = (await json(`${base}/__mock/keys`)).body['keys'] as KeyView[];
  const [byValue, byId] = created;
  const seededVictim = listed.find((k) => k.key === SEEDED.at(-1));
  expect((await json(`${base}/__mock/keys/${byValue}/revoke`, { method: 'POST' })).status).toBe(200);
  const idOf = listed.find((k) => k.key === byId)?.id ?? '';
  expect(idOf).toMatch(/^key_[0-9a-f]{16}$/);
  expect((await json(`${base}/__mock/keys/${idOf}/revoke`, { method: 'POST' })).status).toBe(200);
  expect((await json(`${base}/__mock/keys/${seededVictim?.key}/revoke`, { method: 'POST' })).status).toBe(
    200,
  );

  const writer = created[2] ?? '';
  const submitted = await json(`${base}/v0/moderation/cases`, {
    method: 'POST',
    headers: { 'x-api-key': keys.write ?? '' },
    body: JSON.stringify(sampleSubmission({ externalId: 'secret-1' })),
  });
  expect(submitted.status).toBe(202);
  await json(`${base}/v0/moderation/cases/batch`, {
    method: 'POST',
    headers: { 'x-api-key': keys.write ?? '' },
    body: JSON.stringify({ cases: [sampleSubmission({ externalId: 'secret-2' })] }),
  });
  const list = await json(`${base}/v0/action/list?pageSize=1`, { headers: { 'x-api-key': writer } });
  const actionId = ((list.body['data'] as { actionId?: string; id?: string }[])[0] ?? {}) as {
    actionId?: string;
    id?: string;
  };
  await json(
    `${base}/v0/actions/${encodeURIComponent(actionId.actionId ?? actionId.id ?? 'x')}/custom-fields`,
    {
      method: 'PATCH',
      headers: { 'x-api-key': writer },
      body: JSON.stringify({ fields: [{ fieldName: 'order_number', value: 'ORD-1' }] }),
    },
  );
  await json(`${base}/v0/ingest/records`, {
    method: 'POST',
    headers: { 'x-api-key': keys.ingest ?? '' },
    body: JSON.stringify({
      platform: 'DISCORD',
      serverId: '000042',
      serverName: 'Guild',
      records: [
        {
          externalId: 'secret-r-1',
          authorName: 'Zoë',
          body: 'a body',
          createdAt: '2026-11-20T10:00:00Z',
          recordType: 'message',
        },
      ],
    }),
  });
  await json(`${base}/__mock/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: 60_000 }) });
  await json(`${base}/__mock/organizations/org_acme/policy`, { method: 'POST', body: '{}' });
  await json(`${base}/__mock/organizations/org_acme/moderation-mode`, {
    method: 'PUT',
    body: JSON.stringify({ mode: 'ad_policy' }),
  });
  // A key sent where it does not belong: in a query string (an undeclared parameter), and a bad request.
  await fetch(`${base}/v0/agents?apiKey=${writer}&api_key=${SEEDED[0]}`, {
    headers: { 'x-api-key': writer },
  });
  await fetch(`${base}/v0/action/list?pageSize=0&key=${writer}`, { headers: { 'x-api-key': writer } });
  await json(`${base}/__mock/reset`, { method: 'POST' });
  return created;
}

/** Admin answers that show traffic or state (not `GET /__mock/keys`, whose job is to hand keys out). */
async function adminAnswers(base: string): Promise<string> {
  const texts: string[] = [];
  for (const path of [
    '/__mock/violations',
    '/__mock/journal',
    '/__mock/health',
    '/__mock/moderation/cases',
    '/__mock/ingestion/batches',
    '/__mock/organizations',
  ]) {
    texts.push(await (await fetch(`${base}${path}`)).text());
  }
  const journal = JSON.parse(texts[1] ?? '{}') as { entries?: { seq: number }[] };
  expect(journal.entries?.length).toBeGreaterThan(5);
  for (const entry of journal.entries ?? [])
    texts.push(await (await fetch(`${base}/__mock/journal/${entry.seq}`)).text());
  return texts.join('\n');
}

const afterBanner = (output: string): string => output.slice(output.indexOf(BANNER_END) + BANNER_END.length);

function leaks(text: string, values: readonly string[]): string[] {
  return values.filter((value) => text.includes(value));
}

describe('no key value at rest or in a log', () => {
  /** Every Redis key's bytes (a snapshot decoded from its base64). */
  const redisContents = async (): Promise<Buffer[]> => {
    const client = createClient({ url: redis.url, RESP: 2 });
    await client.connect();
    const out: Buffer[] = [];
    for (const name of await client.sendCommand<string[]>(['KEYS', '*'])) {
      const type = await client.sendCommand<string>(['TYPE', name]);
      if (type === 'string' && /:snapshot(\.prev)?$/.test(name))
        out.push(Buffer.from((await client.sendCommand<string>(['GET', name])) ?? '', 'base64'));
      else if (type === 'stream')
        out.push(Buffer.from(JSON.stringify(await client.sendCommand(['XRANGE', name, '-', '+']))));
      else if (type === 'string')
        out.push(Buffer.from((await client.sendCommand<string>(['GET', name])) ?? ''));
    }
    client.destroy();
    return out;
  };
  const redisWipe = async (): Promise<void> => {
    const client = createClient({ url: redis.url, RESP: 2 });
    await client.connect();
    await client.sendCommand(['FLUSHALL']);
    client.destroy();
  };
  const dir = mkdtempSync(join(tmpdir(), 'cca-secrets-'));
  let redis: RedisServer;
  const mocks: MockProcess[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(mocks.map((m) => m.stop('SIGKILL')));
    await redis?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    '--state-file: the file, the process output and the admin answers hold no seeded or created key',
    async () => {
      const file = join(dir, 'sandbox.state');
      const mock = await startMock(['--seed', '42', '--state-file', file]);
      mocks.push(mock);
      const created = await writeEverything(mock.url);
      const all = [...SEEDED, ...created];
      expect(leaks(readFileSync(file, 'utf8'), all)).toEqual([]);
      expect(leaks(await adminAnswers(mock.url), all)).toEqual([]);
      expect(leaks(afterBanner(mock.output()), all)).toEqual([]);
      // The violation log saw the query-string key and shows it masked.
      const violations = await (await fetch(`${mock.url}/__mock/violations`)).text();
      expect(violations).toContain('apiKey=[masked]');
    },
    scaled(60_000),
  );

  it(
    '--state redis://: every Redis key (stream entries, origin) holds no seeded or created key',
    async () => {
      const mock = await startMock(['--seed', '42', '--state', redis.url]);
      mocks.push(mock);
      const created = await writeEverything(mock.url);
      const all = [...SEEDED, ...created];
      const client = createClient({ url: redis.url, RESP: 2 });
      await client.connect();
      const stored: string[] = [];
      for (const name of await client.sendCommand<string[]>(['KEYS', '*'])) {
        const type = await client.sendCommand<string>(['TYPE', name]);
        // A snapshot is the serialised state, stored as base64: read as the bytes it holds.
        if (type === 'string' && /:snapshot(\.prev)?$/.test(name)) {
          const image = Buffer.from((await client.sendCommand<string>(['GET', name])) ?? '', 'base64');
          stored.push(image.toString('latin1'), image.toString('utf16le'));
          continue;
        }
        if (type === 'stream')
          stored.push(JSON.stringify(await client.sendCommand(['XRANGE', name, '-', '+'])));
        else if (type === 'string') stored.push((await client.sendCommand<string>(['GET', name])) ?? '');
        else stored.push(`${name}: ${type}`);
      }
      client.destroy();
      // The reset compacted the revocations into a snapshot: the stream holds what came after it.
      expect(stored.join('\n')).toMatch(/\\?"type\\?":\\?"reset/);
      expect(leaks(stored.join('\n'), all)).toEqual([]);
      expect(leaks(await adminAnswers(mock.url), all)).toEqual([]);
      expect(leaks(afterBanner(mock.output()), all)).toEqual([]);
    },
    scaled(60_000),
  );

  // A snapshot is the engine state serialised, key table included: the values it can derive again
  // (seeded and created keys) are sealed, and a restart from it still takes every key.
  it(
    'a snapshot holds no seeded or created key value, and a restart from it serves the created key',
    async () => {
      const file = join(dir, 'snapshotted.state');
      // A snapshot after every command: the one written after the key is created holds it.
      process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '1';
      const mock = await startMock(['--seed', '42', '--state-file', file]).finally(() => {
        delete process.env['CCA_MOCK_SNAPSHOT_EVERY'];
      });
      mocks.push(mock);
      const answer = await json(`${mock.url}/__mock/keys`, {
        method: 'POST',
        body: JSON.stringify({ organizationId: 'org_acme', profile: 'reporting', name: 'sealed' }),
      });
      expect(answer.status).toBe(201);
      const created = (answer.body['key'] as KeyView).key;
      const image = readFileSync(`${file}.snapshot`);
      const text = `${image.toString('latin1')}\n${image.toString('utf16le')}`;
      expect(text).toContain('sealed');
      expect(leaks(text, [...SEEDED, created])).toEqual([]);
      await mock.stop('SIGTERM');
      const again = await startMock(['--seed', '42', '--state-file', file]);
      mocks.push(again);
      for (const key of [created, SEEDED[0] ?? ''])
        expect((await fetch(`${again.url}/v0/agents`, { headers: { 'x-api-key': key } })).status).toBe(200);
    },
    scaled(60_000),
  );

  // The keys a start-up data file gives by value: the engine holds them again at every start (a
  // snapshot is loaded only with the same files), so snapshots seal them as they seal seeded keys.
  for (const store of ['--state-file', '--state redis://'] as const) {
    it(
      `${store}: a snapshot holds no key a start-up data file gives by value, and a restart still takes them`,
      async () => {
        const data = join(dir, `team-${store.length}.json`);
        const own = ['team_sandbox_reporting_7f3a9c', 'team_sandbox_read_write_51d0e2'];
        writeFileSync(
          data,
          JSON.stringify({
            version: 1,
            organizations: [{ id: 'org_team', name: 'Team' }],
            keys: [
              { key: own[0], organizationId: 'org_team', profile: 'reporting', expiresAt: null },
              { key: own[1], organizationId: 'org_team', profile: 'read_write', expiresAt: null },
            ],
          }),
        );
        const file = join(dir, `team-${store.length}.state`);
        const args =
          store === '--state-file'
            ? ['--seed', '42', '--data', data, '--state-file', file]
            : ['--seed', '42', '--data', data, '--state', redis.url];
        if (store !== '--state-file') await redisWipe();
        process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '1';
        const mock = await startMock(args).finally(() => {
          delete process.env['CCA_MOCK_SNAPSHOT_EVERY'];
        });
        mocks.push(mock);
        for (const key of own)
          expect((await fetch(`${mock.url}/v0/agents`, { headers: { 'x-api-key': key } })).status).toBe(200);
        // Writes of every kind, each followed by a snapshot of the whole state (the data file's included).
        const created = await writeEverything(mock.url);
        const all = [...own, ...SEEDED, ...created];
        const atRest =
          store === '--state-file'
            ? [readFileSync(file), readFileSync(`${file}.snapshot`)]
            : await redisContents();
        const text = atRest.map((b) => `${b.toString('latin1')}\n${b.toString('utf16le')}`).join('\n');
        expect(text).toContain('org_team');
        expect(leaks(text, all)).toEqual([]);
        expect(leaks(await adminAnswers(mock.url), all)).toEqual([]);
        expect(leaks(afterBanner(mock.output()), all)).toEqual([]);
        await mock.stop('SIGTERM');
        const again = await startMock(args);
        mocks.push(again);
        expect(again.output()).not.toMatch(/snapshot (refused|not loaded|ignored)/i);
        for (const key of own)
          expect((await fetch(`${again.url}/v0/agents`, { headers: { 'x-api-key': key } })).status).toBe(200);
        await again.stop('SIGTERM');
      },
      scaled(60_000),
    );
  }

  it(
    'an older log that revoked a key by its value still replays: the key stays revoked',
    async () => {
      const file = join(dir, 'old.state');
      const first = await startMock(['--seed', '42', '--state-file', file]);
      mocks.push(first);
      const victim = SEEDED[0] ?? '';
      expect((await fetch(`${first.url}/v0/agents`, { headers: { 'x-api-key': victim } })).status).toBe(200);
      await first.stop('SIGTERM');
      appendFileSync(
        file,
        `${JSON.stringify({ real: Date.now(), command: { type: 'keys.revoke', key: victim } })}\n`,
      );
      const again = await startMock(['--seed', '42', '--state-file', file]);
      mocks.push(again);
      expect((await fetch(`${again.url}/v0/agents`, { headers: { 'x-api-key': victim } })).status).toBe(401);
    },
    scaled(60_000),
  );
});
