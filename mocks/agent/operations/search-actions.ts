/**
 * `query.search.actions`: one page of the organization's actions of a createdAt window, newest first
 * (ties: actionId ascending, the REST list's order), filtered, with a keyset cursor (./cursor.ts).
 * Items are the REST action summary records (spec 2.1) built by the same view the REST list uses, so
 * ids are byte for byte what REST shows.
 */
import type { OrgData } from '../../engine/data/state.ts';
import { actionIdOfRow, orgData } from '../../engine/data/state.ts';
import { actionSummary } from '../../engine/data/view.ts';
import { type AgentContext, fail, type Outcome, succeed } from '../types.ts';
import { type CursorPosition, decodeCursor, encodeCursor } from './cursor.ts';
import { type DateRangeInput, resolveDateRange } from './date-range.ts';
import { invalidInput } from './failures.ts';
import { compileGroup, type FilterGroup } from './filter.ts';
import { SEARCH_LIMIT_DEFAULT } from './vocabulary.ts';

/** A type, not an interface: the engine's saved-search slice stores it as a plain JSON object. */
export type SearchQuery = {
  readonly filter?: FilterGroup;
  readonly dateRange?: DateRangeInput;
  readonly limit?: number;
};

export type SearchInput = SearchQuery & {
  readonly cursor?: string;
};

export interface SearchPage {
  readonly items: Record<string, unknown>[];
  readonly nextCursor: string | null;
}

/** Rows of one page and the key after which the next page starts (null: no next page). */
export function pageRows(
  org: OrgData,
  window: { from: number; to: number },
  predicate: ((row: number) => boolean) | null,
  limit: number,
  after: { lastTime: number; lastId: string } | null,
): { rows: number[]; more: boolean } {
  const index = org.byCreated;
  const lo = index.lowerBound(window.from);
  const top = after === null ? window.to : Math.min(after.lastTime, window.to);
  const rows: number[] = [];
  for (let pos = index.upperBound(top) - 1; pos >= lo; pos--) {
    const row = index.rowAt(pos);
    // Equal times are read in actionId ascending order: those up to the last one were on earlier pages.
    if (after !== null && index.keys[pos] === after.lastTime && actionIdOfRow(org, row) <= after.lastId)
      continue;
    if (predicate !== null && !predicate(row)) continue;
    if (rows.length === limit) return { rows, more: true };
    rows.push(row);
  }
  return { rows, more: false };
}

export function searchActions(
  ctx: AgentContext,
  input: SearchInput,
  secret: Uint8Array,
): Outcome<SearchPage> {
  const organizationId = ctx.identity.organizationId;
  const limit = input.limit ?? SEARCH_LIMIT_DEFAULT;
  let position: CursorPosition | null = null;
  let window: { from: number; to: number };
  if (input.cursor !== undefined) {
    const check = decodeCursor(secret, organizationId, input as Record<string, unknown>, input.cursor);
    if (!check.ok) {
      return fail(
        invalidInput(
          '/cursor',
          check.reason === 'malformed'
            ? 'cursor is not a cursor this server issued (pass nextCursor unchanged)'
            : 'cursor was issued for a different input (or altered): pass nextCursor unchanged with exactly the input of the page that returned it, or drop cursor to start again',
        ),
      );
    }
    position = check.position;
    window = position.window;
  } else {
    const resolved = resolveDateRange(input.dateRange, ctx.engine.clock.now(), '/dateRange');
    if (!resolved.ok) return fail(invalidInput(resolved.field, resolved.message));
    window = resolved.window;
  }
  const org = orgData(ctx.engine.state.data, organizationId);
  const predicate = compileGroup(org, input.filter);
  const { rows, more } = pageRows(org, window, predicate, limit, position);
  const items = rows.map((row) => actionSummary(org, row, false));
  const last = rows[rows.length - 1];
  const nextCursor =
    more && last !== undefined
      ? encodeCursor(secret, organizationId, input as Record<string, unknown>, {
          window,
          lastTime: org.table.createdAt[last] ?? 0,
          lastId: actionIdOfRow(org, last),
        })
      : null;
  return succeed({ items, nextCursor });
}
