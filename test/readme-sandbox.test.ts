/**
 * The README's team-sandbox block, run as written: each `cca-kit mock` line of it is started with the
 * built CLI, with only what a test must own swapped for its own (the port for an ephemeral one, the
 * Redis address for a redis-server it starts, the state file for one in its temp directory). What the
 * block's comments promise is then checked: the state file survives a restart, and two replicas of
 * the Redis line see each other's writes at once.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import {
  json,
  type MockProcess,
  type RedisServer,
  startMock,
  startRedis,
} from './support/state-processes.ts';
import { scaled } from './support/timeouts.ts';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The words of each command line of the first sh block under the team-sandbox heading. */
function sandboxCommands(): string[][] {
  const section = README.split(/^## /m).find((s) => s.startsWith('For a team sandbox'));
  const block = /```sh\n([\s\S]*?)```/.exec(section ?? '')?.[1];
  if (block === undefined) throw new Error('README.md has no sh block under "## For a team sandbox"');
  return block
    .split('\n')
    .map((line) => line.replace(/\s#\s.*$/, '').trim())
    .filter((line) => line !== '')
    .map((line) => line.split(/\s+/));
}

interface Swaps {
  readonly stateFile: string;
  readonly redisUrl: string;
}

/** The flags after `cca-kit mock`, with the port left to startMock and the test's own paths swapped in. */
function argsOf(words: readonly string[], swaps: Swaps): string[] {
  expect(words.slice(0, 2), `a sandbox line that is not cca-kit mock: ${words.join(' ')}`).toEqual([
    'cca-kit',
    'mock',
  ]);
  const args: string[] = [];
  for (let i = 2; i < words.length; i++) {
    const word = words[i] as string;
    const value = words[i + 1];
    if (word === '--port') {
      i++; // startMock listens on an ephemeral port
    } else if (word === '--state-file' && value !== undefined) {
      args.push(word, swaps.stateFile);
      i++;
    } else if (word === '--state' && value?.startsWith('redis://') === true) {
      const path = new URL(value).pathname;
      args.push(word, `redis://${new URL(swaps.redisUrl).host}${path}`);
      i++;
    } else args.push(word);
  }
  return args;
}

interface KeyView {
  readonly key: string;
  readonly organizationId: string;
}

/** A read_write key created on `base`, and a moderation case submitted with it (two logged writes). */
async function writeThrough(base: string, externalId: string): Promise<{ key: string; caseId: string }> {
  const org = ((await json(`${base}/__mock/keys`)).body['keys'] as KeyView[])[0]?.organizationId;
  await json(`${base}/__mock/organizations/${org}/moderation-mode`, {
    method: 'PUT',
    body: JSON.stringify({ mode: 'ad_policy' }),
  });
  const created = await json(`${base}/__mock/keys`, {
    method: 'POST',
    body: JSON.stringify({ organizationId: org, profile: 'read_write', name: 'README sandbox' }),
  });
  expect(created.status).toBe(201);
  const key = (created.body['key'] as KeyView).key;
  const submitted = await json(`${base}/v0/moderation/cases`, {
    method: 'POST',
    headers: { 'x-api-key': key },
    body: JSON.stringify(sampleSubmission({ externalId })),
  });
  expect(submitted.status).toBe(202);
  return { key, caseId: submitted.body['caseId'] as string };
}

/** The HTTP status `base` answers a read of the case with `key`. */
async function readCase(base: string, key: string, caseId: string): Promise<number> {
  return (await fetch(`${base}/v0/moderation/cases/${caseId}`, { headers: { 'x-api-key': key } })).status;
}

describe("the README's team-sandbox commands, run as written", () => {
  const commands = sandboxCommands();
  let dir: string;
  let redis: RedisServer | undefined;
  const running: MockProcess[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cca-readme-sandbox-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((m) => m.stop('SIGKILL')));
    await redis?.remove();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (args: string[]): Promise<MockProcess> => {
    const mock = await startMock(args);
    running.push(mock);
    return mock;
  };

  it('are two: one with a state file, one with a Redis URL', () => {
    expect(commands.map((w) => w.find((x) => x === '--state-file' || x === '--state'))).toEqual([
      '--state-file',
      '--state',
    ]);
  });

  it(
    'the state-file line: what was written is there after a restart',
    async () => {
      const args = argsOf(commands[0] ?? [], { stateFile: join(dir, 'sandbox.state'), redisUrl: '' });
      const first = await start(args);
      const { key, caseId } = await writeThrough(first.url, 'readme-file-1');
      await first.stop('SIGTERM');
      const again = await start(args);
      expect(await readCase(again.url, key, caseId)).toBe(200);
    },
    scaled(60_000),
  );

  it(
    'the Redis line: two replicas, a write through one is read at once through the other',
    async () => {
      redis = await startRedis();
      const args = argsOf(commands[1] ?? [], { stateFile: '', redisUrl: redis.url });
      const [a, b] = await Promise.all([start(args), start(args)]);
      const { key, caseId } = await writeThrough((a as MockProcess).url, 'readme-redis-1');
      expect(await readCase((b as MockProcess).url, key, caseId)).toBe(200);
    },
    scaled(60_000),
  );
});
