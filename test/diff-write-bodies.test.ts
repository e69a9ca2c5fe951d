/**
 * The bodies `cca-kit diff --allow-writes` sends: for any seed and run prefix they are valid for the
 * contract, every external id they create starts with the prefix, and a seed reproduces them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateSchema } from '../src/contract/index.ts';
import { patchBody, restoreBody, writableField, writeBodies } from '../src/diff/writes.ts';

const seeds = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const prefixes = fc.stringMatching(/^[a-z0-9-]{1,24}$/).map((id) => `cca-conform-${id}-`);

describe('diff write bodies', () => {
  it('are valid ModerationSubmission and IngestionBatch bodies, every external id prefixed', () => {
    fc.assert(
      fc.property(seeds, prefixes, (seed, prefix) => {
        const { moderation, ingestion } = writeBodies(seed, prefix);
        expect(validateSchema('ModerationSubmission', moderation).ok).toBe(true);
        expect(validateSchema('IngestionBatch', ingestion).ok).toBe(true);
        expect(String(moderation['externalId']).startsWith(prefix)).toBe(true);
        expect(String(ingestion['serverId']).startsWith(prefix)).toBe(true);
        const records = ingestion['records'] as { externalId: string }[];
        expect(records.length).toBeGreaterThan(0);
        for (const r of records) expect(r.externalId.startsWith(prefix)).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('a seed reproduces the same bodies', () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        expect(writeBodies(seed, 'cca-conform-x-')).toEqual(writeBodies(seed, 'cca-conform-x-'));
      }),
      { numRuns: 10 },
    );
  });

  it('picks the first field of a generable type, and restores its original value', () => {
    const body = {
      actionId: '0012',
      fields: [
        { fieldName: 'choice', fieldType: 'single_select', value: 'a' },
        { fieldName: 'note', fieldType: 'text', value: null },
        { fieldName: 'score', fieldType: 'number', value: 3 },
      ],
    };
    const field = writableField(body);
    expect(field).toEqual({ fieldName: 'note', fieldType: 'text', original: null });
    if (field === undefined) return;
    const patch = patchBody(field, 9) as { fields: { fieldName: string; value: unknown }[] };
    expect(patch.fields[0]?.fieldName).toBe('note');
    expect(typeof patch.fields[0]?.value).toBe('string');
    expect(restoreBody(field)).toEqual({ fields: [{ fieldName: 'note', value: null }] });
    expect(writableField({ fields: [{ fieldName: 'c', fieldType: 'single_select' }] })).toBeUndefined();
    expect(writableField('not an object')).toBeUndefined();
  });
});
