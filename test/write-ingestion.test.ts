/**
 * Ingestion through the in-process engine (self-check on): scope, validation (422 naming the field),
 * identity and retries, processing on the engine clock, and the mapping of records to actions.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { ingestedActionId } from '../mocks/engine/ingestion/to-action.ts';
import { findRow, orgData } from '../mocks/engine/records/state.ts';
import { actionDetail, searchItem } from '../mocks/engine/records/view.ts';
import { AD_ORG, createHarness, obj, STANDARD_ORG, type WriteHarness } from './write-support.ts';

let harness: WriteHarness;
const fresh = (options: Parameters<typeof createHarness>[0] = {}) => {
  harness = createHarness(options);
  return harness;
};
afterEach(() => {
  expect(harness.engine.selfCheckFailures).toEqual([]);
  expect(harness.engine.unexpectedErrors).toEqual([]);
});

const BIG = '1234567890123456789012345';
const record = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  authorId: '00017',
  authorName: 'Zoë',
  body: `body of ${externalId}`,
  createdAt: '2026-11-20T10:00:00Z',
  recordType: 'message',
  ...extra,
});
const batch = (records: unknown[], extra: Record<string, unknown> = {}) => ({
  platform: 'DISCORD',
  serverId: '000042',
  serverName: 'Guild',
  ...extra,
  records,
});
const ingest = (h: WriteHarness, body: unknown, key = h.keys.import) =>
  h.request('POST', '/v0/ingest/records', key, body);

/** The action an INSIGHTS thread became, through the records slice's own views (null: not an action). */
function actionOf(
  h: WriteHarness,
  threadExternalId: string,
  extra: { platform?: string; serverId?: string; org?: string } = {},
) {
  const org = orgData(h.engine.state.data, extra.org ?? AD_ORG);
  const actionId = ingestedActionId({
    platform: extra.platform ?? 'DISCORD',
    serverId: extra.serverId ?? '000042',
    threadExternalId,
  });
  const row = findRow(org, actionId);
  return row < 0 ? null : { detail: actionDetail(org, row), search: searchItem(org, row) };
}

