/**
 * A write whose outcome the mock cannot know (its shared log took the command, or may have, and the
 * answer was lost) is answered 503 saying the outcome is unknown and what to read, never "nothing was
 * changed"; a later read shows which it was. Real redis-server, two replicas in this process on
 * loopback ports: W, whose Redis user loses the right to read the stream (its read-back fails after
 * the command is in the log), and R, which reads what the log holds. Then Redis is paused for writes
 * and killed with W's command in flight: the command never reached the log, and the answer says only
 * that it may have.
 */
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJournal } from '../mocks/engine/journal/index.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';
import { openRedisStore, parseRedisLocation, type RedisLocation } from '../mocks/engine/store/redis.ts';
import type { CommandStore } from '../mocks/engine/store/types.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { validateSchema } from '../src/contract/index.ts';
import { mockKeys } from '../suites/target.ts';
import { json, type RedisServer, startRedis } from './support/state-processes.ts';
import { scaled } from './support/timeouts.ts';

const keys = mockKeys();
const OPTIONS = { seed: 42, actions: 200, selfCheck: true } as const;

interface Replica {
  readonly server: MockServer;
  readonly store: CommandStore;
}

async function replica(url: string): Promise<Replica> {
  const location = parseRedisLocation(url) as RedisLocation;
  const { engine, store } = await createPersistentEngine(
    { ...OPTIONS, interceptors: [createJournal()] },
    // A short read-back wait: the writes below that cannot be read back give up after it, not after 5 s.
    (describe, proposal) => openRedisStore(location, describe, proposal, { readBackMs: scaled(500) }),
  );
  const server = await startMockServer({ engine, agent: false });
  return { server, store };
}

const submit = (base: string, externalId: string) =>
  json(`${base}/v0/moderation/cases`, {
    method: 'POST',
    headers: { 'x-api-key': keys.write ?? '' },
    body: JSON.stringify(sampleSubmission({ externalId })),
  });

/** The answer of a write once the store answers again (a 503 "nothing was changed" is retried). */
async function once(write: () => Promise<{ status: number; body: Record<string, unknown> }>) {
  const deadline = Date.now() + scaled(10_000);
  for (;;) {
    const answer = await write();
    if (answer.status !== 503 || Date.now() > deadline) return answer;
    expect(answer.body['error']).toMatch(/nothing was changed/);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expectUnknown(
  answer: { status: number; body: Record<string, unknown> },
  inLog: boolean,
  read: RegExp,
): void {
  expect(answer.status).toBe(503);
  expect(answer.body['outcome']).toBe('unknown');
  expect(answer.body['inLog']).toBe(inLog);
  expect(answer.body['readBeforeRetry']).toMatch(read);
  expect(answer.body['error']).toMatch(/outcome of this write is unknown/);
  expect(answer.body['error']).not.toMatch(/nothing was changed/);
  // The general error body of section 7, with the mock's extension fields beside it.
  expect(validateSchema('ErrorBody', answer.body, 'response').ok).toBe(true);
}

describe('a write of unknown outcome on a Redis-shared sandbox', () => {
  let redis: RedisServer;
  let admin: ReturnType<typeof createClient>;
  let writer: Replica;
  let reader: Replica;

  beforeAll(async () => {
    redis = await startRedis();
    admin = createClient({ url: redis.url, RESP: 2 });
    admin.on('error', () => undefined);
    await admin.connect();
    // Every entry on disk before Redis is killed below: the log R applied must still be the log.
    await admin.sendCommand(['CONFIG', 'SET', 'appendfsync', 'always']);
    await admin.sendCommand(['ACL', 'SETUSER', 'w', 'on', '>w-pass', '~*', '&*', '+@all']);
    writer = await replica(`redis://w:w-pass@127.0.0.1:${redis.port}/0`);
    reader = await replica(redis.url);
  });
  afterAll(async () => {
    for (const r of [writer, reader]) {
      await r?.server.close();
      await r?.store.close();
    }
    admin?.destroy();
    await redis?.remove();
  });

  it('in the log but not read back: 503 outcome unknown, inLog; a resend through another replica is a duplicate of the case it made', async () => {
    await admin.sendCommand(['ACL', 'SETUSER', 'w', '-xread', '-xrange']);
    const lost = await submit(writer.server.url, 'unknown-applied');
    expectUnknown(lost, true, /POST the same submission again/);
    expect(lost.body['error']).toMatch(/in the log .* could not be read back/);

    const resent = await submit(reader.server.url, 'unknown-applied');
    expect(resent.status).toBe(202);
    expect(resent.body['status']).toBe('duplicate');
    const caseId = resent.body['caseId'] as string;
    const read = await json(`${reader.server.url}/v0/moderation/cases/${caseId}`, {
      headers: { 'x-api-key': keys.read ?? '' },
    });
    expect(read.status).toBe(200);

    // An admin write names the route to read: the key it created is there.
    const before = (await json(`${reader.server.url}/__mock/keys?organizationId=org_acme`)).body[
      'keys'
    ] as unknown[];
    const created = await json(`${writer.server.url}/__mock/keys`, {
      method: 'POST',
      body: JSON.stringify({ organizationId: 'org_acme', name: 'made while unread' }),
    });
    expectUnknown(created, true, /GET \/__mock\/keys\?organizationId=org_acme/);
    const after = (await json(`${reader.server.url}/__mock/keys?organizationId=org_acme`)).body['keys'] as {
      name: string;
    }[];
    expect(after.length).toBe(before.length + 1);
    expect(after.map((k) => k.name)).toContain('made while unread');

    // Readable again: W catches up and tells the same truth.
    await admin.sendCommand(['ACL', 'SETUSER', 'w', '+xread', '+xrange']);
    const again = await submit(writer.server.url, 'unknown-applied');
    expect(again.body['caseId']).toBe(caseId);
    expect(again.body['status']).toBe('duplicate');
  });

  it('sent while Redis is paused and Redis killed: 503 outcome unknown, not inLog; the log never had it, so a resend is accepted as new', async () => {
    const info = await admin.sendCommand<string>(['INFO', 'server']);
    const pid = Number(/process_id:(\d+)/.exec(info)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await admin.sendCommand(['CLIENT', 'PAUSE', String(scaled(20_000)), 'WRITE']);
    const pending = submit(writer.server.url, 'unknown-lost');
    // The command waits inside Redis (paused writes) when Redis dies.
    const deadline = Date.now() + scaled(5_000);
    while (Date.now() < deadline) {
      const clients = await admin.sendCommand<string>(['CLIENT', 'LIST']);
      if (/cmd=xadd/.test(clients)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    process.kill(pid, 'SIGKILL');
    const lost = await pending;
    expectUnknown(lost, false, /POST the same submission again/);
    expect(lost.body['error']).toMatch(/may be in the shared log/);

    await new Promise((resolve) => setTimeout(resolve, 200));
    await redis.restart();
    const resent = await once(() => submit(reader.server.url, 'unknown-lost'));
    expect(resent.status).toBe(202);
    expect(resent.body['status']).toBe('accepted');
    // The case made before the kill is still the log's, byte for byte the same answer.
    const kept = await once(() => submit(reader.server.url, 'unknown-applied'));
    expect(kept.body['status']).toBe('duplicate');
  });
});
