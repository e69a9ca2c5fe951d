/**
 * Snapshots of a Redis-shared log: `<prefix>:snapshot` (the encoded snapshot, `snapshot.ts`, as raw
 * bytes: written as a Buffer argument, read back as a Buffer, so a start holds the snapshot's bytes
 * once and never a string of them) with `:snapshot:pos` and `:snapshot:id` (its position and last stream entry), the one before
 * as `:snapshot.prev`. Written by one script, so replicas never see half of one: a snapshot older
 * than the one there is dropped; the one there becomes the previous; the stream is trimmed (`XTRIM
 * MINID`) to start at the previous one's entry, so a replica between the two still finds its next
 * entry, and one further behind finds its entry gone and loads the latest (`redis.ts`). After a reset
 * nothing before it is kept. A snapshot of another epoch than the origin's is refused by the script.
 *
 * Earlier versions stored the snapshot base64-encoded; such a key still loads. The two are told apart
 * by the first byte: a raw snapshot starts with its JSON header's `{`, which base64 never contains.
 */
import { RESP_TYPES, type RedisArgument } from '@redis/client';
import { decodeSnapshot, encodeSnapshot, type Snapshot, type SnapshotExpectation } from './snapshot.ts';

export interface SnapshotKeys {
  readonly latest: string;
  readonly position: string;
  readonly id: string;
  readonly previous: string;
  readonly previousId: string;
  readonly log: string;
  readonly origin: string;
  readonly lock: string;
}

export const snapshotKeys = (prefix: string): SnapshotKeys => ({
  latest: `${prefix}:snapshot`,
  position: `${prefix}:snapshot:pos`,
  id: `${prefix}:snapshot:id`,
  previous: `${prefix}:snapshot.prev`,
  previousId: `${prefix}:snapshot.prev:id`,
  log: `${prefix}:log`,
  origin: `${prefix}:origin`,
  lock: `${prefix}:snapshot:lock`,
});

const WRITE_SCRIPT = `
local origin = redis.call('GET', KEYS[7])
if not origin then return -2 end
if cjson.decode(origin).epoch ~= ARGV[4] then return -2 end
local current = tonumber(redis.call('GET', KEYS[2]) or '-1')
if current >= tonumber(ARGV[2]) then return -1 end
if ARGV[5] == 'reset' then
  redis.call('DEL', KEYS[4], KEYS[5])
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('SET', KEYS[2], ARGV[2])
  redis.call('SET', KEYS[3], ARGV[3])
  redis.call('XTRIM', KEYS[6], 'MINID', ARGV[3])
  return 1
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  local previousId = redis.call('GET', KEYS[3])
  redis.call('RENAME', KEYS[1], KEYS[4])
  redis.call('SET', KEYS[5], previousId)
  redis.call('XTRIM', KEYS[6], 'MINID', previousId)
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SET', KEYS[3], ARGV[3])
return 1
`;

/** The client call the snapshot needs: arguments may be bytes, and a reply may be read as bytes. */
export interface Sender {
  sendCommand<T>(
    args: readonly RedisArgument[],
    options?: { readonly typeMapping?: { readonly [RESP_TYPES.BLOB_STRING]: BufferConstructor } },
  ): Promise<T>;
}

/** Bulk strings as Buffers: the snapshot's bytes as Redis holds them, without a decode to a string. */
const AS_BYTES = { typeMapping: { [RESP_TYPES.BLOB_STRING]: Buffer } } as const;

const OPENING_BRACE = 0x7b;

/** The snapshot's bytes from the key's value: raw (starts with `{`) or base64 as older versions wrote. */
export function snapshotBytes(value: Buffer): Buffer {
  return value[0] === OPENING_BRACE ? value : Buffer.from(value.toString('latin1'), 'base64');
}

/**
 * Stores a snapshot covering the stream up to entry `lastId`; resolves 1 when written, -1 when a
 * newer one is there already, -2 when the origin's epoch is not `epoch` (the log was replaced).
 */
export async function writeRedisSnapshot(
  client: Sender,
  keys: SnapshotKeys,
  meta: { fingerprint: string; epoch: string; position: number; lastId: string; reset: boolean },
  image: Uint8Array,
): Promise<number> {
  const encoded = encodeSnapshot(
    {
      fingerprint: meta.fingerprint,
      epoch: meta.epoch,
      position: meta.position,
      lastId: meta.lastId,
      ...(meta.reset ? { reset: true } : {}),
    },
    image,
  );
  const k = keys;
  return client.sendCommand<number>([
    'EVAL',
    WRITE_SCRIPT,
    '7',
    k.latest,
    k.position,
    k.id,
    k.previous,
    k.previousId,
    k.log,
    k.origin,
    encoded,
    String(meta.position),
    meta.lastId,
    meta.epoch,
    meta.reset ? 'reset' : '',
  ]);
}

/** The latest valid snapshot (the previous when the latest is refused); refusals go to `notes`. */
export async function readRedisSnapshot(
  client: Sender,
  keys: SnapshotKeys,
  expected: SnapshotExpectation,
  notes: string[],
): Promise<Snapshot | undefined> {
  for (const key of [keys.latest, keys.previous]) {
    const value = await client.sendCommand<Buffer | null>(['GET', key], AS_BYTES);
    if (value === null) continue;
    const found = decodeSnapshot(snapshotBytes(value), expected);
    if (typeof found === 'string') {
      notes.push(`refused snapshot ${key}: ${found}`);
      continue;
    }
    if (typeof found.header.lastId !== 'string') {
      notes.push(`refused snapshot ${key}: it names no stream entry`);
      continue;
    }
    return found;
  }
  return undefined;
}

/** Stream ids compare as (ms, seq). */
export function compareIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am === bm ? as - bs : am - bm;
}
