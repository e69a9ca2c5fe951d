import { runExamples } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { historyWindow } from './discover.ts';
import { call, expectConforming } from './support.ts';

/**
 * ISO 8601-shaped dates of no calendar day, as `from` or `to` of the action list: month 00 or 13, day
 * 00, 30 February (a date parser that rolls over reads it as 1 March, one that checks ranges loosely
 * reads month 13 as January of the next year), and timestamps of no time of day: minute 60, second 61
 * (a rolling parser reads them as the next hour or minute; 60 seconds is left out, a leap second is
 * ISO 8601, and so is hour 24, the end of a day). Each is neither an ISO 8601 date nor a timestamp, so
 * each is a 400 (spec 4.1). The control is the same request with the window's own dates (a 200).
 */
export const CALENDAR_OUT_OF_RANGE: readonly string[] = [
  '2024-13-01',
  '2024-00-10',
  '2024-03-00',
  '2023-02-29',
  '2024-02-30T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-03-01T12:60:00Z',
  '2024-03-01T12:00:61Z',
];

export const listCalendarDates: Law = {
  id: 'inputs.list-calendar-dates',
  group: 'inputs',
  title:
    'listActions: from/to of no calendar day or time of day (month 13, day 00, 30 February, minute 60, second 61) are a 400',
  ruleIds: ['LIST-FROM-ISO-8601', 'ERR-GENERAL-BODY'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const base = { ...historyWindow(ctx), pageSize: 5 };
      const control = await call(ctx, 'listActions', { auth: 'read', query: base });
      expectConforming(ctx, 'listActions', control, {
        status: 200,
        statusRule: 'LIST-FROM-ISO-8601',
        what: 'listActions with the window of the data',
      });
      for (const name of ['from', 'to'] as const)
        for (const value of CALENDAR_OUT_OF_RANGE) {
          const res = await call(ctx, 'listActions', { auth: 'read', query: { ...base, [name]: value } });
          expectConforming(ctx, 'listActions', res, {
            status: 400,
            statusRule: 'LIST-FROM-ISO-8601',
            what: `listActions with ${name} ${JSON.stringify(value)} (no calendar day)`,
          });
        }
      return 1 + 2 * CALENDAR_OUT_OF_RANGE.length;
    }),
};
