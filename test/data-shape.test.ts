/** The reduced check used where ajv is not available (browser builds): malformed files are refused, never a crash. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scenario } from '../mocks/engine/data-file/builder.ts';
import { NOTHING_EXISTS, referenceProblems } from '../mocks/engine/data-file/references.ts';
import { schemaProblems } from '../mocks/engine/data-file/schema.ts';
import { shapeProblems } from '../mocks/engine/data-file/shape.ts';
import type { DataFile } from '../mocks/engine/data-file/types.ts';

describe('the reduced shape check', () => {
  it('accepts what the schema accepts (a built scenario)', () => {
    const file = scenario().organization('o').action().moderationCase({ analysisStatus: 'pending' }).build();
    expect(schemaProblems(file)).toEqual([]);
    expect(shapeProblems(file)).toEqual([]);
  });

  it('refuses malformed catalog and action lists by pointer', () => {
    const bad = {
      version: 1,
      organizations: [{ id: 'o', tags: 5, tagGroups: [1] }],
      actions: [
        {
          organizationId: 'o',
          actionId: 'a',
          title: 't',
          platform: 'SLACK',
          createdAt: 'now',
          user: { userId: 'u', name: 'n', username: 'n' },
          tags: 'x',
        },
      ],
    };
    expect(shapeProblems(bad).map((p) => p.pointer)).toEqual([
      '/organizations/0/tags',
      '/organizations/0/tagGroups',
      '/actions/0/tags',
    ]);
  });

  it('whatever JSON it is given, either refuses it or the reference checks run without throwing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        for (const value of [
          a,
          { version: 1, organizations: [a], actions: [b] },
          { version: 1, organizations: [], keys: a },
        ]) {
          if (shapeProblems(value).length > 0) continue;
          expect(() => referenceProblems(value as unknown as DataFile, NOTHING_EXISTS, 0)).not.toThrow();
        }
      }),
    );
  });
});
