/**
 * Metamorphic laws on data the suite does not know: a narrower window or a filter with fewer values
 * gives a subset, and the previous calendar units hold the actions created within them; filters and windows are honoured by each item; analytics totals equal the number of
 * actions a search of the same window and filter gathers, and `groupBy` rows sum to the total;
 * `meta.queryJSON`, the date range and `dateField` present, `emptyReason` on an empty result.
 */
import fc from 'fast-check';
import { deref } from '../../src/arbitraries/json-schema.ts';
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import type { McpSession } from '../../src/conformance/kit/mcp/session.ts';
import { aggregateLaws } from './aggregates.ts';
import { ANALYTICS, analytics, analyticsChoice, analyticsEnum, rowValues } from './analytics.ts';
import { type CatalogEntry, catalog, localResolver } from './catalog.ts';
import { type Case, caseArb, inputOf, MAX_LIMIT, observedValues } from './paging.ts';
import { filterOf, notIn, type Relative, SEARCH, type Walk, walk } from './search.ts';
import {
  Absent,
  agentExamples,
  agentProperty,
  brief,
  isObj,
  type Json,
  requireTool,
  withSession,
} from './support.ts';

const GROUP = 'agent';

async function ready(ctx: LawContext, ids: readonly string[]): Promise<void> {
  await requireTool(ctx, 'read', 'execute');
  const listed = (await catalog(ctx)).map((e) => e.id);
  const missing = ids.filter((id) => !listed.includes(id));
  if (missing.length > 0) throw new Absent(`spec() does not list ${missing.join(', ')}`);
}

/** Runs a property after its preconditions; an `Absent` precondition makes the law not run. */
async function guarded(
  ctx: LawContext,
  ids: readonly string[],
  body: () => ReturnType<Law['run']>,
): ReturnType<Law['run']> {
  try {
    await ready(ctx, ids);
  } catch (error) {
    if (error instanceof Absent) return { kind: 'not-run', ruleIds: ctx.ruleIds, reason: error.message };
    throw error;
  }
  return body();
}

/**
 * Pairs of relative windows, the first inside the second whatever the deployment's calendar or zone,
 * tried once a run (random cases seldom draw them): the current calendar month inside the last two,
 * and six rolling days inside a rolling week (a week is 7 days, so a unit shorter than it or a second
 * calendar month that starts in the future gathers less); the last six rolling hours inside the
 * current calendar hour and the six before it (the current hour alone is often empty, a calendar
 * window whose start is put in the future is not). The last 23 rolling hours lie inside a rolling day
 * (a rolling window is measured from now, so one aligned to the start of the hour or day anyway loses
 * the hours before it, at any time but the last two hours of a UTC day). The last 47 rolling hours lie
 * inside the current calendar day and the two before it: those start at least 47 hours ago in any
 * zone, even across a 23-hour day of a clock change (calendar days whose start stays at today's, or
 * is put in the future, lose at least the day before).
 */
const FIXED_PAIRS: readonly (readonly [Relative, Relative])[] = [
  [
    { unit: 'month', count: 1, calendar: true, includeCurrent: true },
    { unit: 'month', count: 2, calendar: true, includeCurrent: true },
  ],
  [
    { unit: 'day', count: 6, calendar: false, includeCurrent: true },
    { unit: 'week', count: 1, calendar: false, includeCurrent: true },
  ],
  [
    { unit: 'hour', count: 6, calendar: false, includeCurrent: true },
    { unit: 'hour', count: 7, calendar: true, includeCurrent: true },
  ],
  [
    { unit: 'hour', count: 23, calendar: false, includeCurrent: true },
    { unit: 'day', count: 1, calendar: false, includeCurrent: true },
  ],
  [
    { unit: 'hour', count: 47, calendar: false, includeCurrent: true },
    { unit: 'day', count: 3, calendar: true, includeCurrent: true },
  ],
];

/**
 * Pairs in the units beyond hour..month, tried only where the search schema lists the unit: the
 * current calendar quarter inside the last two, two rolling months inside the current calendar
 * quarter and the one before it (that one alone is at least 89 days, less 12 h in a zone behind UTC),
 * and a rolling year inside twelve.
 */
