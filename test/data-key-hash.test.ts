/**
 * A data file gives a key by value (`key`) or by the SHA-256 of its value (`keyHash`), exactly one
 * (contract/data.schema.json); the engine keeps and exports the hash only, and an export loaded again
 * gives the same keys working.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NOTHING_EXISTS } from '../mocks/engine/data-file/references.ts';
import type { DataFile } from '../mocks/engine/data-file/types.ts';
import { checkDataFile } from '../mocks/engine/data-file/validate.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { admin } from './data-support.ts';

const ORG = { id: 'org_k', name: 'Keys' };
const hashOf = (value: string): string => `sha256:${createHash('sha256').update(value).digest('hex')}`;
const fileWith = (...keys: Record<string, unknown>[]): DataFile =>
  ({
    version: 1,
    organizations: [ORG],
    keys: keys.map((k) => ({
      organizationId: ORG.id,
      profile: 'reporting',
      expiresAt: null,
      ...k,
    })),
  }) as unknown as DataFile;
const problemsOf = (file: unknown): string[] => {
  const check = checkDataFile(file, NOTHING_EXISTS, 0);
  return check.ok ? [] : check.problems.map((p) => `${p.pointer}: ${p.message}`);
};
const status = async (engine: ReturnType<typeof createEngine>, key: string): Promise<number> =>
  (await engine.handle(new Request('http://mock.test/v0/agents', { headers: { 'x-api-key': key } }))).status;

describe('keys in a data file: by value or by hash', () => {
  it('exactly one of key and keyHash; a hash is sha256: and 64 lowercase hex digits', () => {
    const exactlyOne = '/keys/0: must have exactly one of "key", "keyHash"';
    expect(problemsOf(fileWith({ key: 'k_value_1', keyHash: hashOf('k_value_1') }))).toEqual([exactlyOne]);
    expect(problemsOf(fileWith({}))).toEqual([exactlyOne]);
    expect(problemsOf(fileWith({ keyHash: hashOf('x').toUpperCase() }))).toHaveLength(1);
    expect(problemsOf(fileWith({ keyHash: hashOf('x').slice(0, -1) }))).toHaveLength(1);
    expect(problemsOf(fileWith({ keyHash: hashOf('x') }))).toEqual([]);
  });

  it('the same key by value and by hash is listed twice', () => {
    expect(problemsOf(fileWith({ key: 'k_value_1' }, { keyHash: hashOf('k_value_1') }))).toEqual([
      '/keys/1/keyHash: this key is listed twice (by value or by hash)',
    ]);
  });

  it('a key given by hash authenticates its value; the export names every key by hash; reloaded, they work', async () => {
    const engine = createEngine({
      data: fileWith({ keyHash: hashOf('by_hash_1') }, { key: 'by_value_1' }),
      clock: 'frozen',
    });
    expect(await status(engine, 'by_hash_1')).toBe(200);
    expect(await status(engine, 'by_value_1')).toBe(200);
    expect(await status(engine, hashOf('by_hash_1'))).toBe(401);
    const listed = engine.admin.listKeys(ORG.id);
    expect(listed.map((k) => [k.keyHash, k.key])).toEqual([
      [hashOf('by_hash_1'), null],
      [hashOf('by_value_1'), 'by_value_1'],
    ]);
    const exported = (await admin(engine, 'GET', '/__mock/data')).body as DataFile;
    expect(JSON.stringify(exported)).not.toContain('by_value_1');
    expect(exported.keys?.map((k) => k.keyHash)).toEqual([hashOf('by_hash_1'), hashOf('by_value_1')]);
    const again = createEngine({ data: exported, clock: 'frozen' });
    for (const key of ['by_hash_1', 'by_value_1']) expect(await status(again, key)).toBe(200);
  });
});
