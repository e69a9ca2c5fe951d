/**
 * Processing a due batch reads only the threads it touched, through the thread index, never a scan
 * of every stored record: with a scan, replaying a log of N ingestion batches costs N^2.
 */
import { describe, expect, it } from 'vitest';
import { MockClock } from '../clock.ts';
import { ingestBatch } from './intake.ts';
import { takeDueThreads } from './process.ts';
import { createIngestionState } from './state.ts';

const record = (externalId: string, threadExternalId?: string) => ({
  externalId,
  ...(threadExternalId === undefined ? {} : { threadExternalId }),
  authorId: '1',
  authorName: 'a',
  body: `body ${externalId}`,
  createdAt: '2026-11-20T10:00:00Z',
  recordType: 'message',
});
const batch = (records: ReturnType<typeof record>[]) => ({
  platform: 'DISCORD',
  serverId: '42',
  serverName: 'G',
  records,
});

describe('ingestion processing', () => {
  it('rebuilds the touched threads without scanning every stored record', () => {
    const clock = new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') });
    const state = createIngestionState({ clock, latency: 'instant' });
    for (let i = 0; i < 50; i++) ingestBatch(state, 'org', batch([record(`old-${i}`)]) as never);
    takeDueThreads(state, clock.now());
    ingestBatch(state, 'org', batch([record('r1', 't'), record('r2', 't')]) as never);
    state.records.values = () => {
      throw new Error('scanned every record');
    };
    const threads = takeDueThreads(state, clock.now());
    expect(threads.map((t) => [t.threadExternalId, t.messages.map((m) => m.id)])).toEqual([
      ['t', ['r1', 'r2']],
    ]);
  });

  it('a retry that moves a record to another thread rebuilds both threads from the index', () => {
    const clock = new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') });
    const state = createIngestionState({ clock, latency: 'instant' });
    ingestBatch(state, 'org', batch([record('a', 't1'), record('b', 't1')]) as never);
    takeDueThreads(state, clock.now());
    ingestBatch(state, 'org', batch([record('b', 't2')]) as never);
    const threads = takeDueThreads(state, clock.now());
    expect(threads.map((t) => [t.threadExternalId, t.messages.map((m) => m.id)])).toEqual([
      ['t1', ['a']],
      ['t2', ['b']],
    ]);
  });
});
