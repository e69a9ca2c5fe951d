/**
 * The reference checks of a data file run only on what the data schema accepted, and never throw on it:
 * whatever JSON a user loads is refused with problems, never a crash. The schema is checked in full in
 * node (ajv) and in a browser build (src/contract/schema-closures/, held to ajv by its own tests).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOTHING_EXISTS, referenceProblems } from '../mocks/engine/data-file/references.ts';
import { schemaProblems } from '../mocks/engine/data-file/schema.ts';
import type { DataFile } from '../mocks/engine/data-file/types.ts';

describe('the data file check', () => {
  it('whatever JSON it is given, either refuses it by schema or the reference checks run without throwing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        for (const value of [
          a,
          { version: 1, organizations: [a], actions: [b] },
          { version: 1, organizations: [], keys: a },
        ]) {
          if (schemaProblems(value).length > 0) continue;
          expect(() => referenceProblems(value as unknown as DataFile, NOTHING_EXISTS, 0)).not.toThrow();
        }
      }),
    );
  });
});