const UNIT_PAIRS: readonly (readonly [Relative, Relative])[] = [
  [
    { unit: 'quarter', count: 1, calendar: true, includeCurrent: true },
    { unit: 'quarter', count: 2, calendar: true, includeCurrent: true },
  ],
  [
    { unit: 'month', count: 2, calendar: false, includeCurrent: true },
    { unit: 'quarter', count: 2, calendar: true, includeCurrent: true },
  ],
  [
    { unit: 'year', count: 1, calendar: false, includeCurrent: true },
    { unit: 'year', count: 12, calendar: false, includeCurrent: true },
  ],
];

/** The subschema of `dateRange` in an input schema, and its alternatives (oneOf/anyOf), dereferenced. */
function dateRangeVariants(entry: CatalogEntry | undefined): Json[] {
  if (entry === undefined || !isObj(entry.inputSchema)) return [];
  const resolve = localResolver(entry.inputSchema);
  const at = (s: unknown): Json | undefined => (isObj(s) ? (deref(s as never, resolve) as Json) : undefined);
  const root = at(entry.inputSchema);
  const props = root !== undefined && isObj(root['properties']) ? root['properties'] : undefined;
  const range = at(props?.['dateRange']);
  if (range === undefined) return [];
  const alternatives = [range['oneOf'], range['anyOf']].flatMap((xs) => (Array.isArray(xs) ? xs : []));
  return [range, ...alternatives.map(at).filter((v): v is Json => v !== undefined)];
}

/**
 * What the search schema shows of `dateRange`: the relative units it lists (an enum of
 * `relative.unit`) and whether an explicit window has both `from` and `to` properties.
 */
function dateRangeForms(entry: CatalogEntry | undefined): { units: string[]; explicit: boolean } {
  const resolve = localResolver(entry?.inputSchema);
  const variants = dateRangeVariants(entry);
  const propsOf = (v: Json): Json => (isObj(v['properties']) ? v['properties'] : {});
  const units = variants.flatMap((v) => {
    const relative = propsOf(v)['relative'];
    const r = isObj(relative) ? (deref(relative as never, resolve) as Json) : undefined;
    const unit = r !== undefined ? propsOf(r)['unit'] : undefined;
    const u = isObj(unit) ? (deref(unit as never, resolve) as Json) : undefined;
    return Array.isArray(u?.['enum']) ? u['enum'].map(String) : [];
  });
  const explicit = variants.some((v) => 'from' in propsOf(v) && 'to' in propsOf(v));
  return { units, explicit };
}

const DAY_MS = 86_400_000;
/** The longest each unit can be (a quarter of 92 days, a leap year). */
const UNIT_MS = {
  hour: 3_600_000,
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 31 * DAY_MS,
  quarter: 92 * DAY_MS,
  year: 366 * DAY_MS,
};

/** No time zone is further than 14 hours from UTC: the slack of a calendar boundary read elsewhere. */
const ZONE_SLACK_MS = 14 * 3_600_000;

/** Start (UTC) of the calendar month, quarter or year holding `ms`, moved by `shift` units. */
function calendarStart(unit: 'month' | 'quarter' | 'year', ms: number, shift: number): number {
  const d = new Date(ms);
  const [y, m] = [d.getUTCFullYear(), d.getUTCMonth()];
  if (unit === 'month') return Date.UTC(y, m + shift, 1);
  if (unit === 'quarter') return Date.UTC(y, Math.floor(m / 3) * 3 + 3 * shift, 1);
  return Date.UTC(y + shift, 0, 1);
}

/**
 * The calendar units whose previous complete ones are checked, and the counts tried. {unit, count,
 * calendar: true, includeCurrent: false} is the `count` complete units before the current one, read
 * in some time zone, or (were `calendar` read as nothing) the `count` units before now: either way it
 * holds the span both share in any zone, from the first unit's start + 14 h (and no earlier than
 * `count` of the shortest such units before now) to the current unit's start - 14 h. A day has no
 * such span (two zones 28 h apart share no hour of it) and a week's first day is a convention, so
 * neither is tried.
 */
