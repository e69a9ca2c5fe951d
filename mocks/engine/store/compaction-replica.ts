/**
 * A second engine in a worker thread that follows a state file's log, so a compaction's image is
 * captured there and never on the event loop that answers requests. Walking and serialising the
 * state costs about 7 µs a moderation case (86 ms at 10,000 cases, 680 ms at 100,000): on the main
 * thread every read arriving meanwhile waited for it.
 *
 * The replica starts from what the main engine started from (the snapshot's image it loaded and the
 * log's lines after it, read through a file descriptor the main thread opened, so a compaction that
 * renames the file meanwhile changes nothing it reads), then is fed every line the main engine
 * applies, in log order. Applying a command depends on nothing but the state and the command (a
 * restart replays the same lines to the same state), so the replica's state at a position is the main
 * engine's. A capture at a position answers once the replica has applied every line fed before it.
 *
 * It costs a second copy of the state in memory and the second core's time to apply each write again.
 * A replica that fails (it cannot start, a line does not apply, it runs out of memory) stops for good
 * and says why; the store then captures on the main thread, as without one. Node only.
 */
import { closeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { workerEntryBeside } from '../worker-entry.ts';
import type { StateOrigin } from './origin.ts';

/**
 * What the replica builds its engine from: the persistent engine's options without its interceptors
 * (they observe requests and never shape the state). Structured-cloneable data only.
 */
export interface ReplicaSetup {
  readonly options: object;
  /** Fed lines it may have left to apply before it is stopped (default `MAX_BEHIND`). */
  readonly maxBehind?: number;
}

/**
 * A replica further behind than this many lines stops (and the store captures on the event loop):
 * the lines waiting for it are held in memory, which must stay bounded whatever the worker does.
 */
export const MAX_BEHIND = 100_000;

/** Fed lines are sent once this many wait (a few MB of text at most), or when a capture is asked. */
const FLUSH_LINES = 2048;

/** Where the replica starts: the image the main engine loaded, and the log's lines after it. */
export interface ReplicaStart {
  readonly setup: ReplicaSetup;
  readonly origin: StateOrigin;
  /** The snapshot's image and its format; null when the state was built from the log alone. */
  readonly image: Uint8Array | null;
  readonly format: number;
  /**
   * A descriptor of the log opened for the replica and the byte range to replay (null: nothing to
   * replay, the image is the state). It is closed here when the replica is ready or stops: a worker
   * that closes a descriptor its thread did not open makes Node warn.
   */
  readonly fd: number | null;
  readonly from: number;
  readonly to: number;
  /** The log position of the image (the lines come after it). */
  readonly position: number;
}

export interface CompactionReplica {
  /** One applied log line (ending in a newline), in log order. Sent in batches of `FLUSH_LINES`, or before a capture. */
  feed(line: string): void;
  /** The serialised image at `position`: rejects when the replica is not there or has stopped. */
  capture(position: number): Promise<Uint8Array>;
  /** Null while it works; otherwise why it stopped. */
  readonly failure: string | null;
  /** True once it has loaded what it started from: a capture then waits only for its serialisation. */
  readonly ready: boolean;
  /** What the health answer says of it. */
  readonly state: 'replica' | 'replica loading' | 'event loop';
  close(): Promise<void>;
}

/** Messages from the worker. */
export type ReplicaReply =
  | { readonly type: 'ready' }
  /** How many of the lines fed it has applied so far. */
  | { readonly type: 'applied'; readonly lines: number }
  | { readonly type: 'image'; readonly id: number; readonly bytes: Uint8Array }
  | { readonly type: 'failed'; readonly id?: number; readonly message: string }
  | { readonly type: 'boot-failed'; readonly message: string };

/** Messages to the worker. */
export type ReplicaRequest =
  | { readonly type: 'lines'; readonly text: string }
  | { readonly type: 'capture'; readonly id: number; readonly position: number };

/**
 * @example
 * const replica = startCompactionReplica({ setup, origin, image: null, format: 3, fd, from, to, position });
 * replica.feed(line); // every line applied, in order
 * const bytes = await replica.capture(position);
 */
export function startCompactionReplica(start: ReplicaStart): CompactionReplica {
  const entry = workerEntryBeside(
    new URL('./compaction-replica-worker.js', import.meta.url),
    new URL('./compaction-replica-worker.ts', import.meta.url),
  );
  let failure: string | null = null;
  let ready = false;
  let nextId = 1;
  const waiting = new Map<number, { resolve(bytes: Uint8Array): void; reject(error: Error): void }>();
  let batch: string[] = [];
  const maxBehind = start.setup.maxBehind ?? MAX_BEHIND;
  let fed = 0;
  let applied = 0;
  let worker: Worker;
  try {
    worker = new Worker(entry.source, { eval: entry.eval, workerData: start });
  } catch (cause) {
    // Nothing started: the descriptor is still the caller's to close.
    throw new Error(`cannot start the compaction replica: ${(cause as Error).message}`);
  }
  // A replica never keeps the process alive: the store's close stops it.
  worker.unref();
  let descriptorOpen = start.fd !== null;
  const release = (): void => {
    if (!descriptorOpen || start.fd === null) return;
    descriptorOpen = false;
    try {
      closeSync(start.fd);
    } catch {
      // Already closed: nothing is left to let go.
    }
  };
  const stop = (why: string): void => {
    release();
    if (failure !== null) return;
    failure = why;
    batch = [];
    for (const pending of waiting.values()) pending.reject(new Error(why));
    waiting.clear();
    void worker.terminate();
  };
  worker.on('message', (reply: ReplicaReply) => {
    if (reply.type === 'applied') applied = reply.lines;
    else if (reply.type === 'ready') {
      ready = true;
      release();
    } else if (reply.type === 'image') {
      waiting.get(reply.id)?.resolve(reply.bytes);
      waiting.delete(reply.id);
    } else if (reply.type === 'failed' || reply.type === 'boot-failed') {
      stop(`the compaction replica stopped: ${reply.message}`);
    }
  });
  worker.on('error', (error) => stop(`the compaction replica stopped: ${error.message}`));
  worker.on('exit', (code) => stop(`the compaction replica exited (code ${code})`));
  const flush = (): void => {
    if (batch.length === 0 || failure !== null) return;
    const request: ReplicaRequest = { type: 'lines', text: batch.join('') };
    batch = [];
    worker.postMessage(request);
  };
  return {
    feed(line) {
      if (failure !== null) return;
      fed += 1;
      if (fed - applied > maxBehind) {
        stop(`the compaction replica fell more than ${maxBehind} lines behind`);
        return;
      }
      batch.push(line);
      // Lines go over in large batches, not one message a turn: the messages, the worker's wake-ups
      // and applying a few lines at a time on cold caches cost several times the line's own replay
      // (about 9 µs a moderation case in a loop). A capture sends what is waiting first.
      if (batch.length >= FLUSH_LINES) flush();
    },
    capture(position) {
      if (failure !== null) return Promise.reject(new Error(failure));
      flush();
      const id = nextId++;
      const request: ReplicaRequest = { type: 'capture', id, position };
      return new Promise<Uint8Array>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage(request);
      });
    },
    get failure() {
      return failure;
    },
    get ready() {
      return ready && failure === null;
    },
    get state() {
      if (failure !== null) return 'event loop';
      return ready ? 'replica' : 'replica loading';
    },
    async close() {
      stop('the compaction replica was closed');
      await worker.terminate();
    },
  };
}
