/**
 * Group commit of the state file: writes that arrive together share one disk flush, each is answered
 * only once its line is on disk and in log order, and a read is answered while a flush is under way.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStateFile } from './file.ts';
import { createPersistentEngine } from './open.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-file-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function open(file: string) {
  return createPersistentEngine({ seed: 7, actions: 20 }, (describe, proposal) =>
    openStateFile(file, describe, proposal),
  );
}

describe('--state-file group commit', () => {
  it('32 concurrent writes share fewer flushes, are answered in log order, and survive a reopen', async () => {
    const file = join(dir, 'group.state');
    const { engine, store } = await open(file);
    const org = engine.admin.listOrganizations()[0]?.id ?? '';
    const before = engine.admin.listKeys().length;
    const created = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        engine.execute({ type: 'keys.create', input: { organizationId: org, name: `group ${i}` } }),
      ),
    );
    const health = await store.health();
    expect(health.position).toBe(32);
    expect(health.flushes).toBeGreaterThan(0);
    expect(health.flushes).toBeLessThan(32);
    // Applied in the order written: the n-th write made the n-th key.
    expect(created.map((k) => k.name)).toEqual(Array.from({ length: 32 }, (_, i) => `group ${i}`));
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(33);
    await store.close();

    const again = await open(file);
    expect(again.engine.admin.listKeys().length).toBe(before + 32);
    expect(again.engine.admin.listKeys().map((k) => k.key)).toEqual(
      expect.arrayContaining(created.map((k) => k.key)),
    );
    await again.store.close();
  });

  it('a read is answered while writes wait for their flush, and sees none of them before they are durable', async () => {
    const { engine, store } = await open(join(dir, 'reads.state'));
    const org = engine.admin.listOrganizations()[0]?.id ?? '';
    const before = engine.admin.listKeys().length;
    const order: string[] = [];
    const writes = Array.from({ length: 16 }, (_, i) =>
      engine
        .execute({ type: 'keys.create', input: { organizationId: org, name: `w ${i}` } })
        .then(() => order.push('write')),
    );
    const read = engine
      .handle(new Request('http://mock/__mock/keys'), { inProcess: true })
      .then(async (response) => {
        order.push('read');
        return ((await response.json()) as { keys: unknown[] }).keys.length;
      });
    expect(await read).toBe(before);
    await Promise.all(writes);
    expect(order[0]).toBe('read');
    expect(engine.admin.listKeys().length).toBe(before + 16);
    await store.close();
  });
});
