/**
 * The compaction replica (`mocks/engine/store/compaction-replica.ts`), in process on real files, a real
 * `redis-server` and a real worker thread: the image it captures is the one the main engine would capture at the same
 * position, byte for byte, after a start from a snapshot and a log and after writes of every kind; a
 * restart loads its snapshot; a replica that cannot be built leaves the store capturing on the event
 * loop, with the failure reported, and nothing lost.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { createClient } from '@redis/client';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { writeGrowthLog } from '../bench/sections/state-growth.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { openStateFile } from '../mocks/engine/store/file.ts';
import { captureImage } from '../mocks/engine/store/image.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';
import type { StateOrigin } from '../mocks/engine/store/origin.ts';
import { openRedisStore, parseRedisLocation } from '../mocks/engine/store/redis.ts';
import { readRedisSnapshot, snapshotKeys } from '../mocks/engine/store/redis-snapshot.ts';
import { decodeSnapshot } from '../mocks/engine/store/snapshot.ts';
import type { ImageAccess } from '../mocks/engine/store/types.ts';
import { startRedis } from './support/state-processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-compaction-replica-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OPTIONS = { seed: 42, clock: 'frozen' as const };

/** Opens `file`; `access` is the main engine's image, to capture it the way an inline compaction does. */
async function open(
  file: string,
  snapshotEvery: number,
  replica: 'replica' | 'none' | 'broken' | 'uncloneable' | 'laggard',
) {
  let access: ImageAccess | undefined;
  const made = await createPersistentEngine(OPTIONS, (describe, proposal, setup) => {
    const pending = openStateFile(file, describe, proposal, {
      snapshotEvery,
      ...(replica === 'replica' ? { replica: setup } : {}),
      // A setup the worker cannot build an engine from: the replica fails as it loads.
      ...(replica === 'broken' ? { replica: { options: { ...setup.options, actions: -1 } } } : {}),
      // One that cannot be sent to a worker: the replica never starts.
      ...(replica === 'uncloneable' ? { replica: { options: { ...setup.options, f: () => 0 } } } : {}),
      // One allowed 2 lines behind: the writes made while it still loads leave it further behind.
      ...(replica === 'laggard' ? { replica: { ...setup, maxBehind: 2 } } : {}),
    });
    return {
      ...pending,
      attach: (apply, image, progress) => {
        access = image;
        return pending.attach(apply, image, progress);
      },
    };
  });
  const image = (): Buffer => captureImage((access as ImageAccess).take());
  return { ...made, image };
}

/** Writes of several kinds, one at a time, so the log's order is the order they are made. */
async function writeMix(engine: Awaited<ReturnType<typeof open>>['engine'], count: number, tag: string) {
  for (let i = 0; i < count; i += 1) {
    const kind = i % 3;
    if (kind === 0)
      await engine.execute({
        type: 'moderation.submit',
        organizationId: 'org_acme',
        submission: sampleSubmission({ externalId: `${tag}-${i}` }),
      });
    else if (kind === 1)
      await engine.execute({
        type: 'keys.create',
        input: { organizationId: 'org_acme', name: `${tag}-${i}` },
      });
    else await engine.execute({ type: 'clock.advance', ms: 1000 });
  }
}

const snapshotImage = (file: string, origin: StateOrigin): { position: number; image: Uint8Array } => {
  const decoded = decodeSnapshot(readFileSync(`${file}.snapshot`), {
    fingerprint: origin.fingerprint,
    epoch: origin.epoch ?? null,
  });
  if (typeof decoded === 'string') throw new Error(decoded);
  return { position: decoded.header.position, image: decoded.image };
};

/** An image's values as text, Maps and Sets in their order (which lists follow), typed arrays as arrays. */
const inOrder = (bytes: Uint8Array, part?: 'state'): string => {
  const decoded = deserialize(bytes) as Record<string, unknown>;
  return JSON.stringify(part === undefined ? decoded : decoded[part], (_key, value: unknown) => {
    if (value instanceof Map) return { map: [...value] };
    if (value instanceof Set) return { set: [...value] };
    if (ArrayBuffer.isView(value)) return { view: Array.from(value as unknown as ArrayLike<number>) };
    return value;
  });
};

