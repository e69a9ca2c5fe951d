/**
 * A snapshot: the engine's image (`image.ts`) at one log position, with what it belongs to (the log's
 * fingerprint and epoch, the version that wrote it) and a sha256 of its bytes. One JSON header line,
 * then the bytes. A snapshot that fails any check is refused with the reason, never half-loaded; the
 * stores then use the previous one, or the whole log. Node only.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Bumped with any change of the image's layout (`image.ts`): the format a snapshot is written in. A
 * snapshot of a format this version cannot read is refused (the previous snapshot or the log is used).
 * 1: the image lists its class instances by walk order; 2: by reference (no walk to restore); 3: as 2,
 * and a moderation case holds its submission as JSON text (`submissionJson`), not as an object.
 */
export const SNAPSHOT_FORMAT = 3;
/** The formats this version reads: the image is restored by the layout its header names. */
export const READABLE_FORMATS: readonly number[] = [1, 2, 3];

export interface SnapshotHeader {
  readonly 'cca-kit-snapshot': number;
  readonly fingerprint: string;
  readonly epoch: string | null;
  /** Log entries the image has applied (a count from the log's start, compacted ones included). */
  readonly position: number;
  /** A shared log: the id of the last entry covered. */
  readonly lastId?: string;
  /** True when written for a reset: nothing before it is needed. */
  readonly reset?: boolean;
  readonly createdAt: string;
  readonly bytes: number;
  readonly sha256: string;
}

export interface Snapshot {
  readonly header: SnapshotHeader;
  readonly image: Uint8Array;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export type SnapshotMeta = Omit<SnapshotHeader, 'cca-kit-snapshot' | 'bytes' | 'sha256' | 'createdAt'>;

export function encodeSnapshot(meta: SnapshotMeta, image: Uint8Array): Buffer {
  return withHeader(meta, image, sha256(image));
}

/**
 * `encodeSnapshot` with the checksum computed off the main thread (WebCrypto's digest runs in libuv's
 * pool): hashing a large image would otherwise hold the event loop for as long as it takes.
 */
export async function encodeSnapshotAsync(meta: SnapshotMeta, image: Uint8Array): Promise<Buffer> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', image as Uint8Array<ArrayBuffer>);
  return withHeader(meta, image, Buffer.from(digest).toString('hex'));
}

function withHeader(meta: SnapshotMeta, image: Uint8Array, checksum: string): Buffer {
  const header: SnapshotHeader = {
    'cca-kit-snapshot': SNAPSHOT_FORMAT,
    ...meta,
    createdAt: new Date().toISOString(),
    bytes: image.byteLength,
    sha256: checksum,
  };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), image]);
}

/** What a snapshot must match to be used. */
export interface SnapshotExpectation {
  readonly fingerprint: string;
  readonly epoch: string | null;
}

/** The snapshot in `bytes`, or the reason it cannot be used. */
export function decodeSnapshot(bytes: Uint8Array, expected: SnapshotExpectation): Snapshot | string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = buffer.indexOf(10);
  if (end < 0) return 'no header line';
  let header: SnapshotHeader;
  try {
    header = JSON.parse(buffer.subarray(0, end).toString('utf8')) as SnapshotHeader;
  } catch {
    return 'its header is not JSON';
  }
  if (!READABLE_FORMATS.includes(header['cca-kit-snapshot']))
    return `format ${JSON.stringify(header['cca-kit-snapshot'])}, this version reads ${READABLE_FORMATS.join(', ')}`;
  if (header.fingerprint !== expected.fingerprint) return 'written for another origin (fingerprint)';
  if ((header.epoch ?? null) !== expected.epoch)
    return `of another log (epoch ${header.epoch ?? 'none'}, the log's is ${expected.epoch ?? 'none'})`;
  const image = buffer.subarray(end + 1);
  if (image.byteLength !== header.bytes) return `cut short (${image.byteLength} of ${header.bytes} bytes)`;
  if (sha256(image) !== header.sha256) return 'checksum mismatch (damaged)';
  return { header, image };
}

/** Writes `bytes` to `path` atomically: a temporary file, fsync, rename, fsync of the directory. */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  syncDirectory(path);
}

/** Makes a rename in the directory of `path` durable. */
export function syncDirectory(path: string): void {
  const fd = openSync(dirname(path), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The snapshot file at `path`: undefined when absent, else the snapshot or why it is refused. */
export function readSnapshotFile(path: string, expected: SnapshotExpectation): Snapshot | string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    if ((cause as { code?: unknown }).code === 'ENOENT') return undefined;
    return `cannot be read (${(cause as Error).message})`;
  }
  return decodeSnapshot(bytes, expected);
}
