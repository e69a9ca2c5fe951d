/**
 * What the names of `query.analytics.actions`' lines and group fields mean (4.18: lines[] of
 * {measure, aggregation}, groupBy[] of {field}), checked against the actions a search of the same
 * window gathers, and only for the measures, aggregations and fields the input schema lists: the
 * `messages` measure is the items' `totalMessages` (2.1), `sum`/`min`/`max` are those of the values,
 * `p50` lies between the order statistics around the median and `p90` around the 90% rank; two lines
 * give two values; grouped by a period (day, week, month) every action falls in one row, a row holds
 * only the actions created within its period (14 h zone slack); meta.queryJSON names the grouping.
 */
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { ANALYTICS, analytics, analyticsChoice, analyticsEnum, rowValues } from './analytics.ts';
import { catalog } from './catalog.ts';
import { MAX_LIMIT } from './paging.ts';
import { SEARCH, walk } from './search.ts';
import { Absent, agentExamples, isObj, requireTool, withSession } from './support.ts';

const RULE = 'AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH';
const RELATIVE = { unit: 'month', count: 1, calendar: false, includeCurrent: true } as const;
const HOUR_MS = 3_600_000;
const SLACK_MS = 14 * HOUR_MS;
const PERIOD_MS: Readonly<Record<string, number>> = {
  day: 24 * HOUR_MS,
  week: 168 * HOUR_MS,
  month: 744 * HOUR_MS,
};

/** The order statistics (sorted ascending) a `q` quantile may lie between under any usual definition. */
function quantileBounds(sorted: readonly number[], q: number): [number, number] {
  const n = sorted.length;
  const lo = Math.max(0, Math.min(n - 1, Math.floor(q * n - 1)));
  const hi = Math.max(0, Math.min(n - 1, Math.ceil(q * n)));
  return [sorted[lo] ?? 0, sorted[hi] ?? 0];
}

/** The numeric (or null) values of a row, leaving out its group. */
function valuesOfRow(row: unknown): unknown[] {
  if (!isObj(row)) return [];
  const holder = isObj(row['values']) ? row['values'] : row;
  return Object.entries(holder)
    .filter(([k, v]) => k !== 'group' && (typeof v === 'number' || v === null))
    .map(([, v]) => v);
}

const lines: Law = {
  id: 'agent.analytics.lines-and-groups-mean-their-names',
  group: 'agent',
  title:
    'messages sum/min/max/p50/p90 of a window are those of the items totalMessages; two lines give two values; period groups hold their own actions; queryJSON keeps the groupBy',
  ruleIds: [RULE, 'AGENT-MCP-ANALYTICS-META', 'AGENT-MCP-ANALYTICS-EMPTY-GROUPBY-TOTAL'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await requireTool(ctx, 'read', 'execute');
      const listed = (await catalog(ctx)).map((e) => e.id);
      const entry = (await catalog(ctx)).find((e) => e.id === ANALYTICS);
      if (entry === undefined || !listed.includes(SEARCH))
        throw new Absent(`spec() does not list ${ANALYTICS} and ${SEARCH}`);
      const choice = analyticsChoice(entry);
      const measures = analyticsEnum(entry, ['lines', '*', 'measure']);
      const aggregations = analyticsEnum(entry, ['lines', '*', 'aggregation']);
      return withSession(ctx, 'read', async (session) => {
        const search = await walk(
          session,
          { dateRange: { relative: RELATIVE }, limit: MAX_LIMIT },
          { maxPages: 40 },
        );
        if (!search.ended || search.ids.length === 0)
          throw new Absent('no fully walked month of actions to compare analytics with');
        const base = {
          v: 1,
          source: 'actions',
          dateRange: { relative: RELATIVE },
          options: { fillEmpty: false },
        };
        const countLine = { measure: choice.measure, aggregation: choice.aggregation };
        const one = async (line: { measure: string; aggregation: string }, groupBy: unknown[] = []) =>
          analytics(session, { ...base, lines: [line], groupBy });
        let checks = 0;
        const n = search.ids.length;
        const total = await one(countLine);
        const totalText = JSON.stringify(
          isObj(total) && isObj(total['meta']) ? total['meta']['queryJSON'] : null,
        );
        // meta.queryJSON is the resolved query: grouped by a field, it names that field.
        const field = choice.fields.find((f) => !totalText.includes(f));
        if (field !== undefined) {
          const grouped = await one(countLine, [{ field }]);
          const text = JSON.stringify(
            isObj(grouped) && isObj(grouped['meta']) ? grouped['meta']['queryJSON'] : null,
          );
          checks += 1;
          if (!text.includes(field))
            violate(
              'AGENT-MCP-ANALYTICS-META',
              'query-json-groupby',
              `grouped by ${field}, meta.queryJSON does not name it: ${text}`,
              { field },
            );
        }
        // A period field: each action falls in the one row of its period, created within it.
        for (const period of choice.fields.filter((f) => f in PERIOD_MS)) {
          const { rows, values } = rowValues(await one(countLine, [{ field: period }]));
          const sum = values.reduce<number>((a, v) => a + (v ?? 0), 0);
          checks += 1;
          if (sum !== n)
            violate(
              RULE,
              `group-sum-${period}`,
              `rows grouped by ${period} sum to ${sum}; the search of the same month gathered ${n} actions`,
              { period },
            );
          const times = search.times.map((t) => (t === null ? Number.NaN : Date.parse(t)));
          if (times.some(Number.isNaN)) continue;
          rows.forEach((row, i) => {
            const key = isObj(row['group']) ? row['group'][period] : row[period];
            const start = typeof key === 'string' ? Date.parse(key) : Number.NaN;
            if (Number.isNaN(start)) return;
            const end = start + (PERIOD_MS[period] ?? 0);
            const inside = times.filter((t) => t >= start - SLACK_MS && t < end + SLACK_MS).length;
            if ((values[i] ?? 0) > inside)
              violate(
                RULE,
                `group-${period}-holds-more`,
                `grouped by ${period}, the row ${key} counts ${values[i]}; only ${inside} of the actions were created within that ${period}`,
                { period, key },
              );
          });
        }
        const messages = search.totalMessages;
        if (!measures.includes('messages') || messages.some((m) => m === null)) return checks;
        const sorted = (messages as number[]).slice().sort((a, b) => a - b);
        const got: Record<string, number | null> = {};
        for (const aggregation of ['sum', 'min', 'max', 'p50', 'p90'].filter((a) =>
          aggregations.includes(a),
        )) {
          got[aggregation] = rowValues(await one({ measure: 'messages', aggregation })).values[0] ?? null;
        }
        const expected: Record<string, number> = {
          sum: sorted.reduce((a, b) => a + b, 0),
          min: sorted[0] ?? 0,
          max: sorted[sorted.length - 1] ?? 0,
        };
        for (const [aggregation, value] of Object.entries(got)) {
          checks += 1;
          const want = expected[aggregation];
          if (want !== undefined && value !== want)
            violate(
              RULE,
              `messages-${aggregation}`,
              `messages.${aggregation} of the month = ${value}; the ${n} actions' totalMessages give ${want}`,
              { aggregation },
            );
          if (aggregation === 'p50' || aggregation === 'p90') {
            const [lo, hi] = quantileBounds(sorted, aggregation === 'p50' ? 0.5 : 0.9);
            if (value === null || value < lo || value > hi)
              violate(
                RULE,
                `messages-${aggregation}`,
                `messages.${aggregation} of the month = ${value}; the ${n} actions' totalMessages put it between ${lo} and ${hi}`,
                { aggregation, lo, hi },
              );
          }
        }
        // Two lines asked for are two figures: each the value that line answers when asked alone
        // (compared with the deployment's own answers, whatever it reads messages.sum as).
        if (aggregations.includes('sum')) {
          const alone = [rowValues(total).values[0] ?? null, got['sum'] ?? null];
          const both = rowValues(
            await analytics(session, {
              ...base,
              lines: [countLine, { measure: 'messages', aggregation: 'sum' }],
              groupBy: [],
            }),
          );
          const found = valuesOfRow(both.rows[0]);
          checks += 1;
          if (found.length < 2 || alone.some((v) => !found.includes(v)))
            violate(
              'AGENT-MCP-ANALYTICS-EMPTY-GROUPBY-TOTAL',
              'two-lines',
              `lines ${choice.measure}.${choice.aggregation} and messages.sum answered ${JSON.stringify(both.rows[0])}; asked one at a time they answer ${alone.join(' and ')}`,
              {},
            );
        }
        return checks;
      });
    }),
};