/**
 * Two images of the same state: the state parts alike, in order (an image also holds when the clock
 * last read the real time, which a restart reads anew).
 */
const sameState = (a: Uint8Array, b: Uint8Array): boolean => inOrder(a, 'state') === inOrder(b, 'state');

/** Waits until the store's replica has loaded: a capture due before is made on the event loop. */
const untilReplica = (store: { health(): unknown }): Promise<void> =>
  vi.waitFor(async () => expect(((await store.health()) as { capture?: string }).capture).toBe('replica'), {
    timeout: 20_000,
  });

type Health = { snapshot?: { position: number } | null; capture?: string };

/**
 * Waits until a snapshot at `position` is written, then checks the replica captured it (it is still
 * following: had it failed, the capture would have been made on the event loop).
 */
async function snapshotByReplica(store: { health(): unknown }, position: number): Promise<void> {
  await vi.waitFor(async () => expect(((await store.health()) as Health).snapshot?.position).toBe(position), {
    timeout: 20_000,
  });
  expect(((await store.health()) as Health).capture).toBe('replica');
}

/** Opened again without a replica, `file` loads without a note to `position` and holds `image`'s state. */
async function expectReopens(file: string, position: number, image: Uint8Array): Promise<void> {
  const again = await open(file, 0, 'none');
  expect(again.notes).toEqual([]);
  expect((await again.store.health()).position).toBe(position);
  expect(sameState(again.image(), image)).toBe(true);
  await again.store.close();
}

