/**
 * No key value at rest or in a log. Through the built CLI on a `--state-file` and on a real
 * redis-server, with a snapshot after every command: keys of every kind (seeded, created through the
 * admin API, loaded by value with POST and PUT /__mock/data, some shorter than 18 characters), writes
 * of every kind, keys sent in query strings, revocations by value, by id and by hash, a reset, two
 * exports. Then every byte the sandbox keeps or shows is searched for every key value: the state
 * file and its snapshots; every Redis key (stream entries, snapshots decoded) and Redis's
 * append-only files; the exports; what the process wrote after its start-up banner; and every admin
 * answer (all GET routes, every journal entry, every write's answer) but the two whose job is to hand
 * a key out (the key list and a creation's answer). A restart from the snapshot, and a fresh mock
 * loaded with an export, still take the keys. Logs of older versions that carry key values replay.
 */
import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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

const afterBanner = (output: string): string => output.slice(output.indexOf(BANNER_END) + BANNER_END.length);

/** Admin routes whose job is to hand a key value out: the list, and the answer to a creation. */
const HANDS_OUT_KEYS = new Set(['GET /__mock/keys', 'POST /__mock/keys']);

const ORG = { id: 'org_team', name: 'Team' };
/** Loaded by value with POST /__mock/data (one shorter than 18 characters: no seal ever covered it). */
const MERGED = ['team_merge_read_write_9c1e4b7a5d', 'short_k1'];
/** Loaded by value with PUT /__mock/data. */
const REPLACED = ['team_put_write_5e2d0a11', 'short_k2x', 'team_put_revoked_77ab'];

/** A sandbox: every answer it gave, by request, kept for the search. */
class Sandbox {
  readonly answers: { readonly where: string; readonly text: string }[] = [];
  constructor(readonly base: string) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-api-key': key }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const route = `${method} ${path.replace(/\?.*$/, '')}`;
    if (path.startsWith('/__mock/') && !HANDS_OUT_KEYS.has(route))
      this.answers.push({ where: `answer to ${method} ${path}`, text });
    return {
      status: response.status,
      body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  }
}

const dataFile = (values: readonly string[], revoked: readonly string[] = []) => ({
  version: 1,
  organizations: [ORG],
  keys: values.map((key, i) => ({
    key,
    organizationId: ORG.id,
    profile: i === 0 ? 'read_write' : 'reporting',
    expiresAt: null,
    ...(revoked.includes(key) ? { status: 'revoked' } : {}),
  })),
});

/**
 * Everything after writeEverything's reset: created keys, a merged file, keys in query strings,
 * revocations by id and by hash, an export; then a replacing file, more of the same, a second export.
 */
async function loadAndExport(box: Sandbox, created: string[]): Promise<{ exports: string[] }> {
  for (const profile of ['reporting', 'write']) {
    const made = await box.call('POST', '/__mock/keys', {
      organizationId: 'org_acme',
      profile,
      expiry: 'none',
    });
    expect(made.status).toBe(201);
    created.push((made.body['key'] as KeyView).key);
  }
  // The last one is revoked below, the one before stays active.
  const after = created.at(-1) ?? '';
  expect((await box.call('POST', '/__mock/data', dataFile(MERGED))).status).toBe(200);
  for (const key of MERGED) expect((await box.call('GET', '/v0/agents', undefined, key)).status).toBe(200);
  await box.call('GET', `/v0/agents?apiKey=${MERGED[1]}&token=${after}`, undefined, MERGED[0]);
  await box.call('GET', `/v0/action/list?pageSize=0&key=${MERGED[0]}`, undefined, MERGED[1]);
  // Revoked by hash: the form an export names it by.
  const listed = (await box.call('GET', '/__mock/keys')).body['keys'] as (KeyView & { keyHash: string })[];
  const hashOfAfter = listed.find((k) => k.key === after)?.keyHash ?? '';
  expect(hashOfAfter).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect((await box.call('POST', `/__mock/keys/${hashOfAfter}/revoke`)).status).toBe(200);
  expect((await box.call('GET', '/v0/agents', undefined, after)).status).toBe(401);
  const first = await box.call('GET', '/__mock/data');
  expect(first.status).toBe(200);
  const firstText = JSON.stringify(first.body);
  expect(firstText).toContain('"keyHash":"sha256:');

  expect((await box.call('PUT', '/__mock/data', dataFile(REPLACED, [REPLACED[2] ?? '']))).status).toBe(200);
  expect((await box.call('GET', '/v0/agents', undefined, REPLACED[1])).status).toBe(200);
  expect((await box.call('GET', '/v0/agents', undefined, REPLACED[2])).status).toBe(401);
  await box.call('GET', `/v0/agents?api_key=${REPLACED[1]}`, undefined, REPLACED[0]);
  expect((await box.call('POST', `/__mock/keys/${REPLACED[1]}/revoke`)).status).toBe(200);
  const second = await box.call('GET', '/__mock/data');
  return { exports: [firstText, JSON.stringify(second.body)] };
}

