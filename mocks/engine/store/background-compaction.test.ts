/**
 * The compaction beside the writes, in process on a real file: writes that go on while it runs are
 * kept, a reset asked for while one runs (or is due) is made after it and alone, and the files open
 * again to the same state, with the log bounded by the snapshots.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStateFile } from './file.ts';
import { createPersistentEngine } from './open.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-background-compaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const open = (file: string, snapshotEvery = 3) =>
  createPersistentEngine({ seed: 7, actions: 20, clock: 'frozen' }, (describe, proposal) =>
    openStateFile(file, describe, proposal, { snapshotEvery }),
  );

const keyNames = (engine: Awaited<ReturnType<typeof open>>['engine']): string[] =>
  engine.admin
    .listKeys()
    .map((k) => k.name)
    .sort();

describe('compaction beside the writes', () => {
  it('keeps every write made while compactions run, makes a reset alone, and opens again to the same state', async () => {
    const file = join(dir, 'burst.state');
    const first = await open(file);
    const org = first.engine.admin.listOrganizations()[0]?.id ?? '';
    const create = (name: string) =>
      first.engine.execute({ type: 'keys.create', input: { organizationId: org, name } });
    // Waves of concurrent writes, a compaction due every three; a reset in the middle of one.
    for (let wave = 0; wave < 6; wave += 1) {
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 8; i += 1) {
        writes.push(create(`w${wave}-${i}`));
        if (wave === 3 && i === 4) writes.push(first.engine.execute({ type: 'reset' }));
      }
      await Promise.all(writes);
    }
    const health = await first.store.health();
    expect(health.lastError).toBeNull();
    expect(health.snapshot?.position).toBeGreaterThan(0);
    const before = keyNames(first.engine);
    // The reset dropped what came before it: no key of the first waves is left.
    expect(before.some((name) => name.startsWith('w0-'))).toBe(false);
    expect(before.filter((name) => name.startsWith('w5-'))).toHaveLength(8);
    await first.store.close();

    const again = await open(file);
    expect(again.notes).toEqual([]);
    expect(keyNames(again.engine)).toEqual(before);
    // The log holds at most what the snapshot before the latest does not cover: two intervals and
    // the writes of the last compaction's burst, not the 49 commands written.
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.length - 1).toBeLessThan(30);
    await again.store.close();
  });

  it('a reset asked for with a compaction due is made alone: no compaction runs beside it', async () => {
    const file = join(dir, 'reset-due.state');
    const first = await open(file, 1);
    const org = first.engine.admin.listOrganizations()[0]?.id ?? '';
    const create = (name: string) =>
      first.engine.execute({ type: 'keys.create', input: { organizationId: org, name } });
    await create('before');
    // The write makes a compaction due (one every command) just as the reset waits for its turn.
    await Promise.all([create('with-reset'), first.engine.execute({ type: 'reset' })]);
    await create('after');
    const before = keyNames(first.engine);
    expect(before).toContain('after');
    expect(before).not.toContain('before');
    expect((await first.store.health()).lastError).toBeNull();
    await first.store.close();
    const again = await open(file, 1);
    // Every snapshot beside the log fits it: none written by a compaction that raced the reset.
    expect(again.notes).toEqual([]);
    expect(keyNames(again.engine)).toEqual(before);
    await again.store.close();
  });
});
