/**
 * The read of a Redis snapshot at start-up, in process: a snapshot of `MiB` image bytes (synthetic:
 * the read's cost does not depend on what the image holds) is stored in a real redis-server as the
 * old code stored it (base64, read as a string) or as raw bytes (read as a Buffer), then read back
 * and checked (`readRedisSnapshot`) as a replica's start does. Run each mode in its own process
 * (the RSS is the process's), with --cpu-prof to see where it goes.
 *
 *   npx tsx bench/redis-snapshot-profile.mts base64|raw [MiB=200]
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { readRedisSnapshot, snapshotKeys } from '../mocks/engine/store/redis-snapshot.ts';
import { encodeSnapshot } from '../mocks/engine/store/snapshot.ts';
import { startRedis } from '../test/support/state-processes.ts';

const mode = process.argv[2] === 'base64' ? 'base64' : 'raw';
const mib = Number.parseInt(process.argv[3] ?? '200', 10);
const redis = await startRedis();
const client = createClient({ url: redis.url, RESP: 2 });
await client.connect();
try {
  const keys = snapshotKeys('cca-kit');
  const expected = { fingerprint: 'f', epoch: 'e' };
  {
    // A block repeated: random bytes for a megabyte would take seconds to make at 200 MiB.
    const block = randomBytes(2 ** 20);
    const image = Buffer.concat(Array.from({ length: mib }, () => block));
    const encoded = encodeSnapshot({ ...expected, position: 1, lastId: '1-0' }, image);
    await client.sendCommand(['SET', keys.latest, mode === 'base64' ? encoded.toString('base64') : encoded]);
  }
  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const notes: string[] = [];
  const found = await readRedisSnapshot(client, keys, expected, notes);
  const ms = performance.now() - started;
  const peak = process.memoryUsage();
  console.log(
    `${mode} ${mib} MiB: read and checked in ${ms.toFixed(0)} ms; rss ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(peak.rss / 2 ** 20).toFixed(0)} MiB (external ${(peak.external / 2 ** 20).toFixed(0)}, heap ${(peak.heapUsed / 2 ** 20).toFixed(0)}); image ${found?.image.byteLength ?? 'none'} bytes; notes ${JSON.stringify(notes)}`,
  );
} finally {
  await client.close();
  await redis.remove();
}