/** Every admin GET route's answer, every journal entry and every organization's policy. */
async function adminReads(box: Sandbox): Promise<void> {
  for (const path of [
    '/__mock/violations',
    '/__mock/journal',
    '/__mock/health',
    '/__mock/organizations',
    '/__mock/clock',
    '/__mock/chaos',
    '/__mock/faults',
    '/__mock/moderation/cases',
    '/__mock/ingestion/batches',
    '/__mock/ingestion/stats',
    '/__mock/replies',
    '/__mock/data',
  ])
    await box.call('GET', path);
  const journal = (await box.call('GET', '/__mock/journal?limit=1000')).body as {
    entries?: { seq: number }[];
  };
  expect(journal.entries?.length).toBeGreaterThan(10);
  for (const entry of journal.entries ?? []) await box.call('GET', `/__mock/journal/${entry.seq}`);
  const orgs = (await box.call('GET', '/__mock/organizations')).body['organizations'] as { id: string }[];
  for (const org of orgs) await box.call('GET', `/__mock/organizations/${org.id}/policy`);
}

/** `bytes` as the texts a value may hide in: latin1 and UTF-16 (v8 writes strings in either). */
const textsOf = (bytes: Buffer): string => `${bytes.toString('latin1')}\n${bytes.toString('utf16le')}`;

/**
 * The text of `bytes` and of every long base64 run in it, decoded: Redis's append-only file keeps
 * every snapshot ever written, each base64-encoded, not only the latest that a GET returns.
 */
const withDecodedRuns = (bytes: Buffer): string => {
  const runs = bytes.toString('latin1').match(/[A-Za-z0-9+/]{64,}={0,2}/g) ?? [];
  return [textsOf(bytes), ...runs.map((run) => textsOf(Buffer.from(run, 'base64')))].join('\n');
};

/** Every file under `dir`, by path. */
function filesUnder(dir: string): { where: string; text: string }[] {
  const out: { where: string; text: string }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push({ where: path, text: withDecodedRuns(readFileSync(path)) });
  }
  return out;
}

/** Where any of `values` occurs: `where: value` for each. */
function leaksIn(places: readonly { where: string; text: string }[], values: readonly string[]): string[] {
  return places.flatMap((place) =>
    values.filter((v) => place.text.includes(v)).map((v) => `${place.where}: ${v}`),
  );
}

