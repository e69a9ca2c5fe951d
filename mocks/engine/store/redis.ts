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
 *   and the next requests catch up when Redis is back.
 *
 * Client: `@redis/client`, the core of the official node-redis (typed, pure JavaScript, no
 * dependencies, Node >= 20). Commands go through `sendCommand` with plain argument arrays, the same
 * on RESP2 and RESP3, and with the offline queue off, so nothing waits silently for a reconnect.
 */
import { randomUUID } from 'node:crypto';
import { ClientClosedError, ClientOfflineError, createClient, ErrorReply } from '@redis/client';
import { readBeforeRetry } from '../commands/read-back.ts';
import type { LoggedCommand } from '../commands/types.ts';
import type { PendingStore } from './open.ts';
import {
  checkOrigin,
  type OriginDescription,
  parseEntry,
  type StateOrigin,
  StateStoreError,
} from './origin.ts';
import {
  type Applied,
  type ApplyEntry,
  type CommandStore,
  OutcomeUnknownError,
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

/** How long a write waits to read its own entry back before answering 503 outcome unknown (it is in the log). */
const READ_BACK_MS = 5_000;
const BATCH = 1_000;
const POLL_MS = 500;

type StreamReply = [string, [string, string[]][]][] | null;

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

  return {
    origin,
    notes: [],
    attach: async (apply) => {
      const store = sharedStore(client, location, logKey, apply, () => lastError);
      await store.catchUp();
      return store;
    },
  };
}

/** The few client calls the store makes. */
interface LogClient {
  sendCommand<T>(args: readonly string[]): Promise<T>;
  readonly isReady: boolean;
  close(): Promise<void>;
  destroy(): void;
}

function sharedStore(
  client: LogClient,
  location: RedisLocation,
  logKey: string,
  apply: ApplyEntry,
  clientError: () => string | null,
): CommandStore & { catchUp(): Promise<void> } {
  const replica = randomUUID();
  let issued = 0;
  let position = '0-0';
  let applied = 0;
  let readError: string | null = null;
  const waiters = new Map<string, (outcome: Applied) => void>();
  const rounds = { count: 0, totalMs: 0, maxMs: 0 };

  /** Reads and applies everything after `position`, in order; records (never throws) a failure. */
  const round = async (): Promise<void> => {
    const started = performance.now();
    try {
      for (;;) {
        const reply = await client.sendCommand<StreamReply>([
          'XREAD',
          'COUNT',
          String(BATCH),
          'STREAMS',
          logKey,
          position,
        ]);
        const messages = reply?.[0]?.[1] ?? [];
        for (const [id, fields] of messages) {
          const at = fields.indexOf('c');
          const entry = parseEntry(fields[at + 1] ?? '', `Redis ${logKey} entry ${id}`);
          const outcome = apply(entry);
          position = id;
          applied += 1;
          const waiter = entry.origin === undefined ? undefined : waiters.get(entry.origin);
          if (waiter !== undefined) {
            waiters.delete(entry.origin as string);
            waiter(outcome);
          }
        }
        if (messages.length < BATCH) break;
      }
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
    if (current === null) void catchUp();
  }, POLL_MS);
  poll.unref();

  return {
    kind: 'redis',
    synchronous: false,
    async write(entry: LoggedCommand) {
      const nonce = `${replica}:${++issued}`;
      // Not connected: the offline queue is off, so nothing is sent and nothing can be appended.
      if (!client.isReady)
        throw new StoreUnavailableError(
          `Redis at ${location.display} is not connected (${clientError() ?? 'reconnecting'})`,
        );
      const own = new Promise<Applied>((resolve) => waiters.set(nonce, resolve));
      try {
        await client.sendCommand(['XADD', logKey, '*', 'c', JSON.stringify({ ...entry, origin: nonce })]);
      } catch (cause) {
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
      const deadline = performance.now() + READ_BACK_MS;
      let done: Applied | undefined;
      void own.then((outcome) => {
        done = outcome;
      });
      while (done === undefined && performance.now() < deadline) {
        await catchUp();
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
      let logLength: number | null = null;
      try {
        logLength = await client.sendCommand<number>(['XLEN', logKey]);
      } catch {
        logLength = null;
      }
      const error = readError ?? clientError();
      return {
        store: 'redis',
        location: `${location.display} ${logKey}`,
        position: applied,
        logLength,
        lag: logLength === null ? null : logLength - applied,
        connected: logLength !== null && client.isReady,
        lastError: error,
        lastEntryId: position,
        catchUp: {
          reads: rounds.count,
          meanMs: rounds.count === 0 ? 0 : Math.round((rounds.totalMs / rounds.count) * 1000) / 1000,
          maxMs: Math.round(rounds.maxMs * 1000) / 1000,
        },
      };
    },
    async close() {
      clearInterval(poll);
      try {
        await client.close();
      } catch {
        client.destroy();
      }
    },
  };
}
