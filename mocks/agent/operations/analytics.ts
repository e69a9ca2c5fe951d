/**
 * `query.analytics.actions`: lines of measure + aggregation over the actions of a createdAt window
 * (the window the REST list and analytics read for the same from/to), optionally filtered, grouped by
 * up to three fields; no groupBy gives one total row. Every figure comes from the same stored columns
 * the REST metrics read, so counts agree with REST over the same window. Status groups carry the
 * names the deployment's choices give (`actionStatuses`), as REST and search items do.
 */

import { NULL_INDEX, NULL_SCORE } from '../../../fixtures/generate/table.ts';
import type { Choices } from '../../../src/contract/choice-points.ts';
import { dayOf, percentile, round2, weekStart } from '../../engine/records/analytics.ts';
import type { Window } from '../../engine/records/dates.ts';
import { windowRange } from '../../engine/records/query.ts';
import { type OrgData, orgData } from '../../engine/records/state.ts';
import { statusNameOut, statusNamesOut } from '../choices.ts';
import { type AgentContext, fail, type Outcome, succeed } from '../types.ts';
import { type DateRangeInput, isoWindow, resolveDateRange, unitStart } from './date-range.ts';
import { invalidInput } from './failures.ts';
import { compileGroup, type FilterGroup } from './filter.ts';
import {
  type Aggregation,
  ANALYTICS_MAX_ROWS,
  type GroupField,
  MEASURE_AGGREGATIONS,
  type Measure,
  PLATFORMS,
  SENTIMENTS,
  STATUSES,
} from './vocabulary.ts';

export interface AnalyticsInput {
  readonly v: 1;
  readonly source: 'actions';
  readonly dateRange?: DateRangeInput;
  readonly filter?: FilterGroup;
  readonly lines: readonly { readonly measure: Measure; readonly aggregation: Aggregation }[];
  readonly groupBy?: readonly { readonly field: GroupField }[];
  readonly options?: { readonly fillEmpty?: boolean };
}

type GroupValue = string | boolean | null;

export interface AnalyticsRow {
  readonly group: Record<string, GroupValue>;
  readonly values: Record<string, number | null>;
}

export interface AnalyticsAnswer {
  readonly rows: AnalyticsRow[];
  readonly meta: {
    readonly queryJSON: string;
    readonly dateRange: { from: string; to: string };
    readonly dateField: 'createdAt';
    readonly timezone: 'UTC';
  };
  readonly emptyReason: 'no_actions_in_range' | 'no_actions_match_filter' | null;
}

/** A measure's value for one action; null when the action has none. */
function measureOf(org: OrgData, measure: Measure, row: number): number | null {
  const t = org.table;
  switch (measure) {
    case 'actions':
      return 1;
    case 'messages':
      return t.msgTotal[row] ?? 0;
    case 'userMessages':
      return t.msgUser[row] ?? 0;
    case 'agentMessages':
      return t.msgAgent[row] ?? 0;
    case 'firstResponseTime': {
      const sec = t.responseSec[row] ?? -1;
      return sec < 0 ? null : sec;
    }
    case 'handleTime': {
      const close = t.closeSec[row] ?? -1;
      return close < 0 ? null : close - Math.max(0, t.claimSec[row] ?? 0);
    }
    case 'sentimentScore': {
      const score = t.sentimentScore[row] ?? NULL_SCORE;
      return score === NULL_SCORE ? null : score / 1000;
    }
    case 'csat': {
      const csat = t.csat[row] ?? -1;
      return csat < 1 ? null : csat;
    }
    case 'estimatedCsat': {
      const estimated = t.estimatedCsat[row] ?? -1;
      return estimated < 0 ? null : estimated / 100;
    }
  }
}

const dateOnly = (ms: number): string => dayOf(ms);

