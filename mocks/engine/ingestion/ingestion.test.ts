import { describe, expect, it } from 'vitest';
import { type IngestionBatchInput, ingestBatch, readBatch } from './intake.ts';
import { takeDueThreads } from './process.ts';
import { createIngestionState, type IngestionLatencyOption } from './state.ts';

const ORG = 'org_1';
const BIG_ID = '1234567890123456789012345';

function setup(latency?: IngestionLatencyOption) {
  let now = 10_000;
  const state = createIngestionState({
    clock: { now: () => now },
    ...(latency === undefined ? {} : { latency }),
  });
  return { state, advance: (ms: number) => (now += ms), now: () => now };
}

function batch(
  records: IngestionBatchInput['records'],
  extra: Partial<IngestionBatchInput> = {},
): IngestionBatchInput {
  return { platform: 'DISCORD', serverId: '000417', serverName: 'Guild', ...extra, records };
}

const record = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  authorId: BIG_ID,
  authorName: 'Zoë',
  body: `body of ${externalId}`,
  createdAt: '2026-11-20T10:00:00Z',
  recordType: 'message',
  ...extra,
});

describe('ingestion intake and processing', () => {
  it('ING-202-ACCEPTED: counts every record taken and processes only after the delay', () => {
    const { state, advance, now } = setup();
    expect(ingestBatch(state, ORG, batch([record('a'), record('b')]))).toEqual({
      accepted: 2,
      created: 2,
      updated: 0,
    });
    expect(takeDueThreads(state, now())).toEqual([]);
    advance(500);
    expect(takeDueThreads(state, now())).toHaveLength(2);
    expect(takeDueThreads(state, now())).toEqual([]);
  });

  it('ID-INGEST-EXTERNALID-RETRIES: a retry with the same identity updates, never duplicates', () => {
    const { state, advance, now } = setup('instant');
    ingestBatch(state, ORG, batch([record('a')]));
    expect(ingestBatch(state, ORG, batch([record('a', { body: 'edited' })]))).toEqual({
      accepted: 1,
      created: 0,
      updated: 1,
    });
    advance(0);
    const threads = takeDueThreads(state, now());
    expect(threads).toHaveLength(1);
    expect(threads[0]?.messages.map((m) => m.message)).toEqual(['edited']);
    expect(state.records.size).toBe(1);
  });

  it('ID-INGEST-RECORD-IDENTITY: changing the platform, server or organization names another record', () => {
    const { state } = setup('instant');
    ingestBatch(state, ORG, batch([record('a')]));
    ingestBatch(state, ORG, batch([record('a')], { platform: 'SLACK' }));
    ingestBatch(state, ORG, batch([record('a')], { serverId: '417' }));
    ingestBatch(state, 'org_2', batch([record('a')]));
    expect(state.records.size).toBe(4);
  });

  it('records sharing threadExternalId form one thread, parents kept, ids byte for byte', () => {
    const { state, now } = setup('instant');
    ingestBatch(
      state,
      ORG,
      batch([
        record('0001', {
          createdAt: '2026-11-20T10:00:02Z',
          threadExternalId: '0000',
          parentExternalId: '0000',
        }),
        record('0000', {
          createdAt: '2026-11-20T10:00:00Z',
          threadExternalId: '0000',
          title: 'Root',
          url: 'https://x.example/t/0',
        }),
        record(BIG_ID, {
          createdAt: '2026-11-20T10:00:01Z',
          threadExternalId: '0000',
          parentExternalId: '0000',
        }),
        record('solo'),
      ]),
    );
    const threads = takeDueThreads(state, now());
    expect(threads).toHaveLength(2);
    const thread = threads.find((t) => t.threadExternalId === '0000');
    expect(thread?.root.id).toBe('0000');
    expect(thread?.root.url).toBe('https://x.example/t/0');
    expect(thread?.messages.map((m) => [m.id, m.parentMessageId, m.authorId])).toEqual([
      ['0000', null, BIG_ID],
      [BIG_ID, '0000', BIG_ID],
      ['0001', '0000', BIG_ID],
    ]);
    expect(thread?.serverId).toBe('000417');
  });

  it('keeps STATS_ONLY records apart from INSIGHTS threads', () => {
    const { state, now } = setup('instant');
    ingestBatch(state, ORG, batch([record('s1')], { processingLevel: 'STATS_ONLY' }));
    ingestBatch(state, ORG, batch([record('i1')]));
    const levels = takeDueThreads(state, now()).map((t) => [t.threadExternalId, t.processingLevel]);
    expect(levels).toEqual([
      ['s1', 'STATS_ONLY'],
      ['i1', 'INSIGHTS'],
    ]);
  });

  it('readBatch copies a validated body and names the first odd field otherwise', () => {
    const body = {
      platform: 'DISCORD',
      serverId: '1',
      serverName: 'G',
      records: [record('a', { score: 4.5 })],
    };
    const read = readBatch(body);
    expect(read).toMatchObject({
      ok: true,
      batch: { processingLevel: 'INSIGHTS', records: [{ score: 4.5 }] },
    });
    expect(readBatch({ ...body, records: [{ ...record('a'), authorId: 7 }] })).toEqual({
      ok: false,
      field: 'records[0].authorId',
    });
  });

  it('refuses an invalid latency at construction', () => {
    expect(() => createIngestionState({ clock: { now: () => 0 }, latency: -1 })).toThrow(RangeError);
  });
});

describe('a retry that moves a record to another thread', () => {
  it('rebuilds both the thread it left and the one it joined', () => {
    const { state, now } = setup('instant');
    ingestBatch(
      state,
      ORG,
      batch([record('root', { threadExternalId: 'root' }), record('r1', { threadExternalId: 'root' })]),
    );
    takeDueThreads(state, now());
    ingestBatch(state, ORG, batch([record('r1', { threadExternalId: 'other' })]));
    const rebuilt = takeDueThreads(state, now()).map((t) => [
      t.threadExternalId,
      t.messages.map((m) => m.id),
    ]);
    expect(rebuilt).toEqual([
      ['root', ['root']],
      ['other', ['r1']],
    ]);
  });
});