const SHORTEST_MS = { month: 28 * DAY_MS, quarter: 89 * DAY_MS, year: 365 * DAY_MS };
const PREVIOUS_UNITS: readonly (readonly ['month' | 'quarter' | 'year', number])[] = [
  ['month', 1],
  ['quarter', 1],
  ['quarter', 2],
  ['year', 1],
];

/**
 * The previous complete calendar units hold the actions created within them: the actions of the core
 * span (searched as an explicit window where the schema offers one, else the items of a rolling
 * window three units long created within it) are a subset of the relative window's. A window put a
 * year back, or into the future, misses them. A unit whose core holds no action is not judged (the
 * next count or unit is tried), nor one whose current unit began less than a day ago (clock skew).
 */
async function checkPreviousUnits(
  ctx: LawContext,
  session: McpSession,
  forms: { units: readonly string[]; explicit: boolean },
): Promise<void> {
  const now = ctx.now();
  for (const [unit, count] of PREVIOUS_UNITS) {
    // A unit the schema does not list is not sent; listing none, only month is (as the fixed cases).
    if (forms.units.length > 0 ? !forms.units.includes(unit) : unit !== 'month') continue;
    const current = calendarStart(unit, now, 0);
    if (now - current < DAY_MS) continue;
    const from = Math.max(calendarStart(unit, now, -count) + ZONE_SLACK_MS, now - count * SHORTEST_MS[unit]);
    const to = current - ZONE_SLACK_MS;
    if (from >= to) continue;
    let inner: readonly string[];
    if (forms.explicit) {
      const dateRange = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
      const w = await walk(session, { dateRange, limit: MAX_LIMIT });
      if (!w.ended) continue;
      inner = w.ids;
    } else {
      const rolling = { unit, count: 3, calendar: false, includeCurrent: true };
      const w = await walk(session, { dateRange: { relative: rolling }, limit: MAX_LIMIT });
      if (!w.ended) continue;
      inner = w.ids.filter((_, i) => {
        const at = Date.parse(w.times[i] ?? '');
        return at >= from && at <= to;
      });
    }
    if (inner.length === 0) continue;
    const relative: Relative = { unit, count, calendar: true, includeCurrent: false };
    const outer = await walk(session, { dateRange: { relative }, limit: MAX_LIMIT });
    if (!outer.ended) continue;
    const out = notIn(inner, outer.ids);
    if (out !== undefined)
      violate(
        'AGENT-MCP-SEARCH-WINDOW-SUBSET',
        'previous-units',
        `action ${out} was created between ${new Date(from).toISOString()} and ${new Date(to).toISOString()}, within the ${count} calendar ${unit}(s) before the current one in any time zone (and the last ${count} ${unit}(s)), but the window ${JSON.stringify(relative)} does not hold it`,
        { relative, from, to },
      );
  }
}