/** The values of a group-by field for one action (several for tags; null for none). */
function groupValuesOf(org: OrgData, field: GroupField, row: number, choices: Choices): GroupValue[] {
  const t = org.table;
  switch (field) {
    case 'source':
      return [PLATFORMS[t.platform[row] ?? 0] ?? null];
    case 'status': {
      const stored = STATUSES[t.status[row] ?? 0];
      return [stored === undefined ? null : statusNameOut(choices, stored)];
    }
    case 'queue':
      return [org.catalog.queues[t.queue[row] ?? NULL_INDEX]?.name ?? null];
    case 'sentiment':
      return [SENTIMENTS[t.sentiment[row] ?? NULL_INDEX] ?? null];
    case 'assignee':
      return [org.catalog.agents[t.assignee[row] ?? NULL_INDEX]?.userId ?? null];
    case 'tag': {
      const tags = t.tagsOf(row).map((k) => org.catalog.tags[k]?.value ?? null);
      return tags.length === 0 ? [null] : [...new Set(tags)];
    }
    case 'responded':
      return [t.responded(row)];
    case 'day':
      return [dateOnly(t.createdAt[row] ?? 0)];
    case 'week':
      return [dateOnly(weekStart(t.createdAt[row] ?? 0))];
    case 'month':
      return [dateOnly(unitStart('month', t.createdAt[row] ?? 0))];
  }
}

/** Every value of a field that fillEmpty adds (the known values; the periods of the window). */
function domainOf(org: OrgData, field: GroupField, window: Window, choices: Choices): GroupValue[] {
  const periods = (unit: 'day' | 'week' | 'month'): GroupValue[] => {
    const out: GroupValue[] = [];
    for (
      let ms = unitStart(unit, window.from);
      ms <= window.to && out.length <= ANALYTICS_MAX_ROWS;
      ms = unitStart(unit, ms, 1)
    )
      out.push(dateOnly(ms));
    return out;
  };
  switch (field) {
    case 'source':
      // Every platform of the contract's enum, not only those the seed gave the organization: an
      // ingested or moderated action brings its own platform, and its empty hour still has the row.
      return [...PLATFORMS];
    case 'status':
      return statusNamesOut(choices, STATUSES);
    case 'queue':
      return org.catalog.queues.map((q) => q.name);
    case 'sentiment':
      return [...SENTIMENTS];
    case 'assignee':
      return org.catalog.agents.map((a) => a.userId);
    case 'tag':
      return [...new Set(org.catalog.tags.map((tag) => tag.value))];
    case 'responded':
      return [true, false];
    case 'day':
    case 'week':
    case 'month':
      return periods(field);
  }
}

/** Per group: the matching actions' values of each measure a line needs. */
class GroupAccumulator {
  readonly values = new Map<Measure, number[]>();
  add(org: OrgData, measures: readonly Measure[], row: number): void {
    for (const measure of measures) {
      const value = measureOf(org, measure, row);
      if (value === null) continue;
      let list = this.values.get(measure);
      if (list === undefined) {
        list = [];
        this.values.set(measure, list);
      }
      list.push(value);
    }
  }
}

function aggregate(values: readonly number[] | undefined, aggregation: Aggregation): number | null {
  const list = values ?? [];
  switch (aggregation) {
    case 'count':
      return list.length;
    case 'sum':
      return round2(list.reduce((a, b) => a + b, 0));
    case 'avg':
      return list.length === 0 ? null : round2(list.reduce((a, b) => a + b, 0) / list.length);
    case 'min':
      return list.length === 0 ? null : list.reduce((a, b) => (b < a ? b : a));
    case 'max':
      return list.length === 0 ? null : list.reduce((a, b) => (b > a ? b : a));
    case 'p50':
    case 'p90': {
      if (list.length === 0) return null;
      const sorted = [...list].sort((a, b) => a - b);
      return percentile(sorted, aggregation === 'p50' ? 0.5 : 0.9);
    }
  }
}

/** Cartesian product of per-field value lists. */
function product(lists: readonly GroupValue[][]): GroupValue[][] {
  let out: GroupValue[][] = [[]];
  for (const list of lists) out = out.flatMap((prefix) => list.map((value) => [...prefix, value]));
  return out;
}

function compareValues(a: GroupValue, b: GroupValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === true ? -1 : 1;
  return a < b ? -1 : 1;
}

