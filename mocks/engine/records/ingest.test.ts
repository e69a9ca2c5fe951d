import { describe, expect, it } from 'vitest';
import { call, contractIssues, TEST_NOW, testState } from '../../../test/support/engine-handlers.ts';
import { getAction } from '../handlers/getAction.ts';
import { listActions } from '../handlers/listActions.ts';
import { searchConversations } from '../handlers/searchConversations.ts';
import { addIngestedAction, upsertIngestedAction } from './ingest.ts';
import type { IngestedActionInput } from './ingest-types.ts';

const ID = '1234567890123456789012345';

function input(overrides: Partial<IngestedActionInput> = {}): IngestedActionInput {
  return {
    actionId: ID,
    platform: 'SLACK',
    serverId: 'T000123',
    serverName: 'Partner Slack',
    channelName: '#support',
    recordType: 'message',
    title: 'Ingested thread',
    summary: 'A thread that came in through the ingestion API.',
    isPublicPost: false,
    sourceURL: null,
    createdAt: new Date(TEST_NOW - 3_600_000).toISOString(),
    user: {
      userId: '000000000000000000042',
      name: 'Ana Ñandú',
      username: 'ana.ñandú',
      email: null,
      followerCount: null,
    },
    messages: [
      {
        id: '9007199254740993001',
        timestamp: TEST_NOW - 3_600_000,
        author: 'Ana',
        authorId: '000000000000000000042',
        authorType: 'USER',
        message: 'Hello',
      },
      {
        id: '9007199254740993002',
        timestamp: TEST_NOW - 1_800_000,
        author: 'Dana',
        authorId: '000417',
        authorType: 'AGENT',
        message: 'Hi!',
      },
    ],
    conversation: [
      {
        id: '9007199254740993001',
        timestamp: TEST_NOW - 3_600_000,
        author: 'Ana',
        authorId: '000000000000000000042',
        authorType: 'USER',
        message: 'Hello',
        parentMessageId: null,
      },
      {
        id: '9007199254740993002',
        timestamp: TEST_NOW - 1_800_000,
        author: 'Dana',
        authorId: '000417',
        authorType: 'AGENT',
        message: 'Hi!',
        parentMessageId: '9007199254740993001',
      },
    ],
    customFields: { order_number: 'ORD-9' },
    ...overrides,
  };
}

describe('ingested actions', () => {
  it('ID-STRING-PRESERVED: become visible to list, detail and search with identifiers byte for byte', async () => {
    const state = testState();
    expect(addIngestedAction(state.data, 'org_acme', input())).toEqual({ actionId: ID, created: true });
    const list = await call(state, 'listActions', listActions, { query: { pageSize: 500 } });
    expect(contractIssues('listActions', list)).toEqual([]);
    expect((list.body as { data: { actionId: string }[] }).data.map((i) => i.actionId)).toContain(ID);
    const detail = await call(state, 'getAction', getAction, { pathParams: { id: ID } });
    expect(contractIssues('getAction', detail)).toEqual([]);
    const body = detail.body as Record<string, unknown>;
    expect(body['user']).toMatchObject({ userId: '000000000000000000042' });
    expect((body['conversation'] as { parentMessageId: string | null }[])[1]?.parentMessageId).toBe(
      '9007199254740993001',
    );
    expect(body['totalAgentMessages']).toBe(1);
    const search = await call(state, 'searchConversations', searchConversations, {
      query: { filter: 'userId=000000000000000000042' },
    });
    expect(contractIssues('searchConversations', search)).toEqual([]);
    expect((search.body as { data: { actionId: string }[] }).data.map((i) => i.actionId)).toEqual([ID]);
    const other = await call(state, 'getAction', getAction, { pathParams: { id: ID }, org: 'org_globex' });
    expect(other.status).toBe(404);
  });

  it('ID-INGEST-EXTERNALID-RETRIES: an upsert with the same id replaces, never duplicates, and re-sorts the window', async () => {
    const state = testState();
    upsertIngestedAction(state.data, 'org_acme', input());
    const before = state.data.orgs.get('org_acme')?.byCreated.size;
    const moved = new Date(TEST_NOW - 10 * 86_400_000).toISOString();
    expect(
      upsertIngestedAction(
        state.data,
        'org_acme',
        input({ title: 'Renamed', createdAt: moved, messages: [] }),
      ),
    ).toEqual({
      actionId: ID,
      created: false,
    });
    expect(state.data.orgs.get('org_acme')?.byCreated.size).toBe(before);
    const recent = await call(state, 'listActions', listActions, {
      query: { pageSize: 500, fullFilter: '' },
    });
    expect((recent.body as { data: { actionId: string }[] }).data.map((i) => i.actionId)).not.toContain(ID);
    const detail = await call(state, 'getAction', getAction, { pathParams: { id: ID } });
    expect((detail.body as { actionTitle: string; createdAt: string }).actionTitle).toBe('Renamed');
    expect(() => addIngestedAction(state.data, 'org_acme', input())).toThrow(/exists/);
  });

  it('refuses an id that belongs to a seeded action', async () => {
    const state = testState();
    const list = await call(state, 'listActions', listActions, {});
    const seeded = (list.body as { data: { actionId: string }[] }).data[0]?.actionId ?? '';
    expect(() => upsertIngestedAction(state.data, 'org_acme', input({ actionId: seeded }))).toThrow(/seeded/);
  });

  it('an organization without seeded data gets an empty store that ingestion fills', async () => {
    const state = testState();
    upsertIngestedAction(state.data, 'org_new', input());
    expect(state.data.orgs.get('org_new')?.byCreated.size).toBe(1);
  });
});
