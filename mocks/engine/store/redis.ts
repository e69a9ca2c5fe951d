/**
 * `--state redis://host:port/db`: the command log in a Redis Stream shared by replicas. Every replica
 * started with the same origin (checked against `<prefix>:origin`) applies the stream in order:
 *
 * - a write is `XADD`ed, then the replica reads the stream up to it and answers with the outcome the
 *   log order gives (two replicas submitting one externalId at once: one accepted, one duplicate);
 * - before answering any request the replica reads what was appended since (`catchUp`); concurrent
 *   requests share one read that started after they arrived, so under load it costs one round trip
 *   per batch of requests, not per request;
 * - Redis lost: a write that was never sent answers 503 "nothing was changed"; one that was sent and
 *   lost its answer, or whose entry cannot be read back, answers 503 "outcome unknown" naming what to
 *   read (`OutcomeUnknownError`): it may be, or is, in the log. Reads answer from local state; a timer
 *   and the next requests catch up when Redis is back;
 * - the origin carries the log's epoch: each read checks it with the entries, and a write appends
 *   only to the log of its epoch. A replica that finds the origin gone or of another epoch, or the
 *   entry it applied last no longer in the stream with no snapshot covering it, is `diverged`: it
 *   answers 503 for shared state until restarted (`StoreDivergedError`);
 * - snapshots (`redis-snapshot.ts`) let the stream be trimmed; a replica whose last entry was trimmed
 *   away loads the latest snapshot and goes on from its entry.
 *
 * Client: `@redis/client`, the core of the official node-redis (typed, pure JavaScript, no
 * dependencies, Node >= 20). Commands go through `sendCommand` with plain argument arrays, the same
 * on RESP2 and RESP3, and with the offline queue off, so nothing waits silently for a reconnect.
 */
import { randomUUID } from 'node:crypto';
import { ClientClosedError, ClientOfflineError, createClient, ErrorReply } from '@redis/client';
import { readBeforeRetry } from '../commands/read-back.ts';
import type { LoggedCommand } from '../commands/types.ts';
import { type CompactionReplica, type ReplicaSetup, startCompactionReplica } from './compaction-replica.ts';
import { captureImage, restoreImage } from './image.ts';
import {
  checkOrigin,
  type OriginDescription,
  parseEntry,
  type StateOrigin,
  StateStoreError,
} from './origin.ts';
import {
  compareIds,
  readRedisSnapshot,
  type Sender,
  type SnapshotKeys,
  snapshotKeys,
  writeRedisSnapshot,
} from './redis-snapshot.ts';
import { SNAPSHOT_FORMAT } from './snapshot.ts';
import {
  type Applied,
  type ApplyEntry,
  type CommandStore,
  type ImageAccess,
  type LoadProgress,
  OutcomeUnknownError,
  type PendingStore,
  StoreDivergedError,
  StoreUnavailableError,
} from './types.ts';

export interface RedisLocation {
  readonly url: string;
  /** The URL without a password, for messages. */
  readonly display: string;
  /** Key prefix: `<prefix>:origin` and the stream `<prefix>:log`. Default `cca-kit`. */
  readonly prefix: string;
}

/** Reads `redis://[user:pass@]host:port[/db][?prefix=name]`; a string is the usage error. */
export function parseRedisLocation(text: string): RedisLocation | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `--state must be a redis:// URL like redis://127.0.0.1:6379/0 (got ${JSON.stringify(text)})`;
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    return `--state must be a redis:// or rediss:// URL (got ${JSON.stringify(url.protocol)})`;
  const db = url.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db))
    return `--state: the database must be a number (got ${JSON.stringify(db)})`;
  const prefix = url.searchParams.get('prefix') ?? 'cca-kit';
  if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(prefix))
    return `--state: prefix must be 1..100 of A-Z a-z 0-9 _ . : -`;
  url.searchParams.delete('prefix');
  const display = `${url.protocol}//${url.host}${url.pathname}`;
  return { url: url.toString(), display, prefix };
}

/** How long a write waits, by default, to read its own entry back before answering 503 outcome unknown (it is in the log). */
const READ_BACK_MS = 5_000;
const BATCH = 1_000;
const POLL_MS = 500;

/** A failure that proves the command was not executed: Redis refused it, or the client never sent it. */
const notSent = (cause: unknown): boolean =>
  cause instanceof ErrorReply || cause instanceof ClientOfflineError || cause instanceof ClientClosedError;

