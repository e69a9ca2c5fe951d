/**
 * The keys a batch writes are the keys a single record's identity gives: a snapshot or a log written
 * before the per-batch key builder must find every record and thread where it left them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MockClock } from '../clock.ts';
import { ingestBatch } from './intake.ts';
import { threadKeyOf } from './process.ts';
import { createIngestionState, identityKey, identityKeysOf } from './state.ts';

// Quotes, backslashes, control characters, lone surrogates and the rest of Unicode.
const text = fc.string({ unit: 'binary', maxLength: 12 });

describe('ingestion keys', () => {
  it('identityKeysOf gives identityKey, byte for byte, for any ids', () => {
    fc.assert(
      fc.property(text, text, text, text, (organizationId, platform, serverId, externalId) => {
        expect(identityKeysOf(organizationId, platform, serverId)(externalId)).toBe(
          identityKey({ organizationId, platform, serverId, externalId }),
        );
      }),
    );
  });

  it('a retry that moves a record to another thread or level re-indexes it; one that does not, keeps it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ id: fc.constantFrom('a', 'b"', 'c\\'), thread: fc.option(fc.constantFrom('t', 'a')) }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.array(fc.constantFrom('INSIGHTS', 'STATS_ONLY'), { minLength: 8, maxLength: 8 }),
        (records, levels) => {
          const state = createIngestionState({
            clock: new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') }),
            latency: 'instant',
          });
          records.forEach(({ id, thread }, i) => {
            ingestBatch(state, 'org', {
              platform: 'DISCORD',
              serverId: '1',
              serverName: 's',
              processingLevel: levels[i] as 'INSIGHTS' | 'STATS_ONLY',
              records: [
                {
                  externalId: id,
                  ...(thread === null ? {} : { threadExternalId: thread }),
                  authorId: '1',
                  authorName: 'a',
                  body: 'b',
                  createdAt: '2026-11-20T10:00:00Z',
                  recordType: 'message',
                },
              ],
            });
          });
          // Every record is indexed under its current thread key, and under no other.
          for (const [key, stored] of state.records) {
            for (const [thread, members] of state.threads)
              expect(members.has(key), thread).toBe(thread === threadKeyOf(stored));
          }
        },
      ),
    );
  });
});