const subsets: Law = {
  id: 'agent.search.subsets',
  group: GROUP,
  title: 'a narrower window, or a filter with fewer values, gathers a subset; walking twice gathers the same',
  ruleIds: ['AGENT-MCP-SEARCH-WINDOW-SUBSET'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    guarded(ctx, [SEARCH], () =>
      withSession(ctx, 'read', async (session) => {
        const values = await observedValues(ctx, session);
        const forms = dateRangeForms((await catalog(ctx)).find((e) => e.id === SEARCH));
        const units = forms.units;
        const pairs = [
          ...FIXED_PAIRS,
          ...UNIT_PAIRS.filter(([a, b]) => units.includes(a.unit) && units.includes(b.unit)),
        ];
        // The fixed pairs and the previous calendar units first, as examples: a failure among them is
        // reported as found (inside the property, shrinking would re-run generated cases that pass).
        const fixed = await agentExamples(ctx, async () => {
          for (const [narrowRel, wideRel] of pairs) {
            const plain = { sources: [], statuses: [] };
            const narrow = await walk(session, inputOf({ ...plain, relative: narrowRel }, MAX_LIMIT));
            const wide = await walk(session, inputOf({ ...plain, relative: wideRel }, MAX_LIMIT));
            const out = notIn(narrow.ids, wide.ids);
            if (narrow.ended && wide.ended && out !== undefined)
              violate(
                'AGENT-MCP-SEARCH-WINDOW-SUBSET',
                'window-pair',
                `action ${out} is in the window ${JSON.stringify(narrowRel)} but not in ${JSON.stringify(wideRel)}, which holds it`,
                { narrowRel, wideRel },
              );
          }
          await checkPreviousUnits(ctx, session, forms);
          return pairs.length + 1;
        });
        if (fixed.kind !== 'passed') return fixed;
        return agentProperty(
          ctx,
          fc.tuple(caseArb(values), fc.integer({ min: 1, max: 6 })),
          async ([c, extra]) => {
            const wideRel = { ...c.relative, count: c.relative.count + extra };
            const narrow = await walk(session, inputOf(c, MAX_LIMIT));
            const wide = await walk(session, inputOf({ ...c, relative: wideRel }, MAX_LIMIT));
            if (!narrow.ended || !wide.ended) return;
            const out = notIn(narrow.ids, wide.ids);
            if (out !== undefined)
              violate(
                'AGENT-MCP-SEARCH-WINDOW-SUBSET',
                'window',
                `action ${out} is in the ${c.relative.count}-${c.relative.unit} window but not in the ${wideRel.count}-${c.relative.unit} one`,
                { ...c, extra },
              );
            if (c.statuses.length > 1) {
              const fewer = await walk(
                session,
                inputOf({ ...c, statuses: c.statuses.slice(0, 1) }, MAX_LIMIT),
              );
              const more = notIn(fewer.ids, narrow.ids);
              if (fewer.ended && more !== undefined)
                violate(
                  'AGENT-MCP-SEARCH-WINDOW-SUBSET',
                  'filter',
                  `action ${more} matches status in [${c.statuses[0]}] but not status in [${c.statuses.join(', ')}]`,
                  c,
                );
            }
            const again = await walk(session, inputOf(c, MAX_LIMIT));
            if (again.ids.join('\n') !== narrow.ids.join('\n'))
              violate(
                'AGENT-MCP-SEARCH-WINDOW-SUBSET',
                'unstable',
                `two walks of the same input gathered ${narrow.ids.length} and ${again.ids.length} actions (or another order)`,
                c,
              );
          },
        );
      }),
    ),
};

/**
 * The earliest creation time an action of a relative window of n units can have. Whatever `calendar`
 * and `includeCurrent` mean (the spec names them only), the window lies within the current unit and
 * the n before it: a rolling one is measured in unit lengths, a calendar month, quarter or year on
 * the calendar (the first day of the unit n units before the current one, in any time zone).
 */
function earliestOf(now: number, relative: Relative): number {
  const rolling = now - (relative.count + 1) * UNIT_MS[relative.unit] - 1000;
  const unit = relative.unit;
  if (!relative.calendar || (unit !== 'month' && unit !== 'quarter' && unit !== 'year')) return rolling;
  return Math.max(rolling, calendarStart(unit, now, -relative.count) - ZONE_SLACK_MS);
}

const fixedCase = (relative: Relative): Case => ({
  relative,
  sources: [],
  statuses: [],
  limit: MAX_LIMIT,
  pagesPerExecution: 8,
});

/**
 * Cases every run checks before the generated ones (a draw seldom picks them): short windows first,
 * where a window is most often lost; a calendar month, whose start a longer unit's start must not
 * stand in for; the previous calendar day, which a week must not stand in for.
 */
const FIXED_CASES: readonly Case[] = [
  fixedCase({ unit: 'hour', count: 6, calendar: false, includeCurrent: true }),
  fixedCase({ unit: 'day', count: 1, calendar: false, includeCurrent: true }),
  fixedCase({ unit: 'day', count: 1, calendar: true, includeCurrent: false }),
  fixedCase({ unit: 'month', count: 1, calendar: true, includeCurrent: true }),
];

/** Calendar quarters, checked where the search schema lists the unit quarter. */
const QUARTER_CASES: readonly Case[] = [
  fixedCase({ unit: 'quarter', count: 1, calendar: true, includeCurrent: false }),
  fixedCase({ unit: 'quarter', count: 1, calendar: true, includeCurrent: true }),
];

/** Every item of a relative-window case matches its filter and lies in its window. */
async function checkHonoured(ctx: LawContext, session: McpSession, c: Case): Promise<void> {
  const w = await walk(session, inputOf(c, MAX_LIMIT));
  for (const [i, id] of w.ids.entries()) {
    const status = w.statuses[i] ?? null;
    const platform = w.platforms[i] ?? null;
    if (c.statuses.length > 0 && status !== null && !c.statuses.includes(status))
      violate(
        'AGENT-MCP-SEARCH-FILTER-SOURCE-STATUS',
        'status',
        `action ${id} has status ${status}, not in [${c.statuses.join(', ')}]`,
        c,
      );
    if (c.sources.length > 0 && platform !== null && !c.sources.includes(platform))
      violate(
        'AGENT-MCP-SEARCH-FILTER-SOURCE-STATUS',
        'source',
        `action ${id} has platform ${platform}, not in [${c.sources.join(', ')}]`,
        c,
      );
    const time = w.times[i];
    const earliest = earliestOf(ctx.now(), c.relative);
    if (time != null && (Date.parse(time) < earliest || Date.parse(time) > ctx.now() + 60_000))
      violate(
        'AGENT-MCP-SEARCH-DATERANGE-FORMS',
        'outside',
        `action ${id} created ${time} lies outside the last ${c.relative.count} ${c.relative.unit}(s)`,
        c,
      );
  }
}

/**
 * An explicit window from 30 to 10 days ago, as ISO timestamps in UTC (no zone to read): every
 * item's `createdAt` lies between `from` and `to` (a second of slack for rounding).
 */
async function checkExplicit(ctx: LawContext, session: McpSession): Promise<void> {
  const now = ctx.now();
  const [from, to] = [now - 30 * DAY_MS, now - 10 * DAY_MS];
  const dateRange = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
  const w = await walk(session, { dateRange, limit: MAX_LIMIT });
  for (const [i, id] of w.ids.entries()) {
    const time = w.times[i];
    const at = time == null ? Number.NaN : Date.parse(time);
    if (at < from - 1000 || at > to + 1000)
      violate(
        'AGENT-MCP-SEARCH-DATERANGE-FORMS',
        'outside-explicit',
        `action ${id} created ${time} lies outside the explicit window ${dateRange.from} .. ${dateRange.to}`,
        { dateRange },
      );
  }
}

const honoured: Law = {
  id: 'agent.search.filters-and-windows-honoured',
  group: GROUP,
  title: 'every item matches the source and status filter and lies in the relative or explicit window',
  ruleIds: ['AGENT-MCP-SEARCH-FILTER-SOURCE-STATUS', 'AGENT-MCP-SEARCH-DATERANGE-FORMS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    guarded(ctx, [SEARCH], () =>
      withSession(ctx, 'read', async (session) => {
        const values = await observedValues(ctx, session);
        const forms = dateRangeForms((await catalog(ctx)).find((e) => e.id === SEARCH));
        const fixed = [...FIXED_CASES, ...(forms.units.includes('quarter') ? QUARTER_CASES : [])];
        // The fixed cases and the explicit window first, as examples (a failure is not shrunk).
        const examples = await agentExamples(ctx, async () => {
          for (const f of fixed) await checkHonoured(ctx, session, f);
          if (forms.explicit) await checkExplicit(ctx, session);
          return fixed.length + (forms.explicit ? 1 : 0);
        });
        if (examples.kind !== 'passed') return examples;
        return agentProperty(ctx, caseArb(values), (c) => checkHonoured(ctx, session, c));
      }),
    ),
};

/** A row's value of the group field, where the row names it (`row.group[field]` or `row[field]`). */
function groupKeyOf(row: Json, field: string): unknown {
  const group = row['group'];
  if (isObj(group) && field in group) return group[field];
  return field in row ? row[field] : undefined;
}

/** How many of the walk's actions carry each value (each action once per value). */
function tally(perAction: readonly (readonly string[])[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const values of perAction) for (const v of new Set(values)) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

/**
 * Rows grouped by the source or by the tag of the actions agree with the actions the search of the
 * same window gathers: the row of each value counts the actions carrying it, and every value the
 * actions carry has its row. The source is the field the search filter names `source` (4.18, value
 * TWITTER for X), the platform of an item; a tag is the `value` of an item's tag (2.1). Checked only
 * where the catalog lists the field, the rows name their value and (for tags) the items carry tags.
 */
async function groupedByValue(
  session: McpSession,
  base: Record<string, unknown>,
  search: Walk,
  choice: ReturnType<typeof analyticsChoice>,
  c: Case,
): Promise<void> {
  const checks: [string, readonly (readonly string[])[] | undefined][] = [
    ['source', search.platforms.map((p) => (p === null ? [] : [p]))],
    [
      'tag',
      search.tags.every((t) => t !== null) ? (search.tags as readonly (readonly string[])[]) : undefined,
    ],
  ];
  for (const [field, perAction] of checks) {
    if (!choice.fields.includes(field) || perAction === undefined) continue;
    const { rows, values } = rowValues(await analytics(session, { ...base, groupBy: [{ field }] }));
    const keys = rows.map((row) => groupKeyOf(row, field));
    if (keys.some((k) => k === undefined)) continue;
    const expected = tally(perAction);
    // A tag row may name its tag otherwise (an id, a group and value): when no named row is one of
    // the items' tag values, the rows speak another vocabulary and are not compared. A source is the
    // filter's source value, the platform (4.18), so source rows are compared always.
    const named = keys.filter((k): k is string => typeof k === 'string');
    if (field === 'tag' && named.length > 0 && !named.some((k) => expected.has(k))) continue;
    const seen = new Map<string, number>();
    keys.forEach((k, i) => {
      if (typeof k === 'string') seen.set(k, (seen.get(k) ?? 0) + (values[i] ?? 0));
    });
    for (const [value, count] of expected) {
      if (seen.get(value) !== count)
        violate(
          'AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH',
          `group-${field}`,
          `grouped by ${field}, the row of ${value} counts ${seen.get(value) ?? 'nothing (no row)'}; the search gathered ${count} actions with ${field} ${value}`,
          c,
        );
    }
    for (const [value, count] of seen) {
      if (count > 0 && !expected.has(value))
        violate(
          'AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH',
          `group-${field}-unknown`,
          `grouped by ${field}, a row of ${value} counts ${count}; no action the search gathered has ${field} ${value}`,
          c,
        );
    }
  }
}

const analyticsAgrees: Law = {
  id: 'agent.analytics.agrees-with-search',
  group: GROUP,
  title:
    'analytics count = actions a search of the same window and filter gathers; groupBy rows sum to it; meta and emptyReason',
  ruleIds: [
    'AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH',
    'AGENT-MCP-ANALYTICS-INPUT-SHAPE',
    'AGENT-MCP-ANALYTICS-META',
    'AGENT-MCP-ANALYTICS-EMPTY-GROUPBY-TOTAL',
    'AGENT-MCP-ANALYTICS-EMPTY-REASON',
  ],
  needs: { keys: ['read'] },
  run: (ctx) =>
    guarded(ctx, [SEARCH, ANALYTICS], () =>
      withSession(ctx, 'read', async (session) => {
        const values = await observedValues(ctx, session);
        const entry = (await catalog(ctx)).find((e) => e.id === ANALYTICS);
        if (entry === undefined) throw new Absent(`spec() does not list ${ANALYTICS}`);
        const choice = analyticsChoice(entry);
        return agentProperty(ctx, caseArb(values), async (c) => {
          const search = await walk(session, inputOf(c, MAX_LIMIT));
          if (!search.ended) return;
          const filter = filterOf(c.sources, c.statuses);
          const base = {
            v: 1,
            source: 'actions',
            dateRange: { relative: c.relative },
            ...(filter !== undefined && filter.filters.length > 0 ? { filter } : {}),
            lines: [{ measure: choice.measure, aggregation: choice.aggregation }],
            options: { fillEmpty: false },
          };
          const total = await analytics(session, { ...base, groupBy: [] });
          const meta = isObj(total) ? total['meta'] : undefined;
          if (!isObj(meta) || meta['queryJSON'] === undefined || typeof meta['dateField'] !== 'string')
            violate(
              'AGENT-MCP-ANALYTICS-META',
              'meta',
              `analytics output lacks meta.queryJSON or meta.dateField: ${brief(meta)}`,
              c,
            );
          if (
            !Object.entries(meta).some(
              ([k, v]) => /date|range|from/i.test(k) && k !== 'dateField' && v !== undefined,
            )
          )
            violate(
              'AGENT-MCP-ANALYTICS-META',
              'date-range',
              `analytics meta lacks the resolved date range: ${brief(meta)}`,
              c,
            );
          const { rows, values: totals } = rowValues(total);
          if (search.ids.length === 0) {
            const reason = isObj(total) ? total['emptyReason'] : undefined;
            if (typeof reason !== 'string' || reason === '')
              violate(
                'AGENT-MCP-ANALYTICS-EMPTY-REASON',
                'no-reason',
                `an analytics result over a window without actions carries no emptyReason: ${brief(total)}`,
                c,
              );
            return;
          }
          if (rows.length !== 1)
            violate(
              'AGENT-MCP-ANALYTICS-EMPTY-GROUPBY-TOTAL',
              'not-one-row',
              `groupBy [] answered ${rows.length} rows, not one total`,
              c,
            );
          if (totals[0] !== search.ids.length)
            violate(
              'AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH',
              'total',
              `analytics ${choice.measure}.${choice.aggregation} = ${totals[0]}, the search gathered ${search.ids.length} actions`,
              c,
            );
          if (choice.groupField !== undefined) {
            const grouped = rowValues(
              await analytics(session, { ...base, groupBy: [{ field: choice.groupField }] }),
            );
            const sum = grouped.values.reduce<number>((n, v) => n + (v ?? 0), 0);
            if (sum !== search.ids.length)
              violate(
                'AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH',
                'group-sum',
                `rows grouped by ${choice.groupField} sum to ${sum}, the total is ${search.ids.length}`,
                c,
              );
          }
          await groupedByValue(session, base, search, choice, c);
        });
      }),
    ),
};

/**
 * A measure over actions none of which has the value it measures has no value: where the catalog
 * lists a `handleTime` measure and a search of a window and status gathers actions whose every
 * `handleTime` is null (2.1: "string / null"), each aggregation but a count answers null, 0 or
 * nothing. A count is left out: whether it counts values or actions is not said.
 */
const measureOfNoValues: Law = {
  id: 'agent.analytics.measure-without-values',
  group: GROUP,
  title: 'the handleTime measure of actions whose handleTime is null has no value',
  ruleIds: ['AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    guarded(ctx, [SEARCH, ANALYTICS], () =>
      agentExamples(ctx, () =>
        withSession(ctx, 'read', async (session) => {
          const entry = (await catalog(ctx)).find((e) => e.id === ANALYTICS);
          if (entry === undefined) throw new Absent(`spec() does not list ${ANALYTICS}`);
          const measure = analyticsEnum(entry, ['lines', '*', 'measure']).find((m) => m === 'handleTime');
          if (measure === undefined) throw new Absent(`${ANALYTICS} lists no handleTime measure`);
          const aggregations = analyticsEnum(entry, ['lines', '*', 'aggregation']).filter(
            (a) => !/count/i.test(a),
          );
          const values = await observedValues(ctx, session);
          const relative = { unit: 'month' as const, count: 3, calendar: false, includeCurrent: true };
          let checks = 0;
          for (const status of values.statuses) {
            const filter = filterOf([], [status]);
            const w = await walk(session, { dateRange: { relative }, filter, limit: MAX_LIMIT });
            if (!w.ended || w.ids.length === 0 || !w.handleTimeNull.every((n) => n)) continue;
            for (const aggregation of aggregations) {
              checks += 1;
              const input = {
                v: 1,
                source: 'actions',
                dateRange: { relative },
                filter,
                lines: [{ measure, aggregation }],
                groupBy: [],
                options: { fillEmpty: false },
              };
              const value = rowValues(await analytics(session, input)).values[0] ?? null;
              if (value !== null && value !== 0)
                violate(
                  'AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH',
                  'measure-without-values',
                  `${measure}.${aggregation} of the ${w.ids.length} ${status} actions = ${value}, yet every one of them has handleTime null`,
                  input,
                );
            }
          }
          return checks;
        }),
      ),
    ),
};

export const metamorphicLaws: readonly Law[] = [
  subsets,
  honoured,
  analyticsAgrees,
  measureOfNoValues,
  ...aggregateLaws,
];