export function analyticsActions(ctx: AgentContext, input: AnalyticsInput): Outcome<AnalyticsAnswer> {
  const resolved = resolveDateRange(input.dateRange, ctx.engine.clock.now(), '/dateRange');
  if (!resolved.ok) return fail(invalidInput(resolved.field, resolved.message));
  const window = resolved.window;
  for (const [i, line] of input.lines.entries()) {
    if (!MEASURE_AGGREGATIONS[line.measure].includes(line.aggregation)) {
      return fail(
        invalidInput(
          `/lines/${i}/aggregation`,
          `input field lines[${i}].aggregation ${line.aggregation} does not apply to measure ${line.measure} (use one of ${MEASURE_AGGREGATIONS[line.measure].join(', ')})`,
        ),
      );
    }
  }
  const fields = (input.groupBy ?? []).map((g) => g.field);
  const duplicate = fields.findIndex((field, i) => fields.indexOf(field) !== i);
  if (duplicate >= 0) {
    return fail(
      invalidInput(
        `/groupBy/${duplicate}/field`,
        `input field groupBy[${duplicate}].field repeats ${fields[duplicate]}`,
      ),
    );
  }
  const fillEmpty = input.options?.fillEmpty === true;
  const choices = ctx.engine.options.choices;
  const org = orgData(ctx.engine.state.data, ctx.identity.organizationId);
  const tooMany = (n: number) =>
    fail(
      invalidInput(
        '/groupBy',
        `input field groupBy would answer ${n} groups, more than ${ANALYTICS_MAX_ROWS}: group by fewer fields, shorten dateRange or drop fillEmpty`,
      ),
    );
  const domains =
    fillEmpty && fields.length > 0 ? fields.map((field) => domainOf(org, field, window, choices)) : [];
  const filled = domains.reduce((n, d) => n * d.length, domains.length > 0 ? 1 : 0);
  if (filled > ANALYTICS_MAX_ROWS) return tooMany(filled);

  const measures = [...new Set(input.lines.map((line) => line.measure))];
  const predicate = compileGroup(org, input.filter, choices);
  const groups = new Map<string, { key: GroupValue[]; acc: GroupAccumulator }>();
  const groupOf = (key: GroupValue[]) => {
    const id = JSON.stringify(key);
    let group = groups.get(id);
    if (group === undefined) {
      group = { key, acc: new GroupAccumulator() };
      groups.set(id, group);
    }
    return group;
  };
  // The total row, or every filled group, exists even when no action falls in it.
  if (fields.length === 0) groupOf([]);
  else if (domains.length > 0) for (const key of product(domains)) groupOf(key);

  const index = org.byCreated;
  const { lo, hi } = windowRange(index, window);
  let matched = 0;
  for (let pos = lo; pos < hi; pos++) {
    const row = index.rowAt(pos);
    if (predicate !== null && !predicate(row)) continue;
    matched++;
    for (const key of product(fields.map((field) => groupValuesOf(org, field, row, choices)))) {
      groupOf(key).acc.add(org, measures, row);
    }
    if (groups.size > ANALYTICS_MAX_ROWS) return tooMany(groups.size);
  }

  const rows = [...groups.values()]
    .sort((a, b) => {
      for (let i = 0; i < fields.length; i++) {
        const order = compareValues(a.key[i] ?? null, b.key[i] ?? null);
        if (order !== 0) return order;
      }
      return 0;
    })
    .map(({ key, acc }) => {
      const group: Record<string, GroupValue> = {};
      fields.forEach((field, i) => {
        group[field] = key[i] ?? null;
      });
      const values: Record<string, number | null> = {};
      for (const line of input.lines) {
        values[`${line.measure}.${line.aggregation}`] = aggregate(
          acc.values.get(line.measure),
          line.aggregation,
        );
      }
      return { group, values };
    });

  const dateRange = isoWindow(window);
  const resolvedQuery = {
    v: 1,
    source: input.source,
    dateRange,
    filter: input.filter ?? { filterType: 'and', filters: [] },
    lines: input.lines,
    groupBy: fields.map((field) => ({ field })),
    options: { fillEmpty },
  };
  return succeed({
    rows,
    meta: { queryJSON: JSON.stringify(resolvedQuery), dateRange, dateField: 'createdAt', timezone: 'UTC' },
    emptyReason: matched > 0 ? null : hi > lo ? 'no_actions_match_filter' : 'no_actions_in_range',
  });
}
