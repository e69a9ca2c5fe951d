/**
 * GET /v0/conversations/search (spec 4.13): the filter DSL over the organization's whole history,
 * newest first (ties: actionId ascending) so pages are disjoint; the count stops at the cap.
 */
import { rememberedAnswer } from '../records/answer-cache.ts';
import { compileFilter, parseFilter } from '../records/filter-dsl.ts';
import { searchPage } from '../records/query.ts';
import { badRequest, intParam, ok, stringParam } from '../records/results.ts';
import { searchItemBytes } from '../records/serialised.ts';
import { orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import { SerialisedJson } from '../types.ts';
import type { Handler } from './context.ts';

export const searchConversations: Handler<EngineState> = (ctx) => {
  const op = ctx.operationId;
  const page = intParam(ctx.query, 'page', 1, 1, 10_000);
  if (!page.ok) return badRequest(op, page.error);
  const pageSize = intParam(ctx.query, 'pageSize', 50, 1, 100);
  if (!pageSize.ok) return badRequest(op, pageSize.error);
  const terms = parseFilter(stringParam(ctx.query, 'filter') ?? '', 'filter');
  if (!terms.ok) return badRequest(op, terms.error);
  const org = orgData(ctx.state.data, ctx.organization.id);
  const cap = ctx.state.data.searchCap;
  // The whole history, no window: a page depends only on the rows and the parameters.
  const key = ['search', stringParam(ctx.query, 'filter') ?? '', page.value, pageSize.value, cap];
  return ok(
    rememberedAnswer(ctx.state.data, org, key, () => {
      const predicate = terms.value.length === 0 ? null : compileFilter(org, terms.value);
      const result = searchPage(org, predicate, page.value, pageSize.value, cap);
      const paging = {
        totalRecords: result.total,
        totalRecordsCapped: result.capped,
        currentPage: page.value,
        pageSize: pageSize.value,
        totalPages: Math.ceil(result.total / pageSize.value),
      };
      // Cached record bytes copied: no per-row derivation, stringify or encode of the items.
      const items = result.rows.map((row) => searchItemBytes(org, row));
      return SerialisedJson.page('{"success":true,"data":[', items, `],${JSON.stringify(paging).slice(1)}`);
    }),
  );
};
