import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { call, TEST_NOW, testState } from '../../../test/support/engine-handlers.ts';
import { actionIdOfRow } from '../records/state.ts';
import { getAction } from './getAction.ts';
import { getCustomFields } from './getCustomFields.ts';
import { listActions } from './listActions.ts';
import { searchConversations } from './searchConversations.ts';
import { updateCustomFields } from './updateCustomFields.ts';

const state = testState({ actions: 3000 });
const orgIds = ['org_acme', 'org_globex'] as const;

describe('organization isolation', () => {
  it('ORG-OTHER-ORG-ID-NOT-RESOLVED: any action of one organization is 404 for the other on every by-id route', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1), fc.nat(), async (owner, pick) => {
        const mine = state.data.orgs.get(orgIds[owner]);
        if (!mine) throw new Error('missing org');
        const id = actionIdOfRow(mine, pick % mine.table.size);
        const other = orgIds[1 - owner] ?? 'org_globex';
        expect(
          (await call(state, 'getAction', getAction, { org: orgIds[owner], pathParams: { id } })).status,
        ).toBe(200);
        expect((await call(state, 'getAction', getAction, { org: other, pathParams: { id } })).status).toBe(
          404,
        );
        expect(
          (
            await call(state, 'getCustomFields', getCustomFields, {
              org: other,
              pathParams: { actionId: id },
            })
          ).status,
        ).toBe(404);
        const write = await call(state, 'updateCustomFields', updateCustomFields, {
          org: other,
          pathParams: { actionId: id },
          body: { fields: [{ fieldName: 'order_number', value: 'x' }] },
        });
        expect(write.status).toBe(404);
      }),
      { numRuns: 100 },
    );
  });

  it('ORG-DATA-SCOPED: list and search never return another organization’s ids', async () => {
    const ids = (body: unknown): string[] =>
      (body as { data: { actionId: string }[] }).data.map((i) => i.actionId);
    const from = new Date(TEST_NOW - 90 * 86_400_000).toISOString();
    const list = await call(state, 'listActions', listActions, {
      query: { from, fullFilter: '', pageSize: 500 },
    });
    const acme = ids(list.body);
    const globexSearch = (
      await call(state, 'searchConversations', searchConversations, {
        org: 'org_globex',
        query: { pageSize: 100 },
      })
    ).body;
    const globex = ids(globexSearch);
    const acmeSet = new Set(acme);
    expect(globex.some((id) => acmeSet.has(id))).toBe(false);
    for (const id of acme.slice(0, 50)) {
      const read = await call(state, 'getAction', getAction, { org: 'org_globex', pathParams: { id } });
      expect(read.status).toBe(404);
    }
  });
});

describe('at 50k actions', () => {
  it('the default list answers from the index: totals equal a brute-force count', async () => {
    const big = testState({ actions: 50_000 });
    const org = big.data.orgs.get('org_acme');
    if (!org) throw new Error('missing org');
    const result = await call(big, 'listActions', listActions, { query: { pageSize: 500 } });
    const body = result.body as { totalRecords: number; data: unknown[] };
    let expected = 0;
    for (let row = 0; row < org.table.size; row++) {
      const t = org.table.createdAt[row] ?? 0;
      if (t >= TEST_NOW - 7 * 86_400_000 && t <= TEST_NOW && org.table.responded(row)) expected++;
    }
    expect(body.totalRecords).toBe(expected);
    expect(body.data).toHaveLength(Math.min(500, expected));
  });
});
