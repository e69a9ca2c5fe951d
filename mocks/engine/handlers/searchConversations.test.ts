import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { call, contractIssues, testState } from '../../../test/support/engine-handlers.ts';
import { getAction } from './getAction.ts';
import { searchConversations } from './searchConversations.ts';

const state = testState({ actions: 3000 });

interface SearchBody {
  success: boolean;
  data: {
    actionId: string;
    createdAt: string;
    platform: string;
    status: string;
    threadId: string;
    easyId: string | null;
  }[];
  totalRecords: number;
  totalRecordsCapped: boolean;
  currentPage: number;
  pageSize: number;
  totalPages: number;
}

async function search(query: Record<string, unknown>, s = state, org = 'org_acme') {
  const result = await call(s, 'searchConversations', searchConversations, { query, org });
  expect(contractIssues('searchConversations', result)).toEqual([]);
  return result;
}

async function searchOk(query: Record<string, unknown>, s = state): Promise<SearchBody> {
  const result = await search(query, s);
  expect(result.status).toBe(200);
  return result.body as SearchBody;
}

describe('searchConversations', () => {
  it('SEARCH-ENVELOPE / SEARCH-PAGE-DEFAULT-1 / SEARCH-PAGESIZE-DEFAULT-50', async () => {
    const body = await searchOk({});
    expect(body.success).toBe(true);
    expect(body.currentPage).toBe(1);
    expect(body.pageSize).toBe(50);
    expect(body.data).toHaveLength(50);
    expect(body.totalRecords).toBe(1800);
    expect(body.totalRecordsCapped).toBe(false);
    expect(body.totalPages).toBe(36);
  });

  it('SEARCH-FILTER-ALL-TERMS: every term must hold', async () => {
    const body = await searchOk({ filter: 'platform=DISCORD+status=CLOSED', pageSize: 100 });
    expect(body.totalRecords).toBeGreaterThan(0);
    for (const item of body.data) {
      expect(item.platform).toBe('DISCORD');
      expect(item.status).toBe('CLOSED');
    }
    const spaced = await searchOk({ filter: 'platform=DISCORD status=CLOSED', pageSize: 100 });
    expect(spaced.totalRecords).toBe(body.totalRecords);
    const none = await searchOk({ filter: 'platform=DISCORD+platform=SLACK' });
    expect(none.totalRecords).toBe(0);
    expect(none.totalPages).toBe(0);
  });

  it('MOCK-QUERY-INVALID-400: a malformed filter and out-of-range paging are 400', async () => {
    for (const query of [
      { filter: 'platform' },
      { filter: 'nope=1' },
      { page: 0 },
      { page: 10_001 },
      { pageSize: 101 },
    ]) {
      expect((await search(query)).status, JSON.stringify(query)).toBe(400);
    }
  });

  it('property: pages are disjoint and, concatenated, the newest-first order (createdAt desc, actionId asc)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.constantFrom('', 'platform=TWITTER', 'responded=false', 'tag=Billing'),
        async (pageSize, filter) => {
          const first = await searchOk({ filter, pageSize, page: 1 });
          const pages = Math.min(first.totalPages, 4);
          const seen: SearchBody['data'] = [];
          for (let page = 1; page <= pages; page++)
            seen.push(...(await searchOk({ filter, pageSize, page })).data);
          expect(new Set(seen.map((i) => i.actionId)).size).toBe(seen.length);
          for (let k = 1; k < seen.length; k++) {
            const a = seen[k - 1];
            const b = seen[k];
            if (!a || !b) continue;
            const order =
              Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.actionId < b.actionId ? 1 : -1);
            expect(order).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it('SEARCH-TOTAL-CAPPED: the count stops at the cap and says so', async () => {
    const capped = testState({ actions: 3000, searchCap: 100 });
    const body = await searchOk({}, capped);
    expect(body.totalRecords).toBe(100);
    expect(body.totalRecordsCapped).toBe(true);
    const filtered = await searchOk({ filter: 'responded=true' }, capped);
    expect(filtered.totalRecords).toBe(100);
    expect(filtered.totalRecordsCapped).toBe(true);
    const small = await searchOk({ filter: 'platform=DISCOURSE+status=CANCELLED' }, capped);
    expect(small.totalRecordsCapped).toBe(false);
    expect(small.totalRecords).toBe(small.data.length);
  });

  it('DETAIL-CONSISTENT-WITH-LIST: search ids read back with getAction; easyId is readable', async () => {
    const body = await searchOk({ pageSize: 20 });
    for (const item of body.data) {
      expect(item.easyId).toMatch(/^ACME-\d+$/);
      const detail = await call(state, 'getAction', getAction, { pathParams: { id: item.actionId } });
      expect(detail.status).toBe(200);
    }
  });
});
