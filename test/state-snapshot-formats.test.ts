/**
 * Snapshot formats and the file store, in process: a state file compacted past a snapshot of format 1
 * or 2 (written by the versions before format 3) starts from it and answers as before; a snapshot of a
 * format this version cannot read is refused with its reason, and the whole log is replayed instead,
 * or, when the log was compacted past it, the start is refused with that reason (nothing applied).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { exportDataFile } from '../mocks/engine/data-file/export.ts';
import { createEngine, type Engine } from '../mocks/engine/engine.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { openStateFile } from '../mocks/engine/store/file.ts';
import { captureImage, restoreImage } from '../mocks/engine/store/image.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';
import type { ImageAccess } from '../mocks/engine/store/types.ts';
import { captureImageFormat1 } from './support/snapshot-format-1.ts';
import { withSubmissionObjects } from './support/snapshot-older-cases.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-snapshot-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const OPTIONS = { seed: 42, clock: 'frozen' } as const;

const open = (file: string, snapshotEvery = 0) =>
  createPersistentEngine(OPTIONS, (d, p) => openStateFile(file, d, p, { snapshotEvery }));

/** A state file of `n` cases, compacted by a snapshot every `every` writes. */
async function written(name: string, n: number, every: number): Promise<string> {
  const file = join(dir, name);
  const made = await open(file, every);
  for (let i = 0; i < n; i += 1)
    await made.engine.execute({
      type: 'moderation.submit',
      organizationId: 'org_acme',
      submission: sampleSubmission({ externalId: `${name}-${i}` }),
    });
  await made.store.close();
  return file;
}

const split = (bytes: Buffer): { header: Record<string, unknown>; image: Buffer } => {
  const end = bytes.indexOf(10);
  return { header: JSON.parse(bytes.subarray(0, end).toString()), image: bytes.subarray(end + 1) };
};

/** Rewrites the snapshot at `path` with `image` under a header of `format` (size and checksum fit). */
function rewrite(path: string, image: Uint8Array, format: number): void {
  const { header } = split(readFileSync(path));
  const sha256 = createHash('sha256').update(image).digest('hex');
  const next = { ...header, 'cca-kit-snapshot': format, bytes: image.byteLength, sha256 };
  writeFileSync(path, Buffer.concat([Buffer.from(`${JSON.stringify(next)}\n`), image]));
}

/** The image in the snapshot at `path`, taken out of a throwaway engine and written as `format` (1 or 2). */
async function asFormat(path: string, origin: number, format: 1 | 2): Promise<Buffer> {
  const engine = createEngine({ seed: 42, clock: new MockClock({ start: origin }), origin });
  let access: ImageAccess | undefined;
  await engine.useStore((apply, image) => {
    access = image;
    return {
      kind: 'memory',
      synchronous: true,
      write: apply,
      catchUp: () => undefined,
      health: () => ({
        store: 'memory',
        location: null,
        position: 0,
        logLength: 0,
        lag: 0,
        connected: true,
        lastError: null,
      }),
      close: async () => undefined,
    };
  });
  const image = access as ImageAccess;
  image.put(restoreImage(split(readFileSync(path)).image, image.take(), 3));
  const older = withSubmissionObjects(image.take());
  return format === 1 ? captureImageFormat1(older) : captureImage(older);
}

const caseTexts = async (engine: Engine): Promise<string[]> => {
  const key = engine.admin.listKeys().find((k) => k.organizationId === 'org_acme' && k.status === 'active')
    ?.key as string;
  const texts: string[] = [];
  for (const id of engine.state.moderation.byCaseId.keys()) {
    const answer = await engine.handle(
      new Request(`http://mock/v0/moderation/cases/${id}`, { headers: { 'x-api-key': key } }),
      { remoteAddress: '127.0.0.1' },
    );
    texts.push(`${answer.status} ${await answer.text()}`);
  }
  return texts;
};

describe('--state-file snapshots of another format', () => {
  it.each([1, 2] as const)(
    'a log compacted past a format-%i snapshot starts from it and answers and exports as from the format-3 one',
    async (format) => {
      const file = await written(`old-${format}.state`, 25, 10);
      expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0] as string)).toMatchObject({ base: 10 });
      expect(split(readFileSync(`${file}.snapshot`)).header['cca-kit-snapshot']).toBe(3);
      const current = await open(file);
      // The second compaction captures where the writes are when the first one ends: 20 or later.
      const position = (await current.store.health()).snapshot?.position;
      expect(position).toBeGreaterThanOrEqual(20);
      const expected = await caseTexts(current.engine);
      const exported = JSON.stringify(exportDataFile(current.engine.state));
      expect(expected).toHaveLength(25);
      await current.store.close();
      for (const path of [`${file}.snapshot`, `${file}.snapshot.prev`])
        rewrite(path, await asFormat(path, current.origin.clockStart, format), format);
      const old = await open(file);
      expect(old.notes).toEqual([]);
      expect((await old.store.health()).snapshot?.position).toBe(position);
      expect(await caseTexts(old.engine)).toEqual(expected);
      expect(JSON.stringify(exportDataFile(old.engine.state))).toBe(exported);
      await old.store.close();
    },
  );

  it('a snapshot of a format it cannot read is refused by name: the whole log is replayed, or a compacted one is refused', async () => {
    const whole = await written('whole.state', 12, 10);
    const current = await open(whole);
    const expected = await caseTexts(current.engine);
    await current.store.close();
    const snapshot = `${whole}.snapshot`;
    rewrite(snapshot, split(readFileSync(snapshot)).image, 99);
    const replayed = await open(whole);
    expect(replayed.notes.join('\n')).toMatch(
      /refused snapshot .*whole\.state\.snapshot: format 99, this version reads 1, 2, 3/,
    );
    expect((await replayed.store.health()).snapshot).toBeNull();
    expect(await caseTexts(replayed.engine)).toEqual(expected);
    await replayed.store.close();

    const compacted = await written('compacted.state', 25, 10);
    for (const path of [`${compacted}.snapshot`, `${compacted}.snapshot.prev`])
      rewrite(path, split(readFileSync(path)).image, 99);
    await expect(open(compacted)).rejects.toThrow(
      /compacted past its first 10 commands and no usable snapshot .*format 99, this version reads 1, 2, 3.*nothing was applied/,
    );
  });
});