describe('no key value at rest or in a log', () => {
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

  /** Every Redis key's content (stream entries, snapshots decoded from base64), and Redis's own files. */
  const redisContents = async (): Promise<{ where: string; text: string }[]> => {
    const client = createClient({ url: redis.url, RESP: 2 });
    await client.connect();
    const out: { where: string; text: string }[] = [];
    const names = await client.sendCommand<string[]>(['KEYS', '*']);
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) {
      const type = await client.sendCommand<string>(['TYPE', name]);
      const where = `redis ${type} ${name}`;
      if (type === 'string') {
        const value = (await client.sendCommand<string>(['GET', name])) ?? '';
        out.push(
          { where, text: value },
          { where: `${where} (base64-decoded)`, text: textsOf(Buffer.from(value, 'base64')) },
        );
      } else if (type === 'stream') {
        const entries = await client.sendCommand<unknown[]>(['XRANGE', name, '-', '+']);
        out.push({ where, text: JSON.stringify(entries) });
      } else if (type === 'hash')
        out.push({ where, text: JSON.stringify(await client.sendCommand(['HGETALL', name])) });
      else if (type === 'list')
        out.push({ where, text: JSON.stringify(await client.sendCommand(['LRANGE', name, '0', '-1'])) });
      else if (type === 'set')
        out.push({ where, text: JSON.stringify(await client.sendCommand(['SMEMBERS', name])) });
      else if (type === 'zset')
        out.push({ where, text: JSON.stringify(await client.sendCommand(['ZRANGE', name, '0', '-1'])) });
      else throw new Error(`${where}: a type this test cannot read`);
    }
    client.destroy();
    return [...out, ...filesUnder(redis.dir)];
  };
  const redisWipe = async (): Promise<void> => {
    const client = createClient({ url: redis.url, RESP: 2 });
    await client.connect();
    await client.sendCommand(['FLUSHALL']);
    client.destroy();
  };

  for (const store of ['--state-file', '--state redis://'] as const) {
    it(
      `${store}: no seeded, created or loaded key value in the store, its snapshots, the exports, the output or an admin answer`,
      async () => {
        const file = join(dir, `sandbox-${store.length}.state`);
        const args =
          store === '--state-file'
            ? ['--seed', '42', '--state-file', file]
            : ['--seed', '42', '--state', redis.url];
        if (store !== '--state-file') await redisWipe();
        process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '1';
        const mock = await startMock(args).finally(() => {
          delete process.env['CCA_MOCK_SNAPSHOT_EVERY'];
        });
        mocks.push(mock);
        const created = await writeEverything(mock.url);
        const box = new Sandbox(mock.url);
        const { exports } = await loadAndExport(box, created);
        await adminReads(box);
        const all = [...SEEDED, ...created, ...MERGED, ...REPLACED];
        expect(all.filter((v) => v.length < 18).length).toBeGreaterThan(1);
        const atRest =
          store === '--state-file'
            ? filesUnder(dir).filter((f) => f.where.startsWith(file))
            : await redisContents();
        expect(atRest.some((f) => /snapshot/.test(f.where))).toBe(true);
        const places = [
          ...atRest,
          ...exports.map((text, i) => ({ where: `export ${i + 1}`, text })),
          ...box.answers,
          { where: 'process output after the banner', text: afterBanner(mock.output()) },
        ];
        expect(places.map((p) => p.text).join('\n')).toContain('org_team');
        expect(leaksIn(places, all)).toEqual([]);
        // The violation log saw the query-string keys and shows them masked.
        expect(box.answers.find((a) => a.where === 'answer to GET /__mock/violations')?.text).toContain(
          'apiKey=[masked]',
        );

        // A restart from the snapshot still takes the loaded keys, and still refuses the revoked one.
        await mock.stop('SIGTERM');
        const again = await startMock(args);
        mocks.push(again);
        expect(again.output()).not.toMatch(/snapshot (refused|not loaded|ignored)/i);
        expect(
          (await fetch(`${again.url}/v0/agents`, { headers: { 'x-api-key': REPLACED[0] ?? '' } })).status,
        ).toBe(200);
        expect(
          (await fetch(`${again.url}/v0/agents`, { headers: { 'x-api-key': REPLACED[1] ?? '' } })).status,
        ).toBe(401);
        await again.stop('SIGTERM');

        // The first export (seeded, created and merged keys, by hash) loaded into a fresh mock: the same keys work.
        const exported = join(dir, `export-${store.length}.json`);
        writeFileSync(exported, exports[0] ?? '');
        const fresh = await startMock(['--data', exported]);
        mocks.push(fresh);
        const keyOf = (k: string) => ({ headers: { 'x-api-key': k } });
        for (const key of [...MERGED, created.at(-2) ?? '', SEEDED[0] ?? ''])
          expect((await fetch(`${fresh.url}/v0/agents`, keyOf(key))).status, key).toBe(200);
        expect((await fetch(`${fresh.url}/v0/agents`, keyOf(created.at(-1) ?? ''))).status).toBe(401);
        await fresh.stop('SIGTERM');
      },
      scaled(90_000),
    );
  }

  it(
    'an older log that loaded a data file with keys by value still replays: the keys work, the values are not kept',
    async () => {
      const file = join(dir, 'old-data.state');
      const first = await startMock(['--seed', '42', '--state-file', file]);
      mocks.push(first);
      await first.stop('SIGTERM');
      appendFileSync(
        file,
        `${JSON.stringify({ real: Date.now(), command: { type: 'data.merge', file: dataFile(MERGED) } })}\n`,
      );
      process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '1';
      const again = await startMock(['--seed', '42', '--state-file', file]).finally(() => {
        delete process.env['CCA_MOCK_SNAPSHOT_EVERY'];
      });
      mocks.push(again);
      for (const key of MERGED)
        expect((await fetch(`${again.url}/v0/agents`, { headers: { 'x-api-key': key } })).status).toBe(200);
      // Snapshots compact the old command away (the log keeps what the one before the last covers).
      for (let i = 0; i < 3; i += 1)
        await json(`${again.url}/__mock/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: 1 }) });
      // A compaction runs beside the writes: stopped, the mock finishes it, and the files hold still.
      await again.stop('SIGTERM');
      expect(
        leaksIn(
          filesUnder(dir).filter((f) => f.where.startsWith(file)),
          MERGED,
        ),
      ).toEqual([]);
    },
    scaled(60_000),
  );

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