describe('ingestion intake', () => {
  it('ING-202-ACCEPTED, SCHEMA-INGESTION-ACCEPTED, ING-ACCEPTED-COUNT: 202 with the count of records', async () => {
    const h = fresh();
    const answer = await ingest(h, batch([record('a'), record('b'), record('c')]));
    expect(answer).toMatchObject({ status: 202, body: { status: 'accepted', accepted: 3 } });
  });

  it('SCOPE-INGEST-PERMISSION, AUTH-WRITE-KEY-NO-INGEST-403, AUTH-REPORTING-KEY-NO-INGEST-403: only import keys', async () => {
    const h = fresh();
    for (const key of [h.keys.write, h.keys.read_write, h.keys.reporting]) {
      const answer = await ingest(h, batch([record('a')]), key);
      expect(answer.status).toBe(403);
      expect(obj(answer.body)['success']).toBe(false);
    }
    expect(h.engine.state.ingestion.records.size).toBe(0);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['ING-PLATFORM-ENUM', batch([record('a')], { platform: 'MYSPACE' }), 'platform'],
    ['ING-PLATFORM-ENUM', { serverId: '1', serverName: 'G', records: [record('a')] }, 'platform'],
    ['ING-SERVERID-REQUIRED', batch([record('a')], { serverId: '' }), 'serverId'],
    ['ING-SERVERNAME-REQUIRED', batch([record('a')], { serverName: '' }), 'serverName'],
    ['ING-CHANNEL-OPTIONAL-STRINGS', batch([record('a')], { channelId: 5 }), 'channelId'],
    ['ING-PROCESSING-LEVEL-ENUM', batch([record('a')], { processingLevel: 'FULL' }), 'processingLevel'],
    ['ING-SOURCE-SYSTEM-REQUIRED', batch([record('a')], { source: { system: '' } }), 'source.system'],
    ['ING-SOURCE-SYSTEM-REQUIRED', batch([record('a')], { source: { sourceId: 'x' } }), 'source.system'],
    ['ING-RECORDS-RANGE', batch([]), 'records'],
    ['ING-RECORDS-RANGE', batch(Array.from({ length: 501 }, (_, i) => record(`r${i}`))), 'records'],
    ['ING-RECORD-EXTERNALID-REQUIRED', batch([record('')]), 'records[0].externalId'],
    ['ING-RECORD-AUTHORID-REQUIRED', batch([record('a', { authorId: '' })]), 'records[0].authorId'],
    ['ING-RECORD-AUTHORNAME-REQUIRED', batch([record('a', { authorName: '' })]), 'records[0].authorName'],
    ['ING-RECORD-BODY-REQUIRED', batch([record('a', { body: 7 })]), 'records[0].body'],
    ['ING-RECORD-CREATEDAT-REQUIRED', batch([record('a', { createdAt: '' })]), 'records[0].createdAt'],
    ['ING-RECORD-RECORDTYPE-REQUIRED', batch([record('a', { recordType: '' })]), 'records[0].recordType'],
    ['ING-RECORD-SCORE-RANGE', batch([record('a', { score: -0.1 })]), 'records[0].score'],
    ['ING-RECORD-SCORE-RANGE', batch([record('a', { score: 5.01 })]), 'records[0].score'],
    ['ING-RECORD-URL-ABSOLUTE', batch([record('a', { url: 'ftp://x.example/a' })]), 'records[0].url'],
    ['ING-RECORD-URL-ABSOLUTE', batch([record('a', { url: '/relative/path' })]), 'records[0].url'],
    [
      'ING-RECORD-OPTIONAL-FIELDS',
      batch([record('a', { threadExternalId: 1 })]),
      'records[0].threadExternalId',
    ],
    ['ING-RECORD-OPTIONAL-FIELDS', batch([record('a', { customFields: 'x' })]), 'records[0].customFields'],
  ];
  for (const field of ['externalId', 'authorId', 'authorName', 'body', 'createdAt', 'recordType']) {
    const { [field]: _dropped, ...rest }: Record<string, unknown> = record('a');
    invalid.push([`ING-RECORD-${field.toUpperCase()}-REQUIRED`, batch([rest]), `records[0].${field}`]);
  }

  it.each(invalid)('%s: 422 naming %#', async (_rule, body, field) => {
    const h = fresh();
    const answer = await ingest(h, body);
    expect(answer.status).toBe(422);
    expect(obj(answer.body)).toEqual({ success: false, error: expect.stringContaining(field) });
    expect(h.engine.state.ingestion.records.size).toBe(0);
  });

  it('accepts the bounds: 500 records, score 0 and 5, an empty body, http and HTTPS urls', async () => {
    const h = fresh();
    const records = Array.from({ length: 500 }, (_, i) =>
      record(`r${i}`, {
        score: i % 2 === 0 ? 0 : 5,
        body: '',
        url: i % 2 === 0 ? 'http://x.example/a' : 'HTTPS://x.example/b',
      }),
    );
    expect(await ingest(h, batch(records, { processingLevel: 'STATS_ONLY' }))).toMatchObject({
      status: 202,
      body: { accepted: 500 },
    });
  });
});

describe('identity, retries and processing', () => {
  it('ID-INGEST-EXTERNALID-RETRIES: a retried batch updates, never duplicates', async () => {
    const h = fresh({ ingestion: { latency: 'instant' } });
    const records = [
      record('t1', { threadExternalId: 't1' }),
      record('t2', { threadExternalId: 't1', body: 'reply' }),
    ];
    await ingest(h, batch(records));
    await ingest(h, batch(records));
    await ingest(h, batch([record('t2', { threadExternalId: 't1', body: 'edited reply' })]));
    expect(h.engine.state.ingestion.records.size).toBe(2);
    const org = orgData(h.engine.state.data, AD_ORG);
    expect(org.ingestedIds.size).toBe(1);
    const detail = actionOf(h, 't1')?.detail;
    expect(((detail?.['messages'] ?? []) as Array<{ message: string }>).map((m) => m.message)).toEqual([
      'body of t1',
      'edited reply',
    ]);
  });

  it('ID-INGEST-RECORD-IDENTITY, ORG-WRITES-SCOPED: platform, serverId and organization are part of the identity', async () => {
    const h = fresh({ ingestion: { latency: 'instant' } });
    const other = h.engine.admin.createKey({ organizationId: STANDARD_ORG, profile: 'import' }).key;
    await ingest(h, batch([record('x')]));
    await ingest(h, batch([record('x')], { platform: 'SLACK' }));
    await ingest(h, batch([record('x')], { serverId: '42' }));
    await ingest(h, batch([record('x')]), other);
    expect(h.engine.state.ingestion.records.size).toBe(4);
    expect(actionOf(h, 'x')).not.toBeNull();
    expect(actionOf(h, 'x', { platform: 'SLACK' })).not.toBeNull();
    expect(actionOf(h, 'x', { serverId: '42' })).not.toBeNull();
    expect(orgData(h.engine.state.data, AD_ORG).ingestedIds.size).toBe(3);
    expect(orgData(h.engine.state.data, STANDARD_ORG).ingestedIds.size).toBe(1);
  });

  it('ING-202-ACCEPTANCE-NOT-COMPLETION: processed only once the engine clock passes the delay', async () => {
    const h = fresh();
    await ingest(h, batch([record('later')]));
    await h.admin('POST', '/__mock/ingestion/flush');
    expect(actionOf(h, 'later')).toBeNull();
    h.engine.admin.advanceClock(499);
    await h.admin('POST', '/__mock/ingestion/flush');
    expect(actionOf(h, 'later')).toBeNull();
    h.engine.admin.advanceClock(1);
    const flushed = await h.admin('POST', '/__mock/ingestion/flush');
    expect(obj(flushed.body)['upserted']).toEqual([
      ingestedActionId({ platform: 'DISCORD', serverId: '000042', threadExternalId: 'later' }),
    ]);
    expect(actionOf(h, 'later')).not.toBeNull();
  });

  it('with a real-time clock the actions appear after the delay without another request', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    try {
      const h = fresh({ clock: new MockClock({ start: Date.parse('2026-11-20T12:00:00Z'), running: true }) });
      await ingest(h, batch([record('watch-me')]));
      expect(actionOf(h, 'watch-me')).toBeNull();
      vi.advanceTimersByTime(499);
      expect(actionOf(h, 'watch-me')).toBeNull();
      vi.advanceTimersByTime(1);
      expect(actionOf(h, 'watch-me')).not.toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('STATS_ONLY records are counted in the statistics and never listed as actions', async () => {
    const h = fresh({ ingestion: { latency: 'instant' } });
    await ingest(
      h,
      batch([record('s1'), record('s2', { authorId: 'other' })], { processingLevel: 'STATS_ONLY' }),
    );
    expect(actionOf(h, 's1')).toBeNull();
    expect(orgData(h.engine.state.data, AD_ORG).ingestedIds.size).toBe(0);
    const stats = await h.admin('GET', `/__mock/ingestion/stats?organizationId=${AD_ORG}`);
    expect(obj(stats.body)['sources']).toEqual([
      {
        organizationId: AD_ORG,
        platform: 'DISCORD',
        serverId: '000042',
        processingLevel: 'STATS_ONLY',
        records: 2,
        authors: 2,
        processed: 2,
      },
    ]);
  });
});

describe('records become actions', () => {
  it('threads, parents, authors, custom fields and url map as documented', async () => {
    const h = fresh({ ingestion: { latency: 'instant' } });
    await ingest(
      h,
      batch(
        [
          record('0002', {
            threadExternalId: BIG,
            parentExternalId: BIG,
            authorId: '9007199254740993',
            authorName: 'Bob',
            createdAt: '2026-11-20T10:05:00Z',
            customFields: { tier: 'platinum', seen: true },
          }),
          record(BIG, {
            threadExternalId: BIG,
            title: 'Root title',
            url: 'https://discord.example/m/1',
            customFields: { tier: 'gold' },
            recordType: 'post',
          }),
        ],
        { channelName: 'general', channelId: 'c-1' },
      ),
    );
    const action = actionOf(h, BIG);
    expect(action?.detail).toMatchObject({
      actionTitle: 'Root title',
      actionSummary: `body of ${BIG}`,
      platform: 'DISCORD',
      recordType: 'post',
      isPublicPost: true,
      sourceURL: 'https://discord.example/m/1',
      status: 'OPEN',
      serverName: 'Guild',
      channelName: 'general',
      user: { userId: '00017', name: 'Zoë', username: 'Zoë', email: null, followerCount: null },
      customFields: { tier: 'platinum', seen: true },
      rootMessageText: `body of ${BIG}`,
      totalMessages: 2,
      totalUserMessages: 2,
      totalAgentMessages: 0,
    });
    expect(action?.detail['conversation']).toEqual([
      expect.objectContaining({ id: BIG, authorId: '00017', parentMessageId: null, authorType: 'USER' }),
      expect.objectContaining({
        id: '0002',
        author: 'Bob',
        authorId: '9007199254740993',
        parentMessageId: BIG,
      }),
    ]);
    expect(action?.search['threadId']).toBe(BIG);
  });

  it('ID-STRING-PRESERVED: any identifier comes back byte for byte (ids above 2^53, leading zeros, Unicode)', async () => {
    const h = fresh({ ingestion: { latency: 'instant' } });
    const ident = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 16, maxLength: 30 }),
      fc.nat().map((n) => `0000${n}`),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(ident, ident, ident, async (threadText, replyText, authorId) => {
        // A fresh source per run, so runs never touch each other's records.
        run += 1;
        const serverId = `server-${run}`;
        const [threadId, replyId] = [threadText, threadText === replyText ? `${replyText}0` : replyText];
        const answer = await ingest(
          h,
          batch(
            [
              record(threadId, { threadExternalId: threadId, authorId }),
              record(replyId, {
                threadExternalId: threadId,
                parentExternalId: threadId,
                createdAt: '2026-11-20T11:00:00Z',
              }),
            ],
            { serverId },
          ),
        );
        expect(answer.status).toBe(202);
        const detail = actionOf(h, threadId, { serverId })?.detail;
        expect(obj(detail?.['user'])['userId']).toBe(authorId);
        const conversation = detail?.['conversation'] as Array<Record<string, unknown>>;
        expect(conversation.map((m) => [m['id'], m['parentMessageId']])).toEqual([
          [threadId, null],
          [replyId, threadId],
        ]);
        expect(conversation[0]?.['authorId']).toBe(authorId);
      }),
      { numRuns: 50 },
    );
  });
});
