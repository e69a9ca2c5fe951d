/**
 * The worker thread of a compaction replica (`compaction-replica.ts`): an engine built as the main
 * one was, loaded from the same image and lines, then applying every line it is sent; asked for the
 * image at a position, it answers with the bytes a snapshot holds. Any failure is reported once and
 * ends the replica: a replica that applied a line differently would write a wrong snapshot.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ReplicaReply, ReplicaRequest, ReplicaStart } from './compaction-replica.ts';
import { captureImage, restoreImage } from './image.ts';
import { readLines } from './log-lines.ts';
import { createMemoryStore } from './memory.ts';
import { engineOnOrigin, type PersistentOptions } from './open.ts';
import { parseEntry } from './origin.ts';
import type { ApplyEntry, ImageAccess } from './types.ts';

const start = workerData as ReplicaStart;
const port = parentPort;
if (port === null) throw new Error('the compaction replica runs in a worker thread');
const reply = (message: ReplicaReply, transfer: ArrayBuffer[] = []): void =>
  port.postMessage(message, transfer);

let position = start.position;
/** Lines applied of those sent after the start (the main thread bounds how far behind they are). */
let fedApplied = 0;
let apply: ApplyEntry | undefined;
let access: ImageAccess | undefined;
let stopped = false;

/** A store that takes no write: the replica's engine changes only by the lines it is sent. */
const followerStore = createMemoryStore(() => {
  throw new Error('a compaction replica takes no write of its own');
});

function fail(message: string, id?: number): void {
  if (stopped) return;
  stopped = true;
  reply({ type: 'failed', message, ...(id === undefined ? {} : { id }) });
}

function applyLines(text: string): void {
  if (apply === undefined) throw new Error('the replica is not loaded');
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    at = end < 0 ? text.length : end + 1;
    if (line === '') continue;
    apply(parseEntry(line, `the replica's line at position ${position + 1}`));
    position += 1;
    fedApplied += 1;
  }
  reply({ type: 'applied', lines: fedApplied });
}

function capture(id: number, at: number): void {
  if (access === undefined) throw new Error('the replica is not loaded');
  if (position !== at) {
    fail(`asked for the image at ${at}, the replica stands at ${position}`, id);
    return;
  }
  const bytes = captureImage(access.take());
  // v8's buffer is its own, not a slice of a pool, so it can be moved rather than copied.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const out = whole ? bytes : Uint8Array.prototype.slice.call(bytes);
  reply({ type: 'image', id, bytes: out }, [out.buffer as ArrayBuffer]);
}

async function load(): Promise<void> {
  const engine = engineOnOrigin(start.setup.options as PersistentOptions, start.origin);
  await engine.useStore((applyEntry, image) => {
    apply = applyEntry;
    access = image;
    if (start.image !== null) image.put(restoreImage(start.image, image.take(), start.format));
    // The descriptor stays the main thread's: it closes it once this replica is ready or has stopped.
    const lines = start.fd === null ? [] : readLines(start.fd, start.from, start.to);
    for (const text of lines) {
      applyEntry(parseEntry(text, `the replica's line at position ${position + 1}`));
      position += 1;
    }
    return followerStore;
  });
}

// Lines and captures sent while it loads wait in the port's queue until the listener is on.
load().then(
  () => {
    port.on('message', (request: ReplicaRequest) => {
      if (stopped) return;
      try {
        if (request.type === 'lines') applyLines(request.text);
        else capture(request.id, request.position);
      } catch (cause) {
        fail((cause as Error).message, request.type === 'capture' ? request.id : undefined);
      }
    });
    reply({ type: 'ready' });
  },
  (cause: unknown) => fail(`cannot load: ${(cause as Error).message}`),
);
