import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { DAY_MS, settledAnchor } from './discover.ts';
import { isoOf, readAnalytics } from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';

const LABELS = ['Very Negative', 'Negative', 'Neutral', 'Positive'] as const;

/** The rows of one answer by day (`YYYY-MM-DD` of the row's own day, whatever form it is written in). */
function rowsByDay(body: Record<string, unknown>): Map<string, readonly (number | undefined)[]> {
  const out = new Map<string, readonly (number | undefined)[]>();
  for (const row of arr(body['data']).map(obj)) {
    const t = Date.parse(str(row['day']) ?? '');
    if (Number.isFinite(t))
      out.set(
        isoOf(t).slice(0, 10),
        LABELS.map((l) => num(row[l])),
      );
  }
  return out;
}

/**
 * Pairs of windows (days ago at UTC midnight): the inner one inside the outer one. A day strictly
 * inside the inner window, a day from either edge, lies in both windows whatever time zone the
 * deployment's days are in (no zone is more than 14 hours from UTC).
 */
const PAIRS: readonly {
  readonly outer: readonly [number, number];
  readonly inner: readonly [number, number];
}[] = [
  { outer: [30, 2], inner: [14, 7] },
  { outer: [12, 0], inner: [9, 3] },
];

export const sentimentDays: Law = {
  id: 'analytics.sentiment-days',
  group: 'parameters',
  title:
    'sentiment by day: a day inside two windows has the same row in both (a day row counts its own day, whatever the window around it)',
  ruleIds: ['SENT-DAY-ROW-WINDOW-INDEPENDENT'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const anchor = settledAnchor(ctx);
      const midnight = anchor - (anchor % DAY_MS);
      let checks = 0;
      for (const { outer, inner } of PAIRS) {
        const span = ([from, to]: readonly [number, number]) => ({
          from: isoOf(midnight - from * DAY_MS),
          to: isoOf(Math.min(midnight - to * DAY_MS, anchor)),
        });
        const wide = rowsByDay(await readAnalytics(ctx, 'getSentimentByDay', span(outer)));
        const narrow = rowsByDay(await readAnalytics(ctx, 'getSentimentByDay', span(inner)));
        for (let d = inner[0] - 2; d > inner[1] + 1; d--) {
          const day = isoOf(midnight - d * DAY_MS).slice(0, 10);
          const a = narrow.get(day);
          const b = wide.get(day);
          const text = (v: readonly (number | undefined)[] | undefined) =>
            v === undefined ? 'no row' : LABELS.map((l, i) => `${l} ${String(v[i])}`).join(', ');
          const empty = (v: readonly (number | undefined)[] | undefined) =>
            v === undefined || v.every((n) => n === 0);
          checks += 1;
          if (empty(a) && empty(b)) continue;
          if (a === undefined || b === undefined || a.some((n, i) => n !== b[i]))
            violate(
              'SENT-DAY-ROW-WINDOW-INDEPENDENT',
              'day-row-differs',
              `getSentimentByDay: the row of ${day} is ${text(a)} in the window ${span(inner).from} .. ${span(inner).to} but ${text(b)} in the window ${span(outer).from} .. ${span(outer).to}, which holds the whole day too`,
            );
        }
      }
      return checks;
    }),
};
