/**
 * Invariant of the data file format: whatever a file states, loading it, exporting the state and
 * loading the export gives the same state (the same export, the same detail bodies), and every id
 * comes back byte for byte, whatever its characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { type ActionDraft, scenario } from '../mocks/engine/data-file/builder.ts';
import { exportDataFile } from '../mocks/engine/data-file/export.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { at, get } from './data-support.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const clock = (): MockClock => new MockClock({ start: START });

const id = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }),
  fc.bigInt({ min: 2n ** 53n, max: 10n ** 22n }).map(String),
  fc.nat({ max: 99_999 }).map((n) => `000${n}`),
);

const message = fc.record({
  message: fc.string({ maxLength: 30, unit: 'grapheme' }),
  timestamp: fc.nat({ max: 9000 }).map((m) => `-${m + 1}m`),
  authorType: fc.constantFrom('USER' as const, 'AGENT' as const, 'BOT' as const),
});

const action = fc.record({
  status: fc.constantFrom(
    'OPEN' as const,
    'PENDING' as const,
    'ESCALATED' as const,
    'CLOSED' as const,
    'CANCELLED' as const,
  ),
  queue: fc.constantFrom('000123', 'q_vip', null),
  assignee: fc.constantFrom('9007199254740993123', null),
  tags: fc.subarray(['t1', 't2', 't3']),
  sentiment: fc.constantFrom('Negative' as const, 'Positive' as const, null),
  csatScore: fc.constantFrom('1' as const, '5' as const, null),
  title: fc.string({ maxLength: 20, unit: 'grapheme' }),
  messages: fc.array(message, { minLength: 1, maxLength: 4 }),
  user: fc.record({ userId: id, name: fc.string({ maxLength: 10 }), username: fc.string({ maxLength: 10 }) }),
});

const file = fc
  .uniqueArray(fc.tuple(id, action), { maxLength: 8, selector: ([actionId]) => actionId })
  .map((actions) => {
    const b = scenario()
      .organization('org_prop ✓', { moderationMode: 'ad_policy' })
      .key({ key: 'prop_reporting_key', profile: 'reporting' })
      .agent({ userId: '9007199254740993123', name: 'Ada' })
      .queue({ id: '000123', name: 'Escalations' })
      .queue({ id: 'q_vip', name: 'VIP' })
      .tag({ id: 't1', value: 'One', group: 'G' })
      .tag({ id: 't2', value: 'Two', group: 'G' })
      .tag({ id: 't3', value: 'Three', group: 'H' })
      .customField({ name: 'note', type: 'text' });
    for (const [actionId, a] of actions) {
      const draft: ActionDraft = {
        ...a,
        actionId,
        createdAt: a.messages[0]?.timestamp ?? '-1m',
        customFields: { note: actionId },
      };
      b.action(draft);
    }
    return b.build();
  });

describe('data file round trip', () => {
  it('load, export, load again: the same export and the same detail bodies, ids byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(file, async (data) => {
        const first = createEngine({ data, clock: clock(), selfCheck: true });
        const exported = exportDataFile(first.state);
        const second = createEngine({ data: exported, clock: clock(), selfCheck: true });
        expect(exportDataFile(second.state)).toEqual(exported);
        for (const a of data.actions ?? []) {
          const path = `/v0/action/${encodeURIComponent(a.actionId)}`;
          const one = await get(first, path, 'prop_reporting_key');
          expect(at(one.body, 'actionId')).toBe(a.actionId);
          expect(at(one.body, 'user', 'userId')).toBe(a.user.userId);
          expect((await get(second, path, 'prop_reporting_key')).body).toEqual(one.body);
        }
        expect([...first.selfCheckFailures, ...second.selfCheckFailures]).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