/**
 * Connects, checks or sets the origin; the log is read when the engine attaches.
 *
 * @example
 * const { engine } = await createPersistentEngine(options, (d, p) => openRedisStore(location, d, p));
 */
export async function openRedisStore(
  location: RedisLocation,
  expected: OriginDescription,
  proposal: StateOrigin,
  options: {
    readonly snapshotEvery?: number;
    readonly readBackMs?: number;
    /**
     * Captures a snapshot's image in a worker thread that follows the log (`compaction-replica.ts`),
     * started from the snapshot this replica loads, or from the origin when the log has none.
     */
    readonly replica?: ReplicaSetup;
  } = {},
): Promise<PendingStore> {
  let connectedOnce = false;
  let lastError: string | null = null;
  const client = createClient({
    url: location.url,
    // RESP2: XREAD answers plain nested arrays whatever the client's type mapping.
    RESP: 2,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 3_000,
      // At start an unreachable Redis is an error; once running, retry for ever (reads go on locally).
      reconnectStrategy: (retries, cause) =>
        connectedOnce ? Math.min(50 * 2 ** retries, 1_000) : new Error(cause.message),
    },
  });
  client.on('error', (error: Error) => {
    lastError = error.message;
  });
  client.on('ready', () => {
    connectedOnce = true;
    lastError = null;
  });
  try {
    await client.connect();
  } catch (cause) {
    client.destroy();
    throw new StateStoreError(
      'STORE_UNREACHABLE',
      `cannot reach Redis at ${location.display} (${cause instanceof Error ? cause.message : String(cause)}); start it or fix --state`,
    );
  }
  const originKey = `${location.prefix}:origin`;
  const logKey = `${location.prefix}:log`;
  let origin: StateOrigin;
  try {
    await client.sendCommand(['SET', originKey, JSON.stringify(proposal), 'NX']);
    const text = await client.sendCommand<string | null>(['GET', originKey]);
    origin = JSON.parse(text ?? 'null') as StateOrigin;
    checkOrigin(origin, expected, `Redis ${location.display} (${originKey})`);
  } catch (cause) {
    client.destroy();
    if (cause instanceof StateStoreError) throw cause;
    throw new StateStoreError(
      'STATE_INVALID',
      `cannot read ${originKey} at ${location.display}: ${(cause as Error).message}`,
    );
  }

  const notes: string[] = [];
  return {
    origin,
    notes,
    attach: async (apply, image, progress) => {
      const store = sharedStore({
        client,
        location,
        logKey,
        apply,
        image,
        origin,
        snapshotEvery: options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY,
        readBackMs: options.readBackMs ?? READ_BACK_MS,
        notes,
        clientError: () => lastError,
        ...(progress === undefined ? {} : { progress }),
        ...(options.replica === undefined ? {} : { replica: options.replica }),
      });
      await store.catchUp();
      return store;
    },
  };
}

/** The few client calls the store makes. */
interface LogClient extends Sender {
  readonly isReady: boolean;
  close(): Promise<void>;
  destroy(): void;
}

const DEFAULT_SNAPSHOT_EVERY = 10_000;

/**
 * Appends only to the log of this epoch: a write that reaches a wiped or replaced Redis never lands
 * in a new log (where replicas of the new epoch would apply it) and is known not to have been written.
 */
const APPEND_SCRIPT = `
local origin = redis.call('GET', KEYS[1])
if not origin then return false end
if cjson.decode(origin).epoch ~= ARGV[1] then return false end
return redis.call('XADD', KEYS[2], '*', 'c', ARGV[2])
`;

const appendIfEpoch = (originKey: string, logKey: string, epoch: string, text: string): string[] => [
  'EVAL',
  APPEND_SCRIPT,
  '2',
  originKey,
  logKey,
  epoch,
  text,
];

interface SharedStoreParts {
  readonly client: LogClient;
  readonly location: RedisLocation;
  readonly logKey: string;
  readonly apply: ApplyEntry;
  readonly image: ImageAccess;
  readonly origin: StateOrigin;
  readonly snapshotEvery: number;
  readonly readBackMs: number;
  readonly notes: string[];
  readonly clientError: () => string | null;
  readonly progress?: LoadProgress;
  readonly replica?: ReplicaSetup;
}

