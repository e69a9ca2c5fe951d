/**
 * GET /v0/conversations/search (spec 4.13): the filter DSL over the organization's whole history,
 * newest first (ties: actionId ascending) so pages are disjoint; the count stops at the cap.
 */
import { compileFilter, parseFilter } from '../data/filter-dsl.ts';
import { searchPage } from '../data/query.ts';
import { badRequest, intParam, ok, stringParam } from '../data/results.ts';
import { orgData } from '../data/state.ts';
import { searchItem } from '../data/view.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from '../types.ts';

export const searchConversations: Handler<EngineState> = (ctx) => {
  const op = ctx.operationId;
  const page = intParam(ctx.query, 'page', 1, 1, 10_000);
  if (!page.ok) return badRequest(op, page.error);
  const pageSize = intParam(ctx.query, 'pageSize', 50, 1, 100);
  if (!pageSize.ok) return badRequest(op, pageSize.error);
  const terms = parseFilter(stringParam(ctx.query, 'filter') ?? '', 'filter');
  if (!terms.ok) return badRequest(op, terms.error);
  const org = orgData(ctx.state.data, ctx.organization.id);
  const predicate = terms.value.length === 0 ? null : compileFilter(org, terms.value);
  const result = searchPage(org, predicate, page.value, pageSize.value, ctx.state.data.searchCap);
  return ok({
    success: true,
    data: result.rows.map((row) => searchItem(org, row)),
    totalRecords: result.total,
    totalRecordsCapped: result.capped,
    currentPage: page.value,
    pageSize: pageSize.value,
    totalPages: Math.ceil(result.total / pageSize.value),
  });
};
