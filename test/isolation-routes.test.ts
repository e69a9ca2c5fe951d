/**
 * Organization isolation is checked on every read route of the contract: the list of routes is
 * derived from the contract's operations (each GET guarded by a scope), never a hand list, so a read
 * route added to the contract without an isolation check fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/contract/index.ts';
import { isolationLaws } from '../suites/laws/isolation.ts';
import { ROOT } from './support/processes.ts';

const source = readFileSync(join(ROOT, 'suites/laws/isolation.ts'), 'utf8');
const readRoutes = [...operations.values()].filter((op) => op.method === 'GET' && op.requiredScope !== null);

describe('organization isolation covers every read route (ORG-DATA-SCOPED, ORG-OTHER-ORG-ID-NOT-RESOLVED)', () => {
  it('the contract has read routes of every kind: lists, details, aggregates, search, custom fields, moderation status', () => {
    expect(readRoutes.length).toBeGreaterThanOrEqual(13);
  });

  it("each read route is called by an isolation law with both organizations' keys (analytics by their contract tag)", () => {
    const uncovered = readRoutes
      .filter((op) => !op.tags.includes('Analytics'))
      .filter((op) => !source.includes(`'${op.operationId}'`))
      .map((op) => op.operationId);
    expect(uncovered).toEqual([]);
    expect(source).toMatch(/op\.tags\.includes\('Analytics'\)/);
    expect(isolationLaws.every((law) => law.needs.keys?.includes('otherOrgRead'))).toBe(true);
  });
});