describe('compaction replica', () => {
  it("captures the main engine's image byte for byte, started from a snapshot and a log, after writes of every kind; a restart loads it", async () => {
    const file = join(dir, 'follow.state');
    await writeGrowthLog(file, 400);
    // Opened with a snapshot due well after the log: the replica replays all 400 lines itself.
    const first = await open(file, 1000, 'replica');
    await writeMix(first.engine, 30, 'a');
    await first.store.close();
    // Reopened: it loads nothing yet (no snapshot), then compacts at 430 + 1 with the replica's image.
    const second = await open(file, 431, 'replica');
    await untilReplica(second.store);
    await writeMix(second.engine, 1, 'b');
    await snapshotByReplica(second.store, 431);
    await second.store.close();
    const health = await second.store.health();
    expect(health.lastError).toBeNull();
    expect(health.snapshot?.position).toBe(431);
    const written = snapshotImage(file, first.origin);
    expect(written.position).toBe(431);
    expect(Buffer.from(written.image).equals(second.image())).toBe(true);

    // Started from that snapshot, the replica replays only the lines after it, and is fed the rest.
    const third = await open(file, 20, 'replica');
    await untilReplica(third.store);
    await writeMix(third.engine, 20, 'c');
    await snapshotByReplica(third.store, 451);
    await third.store.close();
    const after = snapshotImage(file, first.origin);
    expect(after.position).toBe(451);
    expect(Buffer.from(after.image).equals(third.image())).toBe(true);
    expect((await third.store.health()).lastError).toBeNull();

    await expectReopens(file, 451, third.image());
  });

  it('a compaction due while the replica still loads is made on the event loop, each one, and counted; the next ones come from the replica', async () => {
    const file = join(dir, 'due-while-loading.state');
    await writeGrowthLog(file, 400);
    // Due every 2 writes: the first ones come while the worker still builds its engine and replays.
    const first = await open(file, 2, 'replica');
    await writeMix(first.engine, 4, 'w');
    const loading = (await first.store.health()) as Health & { eventLoopCaptures?: number };
    // The premise: the writes were all made before the replica was ready.
    expect(loading.capture).toBe('replica loading');
    await vi.waitFor(
      async () => expect(((await first.store.health()) as Health).snapshot?.position).toBe(404),
      {
        timeout: 20_000,
      },
    );
    // Every compaction due was made (none merged into a later one): the first on the event loop, the
    // second there too unless the replica was ready by the time the first had finished.
    const inline = (await first.store.health()).eventLoopCaptures ?? 0;
    expect(inline).toBeGreaterThanOrEqual(1);
    expect(inline).toBeLessThanOrEqual(2);
    await untilReplica(first.store);
    await writeMix(first.engine, 2, 'r');
    await snapshotByReplica(first.store, 406);
    expect((await first.store.health()).eventLoopCaptures).toBe(inline);
    await first.store.close();
    expect(Buffer.from(snapshotImage(file, first.origin).image).equals(first.image())).toBe(true);
    await expectReopens(file, 406, first.image());
  });

  it('a replica that fails, as it starts, as it loads or by falling too far behind, leaves the capture to the event loop: the health answer says why, and the snapshots are written', async () => {
    const modes = { load: 'broken', start: 'uncloneable', behind: 'laggard' } as const;
    const why = {
      load: /actions must be/,
      start: /could not be cloned/,
      behind: /fell more than 2 lines behind/,
    };
    for (const broken of ['load', 'start', 'behind'] as const) {
      const file = join(dir, `broken-${broken}.state`);
      const first = await open(file, 5, modes[broken]);
      await writeMix(first.engine, 6, 'x');
      // A replica that fails as it loads says so when its worker gives up (a moment after the start).
      await vi.waitFor(async () => expect((await first.store.health()).capture).toBe('event loop'), {
        timeout: 20_000,
      });
      expect((await first.store.health()).replicaFailure).toMatch(why[broken]);
      await writeMix(first.engine, 6, 'y');
      await first.store.close();
      // A compaction that asked the replica before it failed is made again on the event loop.
      expect(snapshotImage(file, first.origin).position).toBeGreaterThanOrEqual(10);
      await expectReopens(file, 12, first.image());
    }
  });

  it('on Redis without a snapshot yet: the replica starts from the origin, so the first snapshot and the next come from it, value for value and in order, and a fresh replica loads them', async () => {
    const redis = await startRedis();
    try {
      const location = parseRedisLocation(`${redis.url}?prefix=replica-test`);
      if (typeof location === 'string') throw new Error(location);
      let access: ImageAccess | undefined;
      const first = await createPersistentEngine(OPTIONS, async (describe, proposal, setup) => {
        const pending = await openRedisStore(location, describe, proposal, {
          snapshotEvery: 5,
          replica: setup,
        });
        return {
          ...pending,
          attach: (apply, image, progress) => {
            access = image;
            return pending.attach(apply, image, progress);
          },
        };
      });
      // The stream has no snapshot: the replica builds the origin's state and follows from entry 1.
      await untilReplica(first.store);
      await writeMix(first.engine, 5, 'r');
      await snapshotByReplica(first.store, 5);
      await writeMix(first.engine, 5, 's');
      await snapshotByReplica(first.store, 10);
      expect((await first.store.health()).eventLoopCaptures).toBe(0);
      const client = createClient({ url: location.url, RESP: 2 });
      await client.connect();
      const stored = await readRedisSnapshot(
        client,
        snapshotKeys(location.prefix),
        { fingerprint: first.origin.fingerprint, epoch: first.origin.epoch ?? null },
        [],
      );
      await client.close();
      expect(stored?.header.position).toBe(10);
      // A replica started from an image holds the same state as the engine that captured it, though
      // v8 may write some values in another form (a number as an integer or a double): the same
      // values, in the same order, not the same bytes.
      expect(inOrder(Buffer.from(stored?.image ?? []))).toBe(
        inOrder(captureImage((access as ImageAccess).take())),
      );
      expect((await first.store.health()).replicaFailure).toBeNull();
      await first.store.close();

      let fresh: ImageAccess | undefined;
      const second = await createPersistentEngine(OPTIONS, async (describe, proposal) => {
        const pending = await openRedisStore(location, describe, proposal, { snapshotEvery: 0 });
        return {
          ...pending,
          attach: (apply, image, progress) => {
            fresh = image;
            return pending.attach(apply, image, progress);
          },
        };
      });
      expect((await second.store.health()).position).toBe(10);
      expect(sameState(captureImage((fresh as ImageAccess).take()), Buffer.from(stored?.image ?? []))).toBe(
        true,
      );
      await second.store.close();
    } finally {
      await redis.remove();
    }
  });
});
