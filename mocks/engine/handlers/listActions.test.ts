import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { call, contractIssues, TEST_NOW, testState } from '../../../test/support/engine-handlers.ts';
import { getAction } from './getAction.ts';
import { listActions } from './listActions.ts';

const state = testState({ actions: 4000 });
const DAY = 86_400_000;

interface Item {
  actionId: string;
  createdAt: string;
  updatedAt: string | null;
  totalAgentMessages: number;
  conversationJson: string | null;
  platform: string;
}
interface ListBody {
  data: Item[];
  totalRecords: number;
  currentPage: number;
  pageSize: number;
  totalPages: number;
}

async function list(query: Record<string, unknown>, org = 'org_acme') {
  const result = await call(state, 'listActions', listActions, { query, org });
  expect(contractIssues('listActions', result)).toEqual([]);
  return result;
}

async function listOk(query: Record<string, unknown>, org = 'org_acme'): Promise<ListBody> {
  const result = await list(query, org);
  expect(result.status).toBe(200);
  return result.body as ListBody;
}

const ms = (iso: string | null): number => (iso === null ? Number.NaN : Date.parse(iso));

describe('listActions', () => {
  it('LIST-RESPONSE-ENVELOPE / LIST-PAGESIZE-DEFAULT-50: answers data and consistent paging numbers', async () => {
    const body = await listOk({});
    expect(body.pageSize).toBe(50);
    expect(body.currentPage).toBe(1);
    expect(body.data.length).toBe(Math.min(50, body.totalRecords));
    expect(body.totalPages).toBe(Math.ceil(body.totalRecords / 50));
  });

  it('LIST-DEFAULT-WINDOW-7-DAYS / LIST-DEFAULT-RESPONDED-ONLY: the past seven days, responded actions only', async () => {
    const body = await listOk({ pageSize: 500 });
    expect(body.totalRecords).toBeGreaterThan(0);
    expect(body.totalRecords).toBeLessThanOrEqual(500);
    for (const item of body.data) {
      expect(ms(item.createdAt)).toBeGreaterThanOrEqual(TEST_NOW - 7 * DAY);
      expect(ms(item.createdAt)).toBeLessThanOrEqual(TEST_NOW);
      expect(item.totalAgentMessages).toBeGreaterThan(0);
    }
    expect(body.data.length).toBe(body.totalRecords);
  });

  it('LIST-FULLFILTER-NO-RESPONDED-DEFAULT: with fullFilter unresponded actions are listed too', async () => {
    const all = await listOk({ fullFilter: 'platform=DISCORD', pageSize: 500 });
    expect(all.data.some((i) => i.totalAgentMessages === 0)).toBe(true);
    expect(all.data.every((i) => i.platform === 'DISCORD')).toBe(true);
    const responded = await listOk({ fullFilter: 'platform=DISCORD+responded=true', pageSize: 500 });
    const unresponded = await listOk({ fullFilter: 'platform=DISCORD+responded=false', pageSize: 500 });
    expect(responded.totalRecords + unresponded.totalRecords).toBe(all.totalRecords);
  });

  it('LIST-LEGACY-FILTER-ONLY-RESPONDED / LIST-LEGACY-FILTERJSON-ONLY-RESPONDED: only the responded flag is read', async () => {
    const unresponded = await listOk({ filter: 'responded=false+platform=DISCORD', pageSize: 500 });
    expect(unresponded.data.every((i) => i.totalAgentMessages === 0)).toBe(true);
    expect(new Set(unresponded.data.map((i) => i.platform)).size).toBeGreaterThan(1);
    const viaJson = await listOk({
      filterJson: '{"responded":false,"platform":"DISCORD","status":"OPEN"}',
      pageSize: 500,
    });
    expect(viaJson.totalRecords).toBe(unresponded.totalRecords);
    const ignored = await listOk({ filter: 'platform=DISCORD', pageSize: 500 });
    const defaults = await listOk({ pageSize: 500 });
    expect(ignored.totalRecords).toBe(defaults.totalRecords);
  });

  it('LIST-LEGACY-FILTERJSON-ONLY-RESPONDED: a malformed filterJson is a 400', async () => {
    for (const filterJson of ['{', '[1]', '{"responded":"maybe"}']) {
      const result = await list({ filterJson });
      expect(result.status, filterJson).toBe(400);
    }
  });

  it('LIST-FULLFILTER-WITH-FILTER-400: fullFilter with filter or filterJson is a 400', async () => {
    expect((await list({ fullFilter: 'platform=SLACK', filter: 'responded=true' })).status).toBe(400);
    expect((await list({ fullFilter: 'platform=SLACK', filterJson: '{}' })).status).toBe(400);
  });

  it('LIST-FULLFILTER-MAX-LENGTH: a fullFilter over 10000 characters is a 400', async () => {
    const long = `platform=SLACK+channelName=${'x'.repeat(10_000)}`;
    const result = await list({ fullFilter: long });
    expect(result.status).toBe(400);
    expect(JSON.stringify(result.body)).toContain('10000');
  });

  it('MOCK-QUERY-INVALID-400: a malformed fullFilter, a bad date, from after to and a bad pageSize are 400', async () => {
    for (const query of [
      { fullFilter: 'platform' },
      { fullFilter: 'colour=red' },
      { from: 'yesterday' },
      { from: '2026-11-20', to: '2026-11-19' },
      { pageSize: 0 },
      { pageSize: 501 },
    ]) {
      const result = await list(query);
      expect(result.status, JSON.stringify(query)).toBe(400);
      expect((result.body as { success: boolean }).success).toBe(false);
    }
  });

  it('LIST-TO-INCLUSIVE: an action whose createdAt equals to (and from) is inside the window', async () => {
    const [first] = (await listOk({ pageSize: 5 })).data;
    if (!first) throw new Error('empty list');
    const body = await listOk({ from: first.createdAt, to: first.createdAt });
    expect(body.data.map((i) => i.actionId)).toEqual([first.actionId]);
  });

  it('LIST-TO-DATE-ONLY-MIDNIGHT: to=<date> excludes the rest of that day', async () => {
    const day = new Date(TEST_NOW - 3 * DAY).toISOString().slice(0, 10);
    const midnight = Date.parse(`${day}T00:00:00.000Z`);
    const sameDay = await listOk({
      from: day,
      to: new Date(midnight + DAY - 1).toISOString(),
      pageSize: 500,
    });
    expect(sameDay.data.some((i) => ms(i.createdAt) > midnight)).toBe(true);
    const body = await listOk({
      from: new Date(midnight - 2 * DAY).toISOString().slice(0, 10),
      to: day,
      pageSize: 500,
    });
    expect(body.totalRecords).toBeGreaterThan(0);
    for (const item of body.data) expect(ms(item.createdAt)).toBeLessThanOrEqual(midnight);
  });

  it('LIST-FROM-DATE-ONLY-MIDNIGHT: from=<date> starts at midnight UTC of that date', async () => {
    const day = new Date(TEST_NOW - 2 * DAY).toISOString().slice(0, 10);
    const body = await listOk({ from: day, pageSize: 500 });
    for (const item of body.data) expect(ms(item.createdAt)).toBeGreaterThanOrEqual(Date.parse(day));
  });

  it('LIST-SORTBY-WINDOW-FIELD / LIST-SORTBY-NEWEST-FIRST: sortBy=updatedAt windows and orders by updatedAt', async () => {
    const from = new Date(TEST_NOW - 10 * DAY).toISOString();
    const to = new Date(TEST_NOW - 5 * DAY).toISOString();
    const body = await listOk({ sortBy: 'updatedAt', from, to, pageSize: 500 });
    expect(body.data.length).toBeGreaterThan(0);
    for (const item of body.data) {
      expect(item.updatedAt).not.toBeNull();
      expect(ms(item.updatedAt)).toBeGreaterThanOrEqual(ms(from));
      expect(ms(item.updatedAt)).toBeLessThanOrEqual(ms(to));
    }
    const times = body.data.map((i) => ms(i.updatedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('LIST-CONVERSATIONJSON-ONLY-WHEN-REQUESTED / LIST-CONVERSATIONJSON-FILLED-WHEN-REQUESTED', async () => {
    const plain = await listOk({ pageSize: 5 });
    expect(plain.data.every((i) => i.conversationJson === null)).toBe(true);
    const full = await listOk({ pageSize: 5, includeFullConversation: true });
    for (const item of full.data) {
      const conversation = JSON.parse(item.conversationJson ?? 'null') as { authorType: string }[];
      expect(Array.isArray(conversation)).toBe(true);
      expect(conversation.some((m) => m.authorType === 'AGENT')).toBe(true);
    }
  });

  it('DETAIL-CONSISTENT-WITH-LIST / ID-ACTIONID-STABLE: every listed id reads back with the same summary fields', async () => {
    const body = await listOk({ pageSize: 100, fullFilter: '' });
    for (const item of body.data) {
      const detail = await call(state, 'getAction', getAction, { pathParams: { id: item.actionId } });
      expect(detail.status).toBe(200);
      const d = detail.body as Record<string, unknown>;
      expect(d['actionId']).toBe(item.actionId);
      expect(d['createdAt']).toBe(item.createdAt);
    }
  });

  it('ORG-DATA-SCOPED: organizations see disjoint actions', async () => {
    const acme = await listOk({ fullFilter: '', pageSize: 500 }, 'org_acme');
    const globex = await listOk({ fullFilter: '', pageSize: 500 }, 'org_globex');
    const acmeIds = new Set(acme.data.map((i) => i.actionId));
    expect(globex.data.some((i) => acmeIds.has(i.actionId))).toBe(false);
  });

  it('property: every item lies in the window, newest first, at most pageSize, totals consistent', async () => {
    const instant = fc.integer({ min: TEST_NOW - 95 * DAY, max: TEST_NOW + DAY });
    await fc.assert(
      fc.asyncProperty(
        instant,
        instant,
        fc.integer({ min: 1, max: 500 }),
        fc.constantFrom('createdAt', 'updatedAt'),
        fc.constantFrom<Record<string, unknown>>(
          {},
          { fullFilter: '' },
          { filter: 'responded=false' },
          { fullFilter: 'status=CLOSED' },
        ),
        async (a, b, pageSize, sortBy, extra) => {
          const [from, to] = a <= b ? [a, b] : [b, a];
          const body = await listOk({
            from: new Date(from).toISOString(),
            to: new Date(to).toISOString(),
            pageSize,
            sortBy,
            ...extra,
          });
          const times = body.data.map((i) => ms(sortBy === 'createdAt' ? i.createdAt : i.updatedAt));
          for (const t of times) {
            expect(t).toBeGreaterThanOrEqual(from);
            expect(t).toBeLessThanOrEqual(to);
          }
          for (let k = 1; k < times.length; k++)
            expect(times[k]).toBeLessThanOrEqual(times[k - 1] ?? Number.POSITIVE_INFINITY);
          expect(body.data.length).toBe(Math.min(pageSize, body.totalRecords));
          expect(body.totalPages).toBe(Math.ceil(body.totalRecords / pageSize));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('property: a smaller page is a prefix of a larger one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 60 }),
        async (p, q, days) => {
          const [small, large] = p <= q ? [p, q] : [q, p];
          const query = { from: new Date(TEST_NOW - days * DAY).toISOString(), fullFilter: '' };
          const a = await listOk({ ...query, pageSize: small });
          const b = await listOk({ ...query, pageSize: large });
          expect(b.data.slice(0, small).map((i) => i.actionId)).toEqual(a.data.map((i) => i.actionId));
          expect(a.totalRecords).toBe(b.totalRecords);
        },
      ),
      { numRuns: 30 },
    );
  });
});
