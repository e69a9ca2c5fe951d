/**
 * A replica's start from a Redis snapshot, in process: the image of a --state-file snapshot (as
 * bench/snapshot-profile.mts writes it) is stored in a real redis-server as a replica would store it
 * (`writeRedisSnapshot`, covering the stream's one entry), then a replica is started on it and timed
 * (connect, origin, the snapshot's GET and checksum, restore, the read of the stream after it). Shows
 * whether the server was still rewriting its append-only file. Run with --cpu-prof to see where it goes.
 *
 *   node --expose-gc --import tsx bench/redis-start-profile.mts DIR/growth-1000000.state.snapshot
 */
import { readFileSync } from 'node:fs';
import { createClient } from '@redis/client';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';
import { openRedisStore, parseRedisLocation, type RedisLocation } from '../mocks/engine/store/redis.ts';
import { snapshotKeys, writeRedisSnapshot } from '../mocks/engine/store/redis-snapshot.ts';
import { startRedis } from '../test/support/state-processes.ts';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: redis-start-profile.mts <file snapshot>');
const bytes = readFileSync(path);
const image = bytes.subarray(bytes.indexOf(10) + 1);
const redis = await startRedis();
const client = createClient({ url: redis.url, RESP: 2 });
await client.connect();
try {
  const location = parseRedisLocation(redis.url) as RedisLocation;
  const options = { seed: 42, clock: 'frozen' as const };
  const open = () =>
    createPersistentEngine(options, (d, p) => openRedisStore(location, d, p, { snapshotEvery: 0 }));
  const first = await open();
  await first.engine.execute({
    type: 'moderation.submit',
    organizationId: 'org_acme',
    submission: sampleSubmission({ externalId: 'one' }),
  } as never);
  await first.store.close();
  const origin = JSON.parse((await client.sendCommand<string>(['GET', 'cca-kit:origin'])) ?? '{}') as {
    fingerprint: string;
    epoch: string;
  };
  const [[lastId]] = (await client.sendCommand<[string, string[]][]>([
    'XRANGE',
    'cca-kit:log',
    '-',
    '+',
  ])) as [[string, string[]]];
  const written = await writeRedisSnapshot(
    client,
    snapshotKeys('cca-kit'),
    { fingerprint: origin.fingerprint, epoch: origin.epoch, position: 1, lastId, reset: false },
    image,
  );
  if (written !== 1) throw new Error(`snapshot not written (${written})`);
  const persistence = async (): Promise<string> =>
    /aof_rewrite_in_progress:(\d)/.exec(await client.sendCommand<string>(['INFO', 'persistence']))?.[1] ??
    '?';
  const rewriting = await persistence();
  globalThis.gc?.();
  const t = performance.now();
  const opened = await open();
  const ms = performance.now() - t;
  console.log(
    `start from a ${(image.byteLength / 2 ** 20).toFixed(1)} MiB Redis snapshot: ${ms.toFixed(0)} ms; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(1)} MiB; AOF rewrite in progress at start: ${rewriting}; notes ${JSON.stringify(opened.notes)}`,
  );
  await opened.store.close();
} finally {
  await client.close();
  await redis.remove();
}