function sharedStore(parts: SharedStoreParts): CommandStore & { catchUp(): Promise<void> } {
  const { client, location, logKey, apply, image, origin } = parts;
  const keys: SnapshotKeys = snapshotKeys(location.prefix);
  const epoch = origin.epoch ?? null;
  const expectation = { fingerprint: origin.fingerprint, epoch };
  const replica = randomUUID();
  let issued = 0;
  let position = '0-0';
  let applied = 0;
  let readError: string | null = null;
  /** Set once this replica lost its log's thread: it then serves no shared state until restarted. */
  let diverged: string | null = null;
  let snapshotAt = 0;
  let snapshotInfo: { position: number; at: string } | null = null;
  let snapshotting = false;
  const waiters = new Map<string, (outcome: Applied) => void>();
  const rounds = { count: 0, totalMs: 0, maxMs: 0 };
  /** The compaction replica, once this replica holds an image to start it from; fed every entry applied. */
  let follower: CompactionReplica | null = null;
  /** Snapshot images captured here, on the event loop (the health answer counts them). */
  let eventLoopCaptures = 0;
  let followerRefused: string | null = null;
  /**
   * (Re)starts the replica on `bytes`, the image of the state now held, at `at` entries applied; on
   * null, at the origin's own state (nothing applied yet), which the replica builds as this one did.
   */
  const follow = (bytes: Uint8Array | null, format: number, at: number): void => {
    if (parts.replica === undefined || followerRefused !== null) return;
    void follower?.close();
    follower = null;
    try {
      follower = startCompactionReplica({
        setup: parts.replica,
        origin,
        image: bytes,
        format,
        fd: null,
        from: 0,
        to: 0,
        position: at,
      });
    } catch (cause) {
      followerRefused = (cause as Error).message;
    }
  };
  /** The replica when it can capture now; one still loading is not waited for (the capture is made here). */
  const following = (): CompactionReplica | null => (follower?.ready === true ? follower : null);

  const diverge = (what: string): void => {
    diverged ??= `${what} (at ${location.display})`;
  };

  /** Loads the latest valid snapshot; false when there is none that covers `atLeast`. */
  const loadSnapshot = async (atLeast: string): Promise<boolean> => {
    const found = await readRedisSnapshot(client, keys, expectation, parts.notes);
    const lastId = found?.header.lastId;
    if (found === undefined || lastId === undefined || compareIds(lastId, atLeast) < 0) return false;
    if (parts.progress !== undefined && parts.progress.phase !== 'ready') parts.progress.phase = 'snapshot';
    image.put(restoreImage(found.image, image.take(), found.header['cca-kit-snapshot']));
    follow(found.image, found.header['cca-kit-snapshot'], found.header.position);
    position = lastId;
    applied = found.header.position;
    snapshotAt = applied;
    snapshotInfo = { position: applied, at: found.header.createdAt };
    return true;
  };

  /** One replica writes a snapshot when the log has grown by `snapshotEvery` since the last. */
  const maybeSnapshot = (reset: boolean): void => {
    if (epoch === null || snapshotting || diverged !== null) return;
    if (!reset && (parts.snapshotEvery <= 0 || applied - snapshotAt < parts.snapshotEvery)) return;
    snapshotting = true;
    let at = { position: applied, lastId: position };
    const worker = following();
    /** The image at `at`: from the replica (asked once the lock is held) or captured here, now. */
    let bytes: Uint8Array | Promise<Uint8Array> | undefined;
    if (worker === null || reset) {
      try {
        if (worker === null) eventLoopCaptures += 1;
        bytes = worker === null ? captureImage(image.take()) : worker.capture(at.position);
      } catch (cause) {
        readError = `snapshot not written: ${(cause as Error).message}`;
        snapshotAt = applied;
        snapshotting = false;
        return;
      }
      // The first image this replica holds starts the compaction replica (one loading or failed is
      // left as it is): the captures after it are made there.
      if (follower === null && bytes instanceof Uint8Array) follow(bytes, SNAPSHOT_FORMAT, at.position);
    }
    void (async () => {
      try {
        const lock = reset
          ? 'OK'
          : await client.sendCommand<string | null>(['SET', keys.lock, replica, 'NX', 'PX', '60000']);
        if (lock !== 'OK') return;
        if (bytes === undefined && worker !== null) {
          // Asked where the lock is held, at the state applied now: a replica that does not get it
          // never has the image made.
          at = { position: applied, lastId: position };
          bytes = worker.capture(at.position);
        }
        const image = await (bytes as Uint8Array | Promise<Uint8Array>);
        const written = await writeRedisSnapshot(
          client,
          keys,
          { fingerprint: origin.fingerprint, epoch, ...at, reset },
          image,
        );
        if (written === -2) diverge(`the log's origin changed while a snapshot was written`);
        if (written === 1) snapshotInfo = { position: at.position, at: new Date().toISOString() };
        if (!reset) await client.sendCommand(['DEL', keys.lock]);
      } catch (cause) {
        readError = `snapshot not written: ${(cause as Error).message}`;
      } finally {
        snapshotAt = Math.max(snapshotAt, at.position);
        snapshotting = false;
      }
    })();
  };

  /** Reads and applies everything after `position`, in order; records (never throws) a failure. */
  const round = async (): Promise<void> => {
    const started = performance.now();
    try {
      if (diverged === null && position === '0-0' && !(await loadSnapshot('0-0')) && follower === null) {
        // No snapshot yet: the replica starts where this one does, from the origin, and is fed every
        // entry from the first, so even the log's first snapshot is not captured on the event loop.
        follow(null, SNAPSHOT_FORMAT, 0);
      }
      for (;;) {
        if (diverged !== null) break;
        // The origin is read with the entries: a wiped or replaced log has none, or another epoch.
        const [originText, messages] = await Promise.all([
          client.sendCommand<string | null>(['GET', keys.origin]),
          client.sendCommand<[string, string[]][]>(
            position === '0-0'
              ? ['XRANGE', logKey, '-', '+', 'COUNT', String(BATCH)]
              : ['XRANGE', logKey, position, '+', 'COUNT', String(BATCH + 1)],
          ),
        ]);
        const now = originText === null ? null : ((JSON.parse(originText) as StateOrigin).epoch ?? null);
        if (originText === null) {
          diverge(
            `the store lost its log: ${keys.origin} is gone (wiped, or a new Redis); this replica applied ${applied} commands of epoch ${epoch ?? 'none'}`,
          );
          break;
        }
        if (now !== epoch) {
          diverge(
            `the log was replaced: its epoch is ${now ?? 'none'}, this replica applied ${applied} commands of epoch ${epoch ?? 'none'}`,
          );
          break;
        }
        let fresh = messages;
        if (position !== '0-0') {
          if (messages[0]?.[0] !== position) {
            // The entry this replica applied last was trimmed away (or lost): the snapshot covers it.
            if (await loadSnapshot(position)) continue;
            diverge(
              `entry ${position} this replica applied last is no longer in ${logKey} and no snapshot covers it`,
            );
            break;
          }
          fresh = messages.slice(1);
        }
        for (const [id, fields] of fresh) {
          const at = fields.indexOf('c');
          const text = fields[at + 1] ?? '';
          const entry = parseEntry(text, `Redis ${logKey} entry ${id}`);
          const outcome = apply(entry);
          follower?.feed(`${text}\n`);
          position = id;
          applied += 1;
          const waiter = entry.origin === undefined ? undefined : waiters.get(entry.origin);
          if (waiter !== undefined) {
            waiters.delete(entry.origin as string);
            waiter(outcome);
            // A reset is kept as a snapshot: the log before it is trimmed away.
            if (entry.command.type === 'reset') maybeSnapshot(true);
          }
        }
        if (parts.progress !== undefined && parts.progress.phase !== 'ready') {
          parts.progress.phase = 'replay';
          parts.progress.applied = applied;
        }
        if (fresh.length < BATCH) break;
        // A long catch-up gives the event loop back between batches (the start-up port answers 503).
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      maybeSnapshot(false);
      readError = null;
    } catch (cause) {
      readError = cause instanceof Error ? cause.message : String(cause);
    }
    const ms = performance.now() - started;
    rounds.count += 1;
    rounds.totalMs += ms;
    rounds.maxMs = Math.max(rounds.maxMs, ms);
  };

  // One read at a time; a caller arriving during one waits for the next, which starts after it arrived.
  let current: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const catchUp = (): Promise<void> => {
    if (diverged !== null)
      return Promise.reject(new StoreDivergedError(`this replica diverged: ${diverged}`));
    if (current === null) {
      current = round().finally(() => {
        current = null;
      });
      return current;
    }
    next ??= current.then(() => {
      next = null;
      return catchUp();
    });
    return next;
  };

  const poll = setInterval(() => {
    // A diverged replica has nothing to poll for: it is answering 503 until restarted.
    if (current === null && diverged === null) void catchUp().catch(() => undefined);
  }, POLL_MS);
  poll.unref();

  return {
    kind: 'redis',
    synchronous: false,
    async write(entry: LoggedCommand) {
      if (diverged !== null) throw new StoreDivergedError(`this replica diverged: ${diverged}`);
      const nonce = `${replica}:${++issued}`;
      // Not connected: the offline queue is off, so nothing is sent and nothing can be appended.
      if (!client.isReady)
        throw new StoreUnavailableError(
          `Redis at ${location.display} is not connected (${parts.clientError() ?? 'reconnecting'})`,
        );
      const own = new Promise<Applied>((resolve) => waiters.set(nonce, resolve));
      try {
        const text = JSON.stringify({ ...entry, origin: nonce });
        const added = await client.sendCommand<string | null>(
          epoch === null ? ['XADD', logKey, '*', 'c', text] : appendIfEpoch(keys.origin, logKey, epoch, text),
        );
        if (added === null) {
          waiters.delete(nonce);
          diverge(
            `the log was wiped or replaced before a write (${keys.origin} no longer of epoch ${epoch})`,
          );
          throw new StoreDivergedError(`this replica diverged: ${diverged}; nothing was appended`);
        }
      } catch (cause) {
        if (cause instanceof StoreDivergedError) throw cause;
        waiters.delete(nonce);
        const detail = `Redis at ${location.display}: ${cause instanceof Error ? cause.message : String(cause)}`;
        // Refused by Redis, or never sent: nothing was appended. A connection lost with the command
        // sent may have appended it, and every replica would apply it.
        if (notSent(cause)) throw new StoreUnavailableError(detail);
        throw new OutcomeUnknownError(
          `${detail}; the command was sent and its answer lost`,
          false,
          readBeforeRetry(entry.command),
        );
      }
      const deadline = performance.now() + parts.readBackMs;
      let done: Applied | undefined;
      void own.then((outcome) => {
        done = outcome;
      });
      while (done === undefined && performance.now() < deadline) {
        await catchUp();
        if (diverged !== null) break;
        await Promise.resolve();
        if (done === undefined && readError !== null) await new Promise((r) => setTimeout(r, 50));
      }
      if (done === undefined) {
        throw new OutcomeUnknownError(
          `the write is in the log at ${location.display} but could not be read back (${readError ?? 'timeout'})`,
          true,
          readBeforeRetry(entry.command),
        );
      }
      return done;
    },
    catchUp,
    async health() {
      if (diverged === null && current === null) await catchUp().catch(() => undefined);
      let logLength: number | null = null;
      try {
        // Entries ever added (trimmed ones included): what a position counts.
        const info = await client.sendCommand<unknown[]>(['XINFO', 'STREAM', logKey]);
        const at = info.indexOf('entries-added');
        logLength = at < 0 ? null : Number(info[at + 1]);
      } catch (cause) {
        logLength = /no such key/i.test(String(cause)) ? 0 : null;
      }
      const error = readError ?? parts.clientError();
      return {
        store: 'redis',
        location: `${location.display} ${logKey}`,
        position: applied,
        logLength,
        lag: logLength === null ? null : logLength - applied,
        connected: logLength !== null && client.isReady,
        lastError: error,
        lastEntryId: position,
        epoch,
        diverged,
        snapshot: snapshotInfo,
        capture: follower?.state ?? 'event loop',
        replicaFailure: follower?.failure ?? followerRefused,
        eventLoopCaptures,
        catchUp: {
          reads: rounds.count,
          meanMs: rounds.count === 0 ? 0 : Math.round((rounds.totalMs / rounds.count) * 1000) / 1000,
          maxMs: Math.round(rounds.maxMs * 1000) / 1000,
        },
      };
    },
    async close() {
      clearInterval(poll);
      await follower?.close();
      try {
        await client.close();
      } catch {
        client.destroy();
      }
    },
  };
}
