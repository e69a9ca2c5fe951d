/**
 * GET /v0/action/list (spec 4.1): a createdAt (or updatedAt) window, newest first, responded actions
 * only unless `fullFilter` is given. Legacy `filter`/`filterJson` contribute only the responded flag.
 */
import { rangeKey, rememberedAnswer } from '../records/answer-cache.ts';
import { resolveWindow } from '../records/dates.ts';
import { compileFilter, parseFilter } from '../records/filter-dsl.ts';
import { indexFor, listPage, type Selection, type SortField } from '../records/query.ts';
import { badRequest, boolParam, intParam, ok, stringParam } from '../records/results.ts';
import { summaryBytes } from '../records/serialised.ts';
import { orgData } from '../records/state.ts';
import { actionSummary } from '../records/view.ts';
import type { EngineState } from '../state.ts';
import { SerialisedJson } from '../types.ts';
import type { Handler } from './context.ts';

export const FULL_FILTER_MAX = 10_000;

export const listActions: Handler<EngineState> = (ctx) => {
  const op = ctx.operationId;
  const { query } = ctx;
  const pageSize = intParam(query, 'pageSize', 50, 1, 500);
  if (!pageSize.ok) return badRequest(op, pageSize.error);
  const sortRaw = stringParam(query, 'sortBy') ?? 'createdAt';
  if (sortRaw !== 'createdAt' && sortRaw !== 'updatedAt') {
    return badRequest(op, `query parameter sortBy must be createdAt or updatedAt (got ${sortRaw})`);
  }
  const sortBy: SortField = sortRaw;
  const window = resolveWindow(query, ctx.clock.now());
  if (!window.ok) return badRequest(op, window.error);
  const org = orgData(ctx.state.data, ctx.organization.id);
  const selection = selectionOf(op, query, org);
  if ('status' in selection) return selection;
  const full = boolParam(query, 'includeFullConversation') === true;
  // A page depends only on the rows of the window and the parameters: remembered per index range.
  const key = [
    'list',
    sortBy,
    rangeKey(indexFor(org, sortBy), window.value),
    // The raw filter parameters stand for the selection: spellings of one filter are separate entries.
    JSON.stringify(['fullFilter', 'filter', 'filterJson'].map((name) => stringParam(query, name) ?? null)),
    pageSize.value,
    full,
  ];
  return ok(
    rememberedAnswer(ctx.state.data, org, key, () => {
      const page = listPage(org, sortBy, window.value, selection, pageSize.value);
      const paging = {
        totalRecords: page.total,
        currentPage: 1,
        pageSize: pageSize.value,
        totalPages: Math.ceil(page.total / pageSize.value),
      };
      if (full) return { data: page.rows.map((row) => actionSummary(org, row, true)), ...paging };
      // The usual page: cached record bytes copied, no per-row derivation, stringify or encode.
      const items = page.rows.map((row) => summaryBytes(org, row));
      return SerialisedJson.page('{"data":[', items, `],${JSON.stringify(paging).slice(1)}`);
    }),
  );
};

type SelectionOrError = Selection | ReturnType<typeof badRequest>;

function selectionOf(
  op: string,
  query: Readonly<Record<string, unknown>>,
  org: Parameters<typeof compileFilter>[0],
): SelectionOrError {
  const fullFilter = stringParam(query, 'fullFilter');
  const filter = stringParam(query, 'filter');
  const filterJson = stringParam(query, 'filterJson');
  if (fullFilter !== undefined) {
    if (filter !== undefined || filterJson !== undefined) {
      return badRequest(op, 'fullFilter must not be combined with filter or filterJson');
    }
    if (fullFilter.length > FULL_FILTER_MAX) {
      return badRequest(op, `fullFilter is longer than ${FULL_FILTER_MAX} characters (${fullFilter.length})`);
    }
    const terms = parseFilter(fullFilter, 'fullFilter');
    if (!terms.ok) return badRequest(op, terms.error);
    if (terms.value.length === 0) return { kind: 'all' };
    return { kind: 'predicate', predicate: compileFilter(org, terms.value) };
  }
  let responded = true;
  if (filter !== undefined) {
    const match = /(?:^|[+\s&,;])responded\s*[=:]\s*(true|false)\b/.exec(filter);
    if (match) responded = match[1] === 'true';
  }
  if (filterJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(filterJson);
    } catch (error) {
      return badRequest(
        op,
        `filterJson is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return badRequest(op, 'filterJson must be a JSON object');
    }
    const flag = (parsed as Record<string, unknown>)['responded'];
    if (flag === true || flag === 'true') responded = true;
    else if (flag === false || flag === 'false') responded = false;
    else if (flag !== undefined) return badRequest(op, 'filterJson.responded must be true or false');
  }
  return { kind: 'responded', responded };
}