/**
 * fillEmpty (4.18 options {fillEmpty boolean}) answers the empty groups too: over the last hour, a
 * value of a (non-period) group field that actions of the last three months carry has its row.
 */
const fillEmpty: Law = {
  id: 'agent.analytics.fill-empty-fills-known-groups',
  group: 'agent',
  title:
    'with fillEmpty, every value of a group field that recent actions carry has a row, even in an empty hour',
  ruleIds: ['AGENT-MCP-ANALYTICS-FILL-EMPTY-ROWS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await requireTool(ctx, 'read', 'execute');
      const entry = (await catalog(ctx)).find((e) => e.id === ANALYTICS);
      if (entry === undefined) throw new Absent(`spec() does not list ${ANALYTICS}`);
      const choice = analyticsChoice(entry);
      const line = { measure: choice.measure, aggregation: choice.aggregation };
      return withSession(ctx, 'read', async (session) => {
        let checks = 0;
        const keysOf = (rows: readonly Record<string, unknown>[], field: string) =>
          rows.map((row) => (isObj(row['group']) ? row['group'][field] : row[field]));
        for (const field of choice.fields.filter((f) => !(f in PERIOD_MS)).slice(0, 8)) {
          const wide = rowValues(
            await analytics(session, {
              v: 1,
              source: 'actions',
              dateRange: { relative: { unit: 'month', count: 3 } },
              lines: [line],
              groupBy: [{ field }],
              options: { fillEmpty: false },
            }),
          );
          const carried = keysOf(wide.rows, field).filter(
            (k, i) => k !== null && k !== undefined && (wide.values[i] ?? 0) > 0,
          );
          if (carried.length === 0) continue;
          const hour = rowValues(
            await analytics(session, {
              v: 1,
              source: 'actions',
              dateRange: { relative: { unit: 'hour', count: 1 } },
              lines: [line],
              groupBy: [{ field }],
              options: { fillEmpty: true },
            }),
          );
          const filled = new Set(keysOf(hour.rows, field).map((k) => JSON.stringify(k)));
          const missing = carried.find((k) => !filled.has(JSON.stringify(k)));
          checks += 1;
          if (missing !== undefined)
            violate(
              'AGENT-MCP-ANALYTICS-FILL-EMPTY-ROWS',
              `fill-empty-${field}`,
              `grouped by ${field} with fillEmpty over the last hour, ${JSON.stringify(missing)} (a ${field} actions of the last three months carry) has no row`,
              { field },
            );
        }
        return checks;
      });
    }),
};

export const aggregateLaws: readonly Law[] = [lines, fillEmpty];
