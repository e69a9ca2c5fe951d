/**
 * `query.search.actions`: one page of the organization's actions of a createdAt window, newest first
 * (ties: actionId ascending, the REST list's order), filtered, with a keyset cursor (./cursor.ts).
 * Items are the REST action summary records (spec 2.1) built by the same view the REST list uses, so
 * ids are byte for byte what REST shows, with the status names and duration format the deployment's
 * choices give REST (`../choices.ts`).
 */
import type { OrgData } from '../../engine/records/state.ts';
import { actionIdOfRow, findRow, orgData } from '../../engine/records/state.ts';
import { actionSummary } from '../../engine/records/view.ts';
import { actionItemOut } from '../choices.ts';
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

/**
 * What a cursor is bound to: the meaning of the input, not its bytes. Defaults are written out
 * (`limit` 20, an empty filter group, `calendar: false`, `includeCurrent: true` where it matters),
 * what cannot change the result is dropped (`includeCurrent` of a rolling range), and the order of
 * conditions and of their values is not significant (all must hold; any value matches). The cursor
 * itself is left out. A different meaning gives a different binding, so its cursor is still refused.
 */
export function meaningOf(input: SearchQuery): Record<string, unknown> {
  const conditions = (input.filter?.filters ?? []).map((c) => ({
    filterType: c.filterType,
    operator: c.operator,
    value: [...new Set(c.value)].sort(),
  }));
  const filters = conditions
    .map((c) => ({ c, key: JSON.stringify(c) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .filter((entry, i, all) => i === 0 || all[i - 1]?.key !== entry.key)
    .map((entry) => entry.c);
  const range = input.dateRange;
  let dateRange: unknown = null;
  if (range !== undefined && 'relative' in range) {
    const { unit, count } = range.relative;
    const calendar = range.relative.calendar === true;
    dateRange = calendar
      ? { relative: { unit, count, calendar, includeCurrent: range.relative.includeCurrent !== false } }
      : { relative: { unit, count, calendar } };
  } else if (range !== undefined) dateRange = { from: range.from, to: range.to ?? null };
  return { filter: filters, dateRange, limit: input.limit ?? SEARCH_LIMIT_DEFAULT };
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
    const check = decodeCursor(secret, organizationId, meaningOf(input), input.cursor);
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
  const choices = ctx.engine.options.choices;
  const predicate = compileGroup(org, input.filter, choices);
  const { rows, more } = pageRows(org, window, predicate, limit, position);
  const items = rows.map((row) => actionItemOut(choices, actionSummary(org, row, false)));
  const last = rows[rows.length - 1];
  const nextCursor =
    more && last !== undefined
      ? encodeCursor(secret, organizationId, meaningOf(input), {
          window,
          lastTime: org.table.createdAt[last] ?? 0,
          lastId: actionIdOfRow(org, last),
        })
      : null;
  return succeed({ items, nextCursor });
}

/**
 * A cursor that resumes `input`'s listing at the item right after `page.items[index]`, for the same
 * input: what a cut `execute` answer names as its resume point. The keyset cursor makes any item a
 * boundary: the window comes from the page's own cursors (so it does not slide), the key from the
 * item's row. Null when the item is unknown here or nothing follows it.
 */
export function cursorAfterItem(
  ctx: AgentContext,
  input: SearchInput,
  page: SearchPage,
  index: number,
  secret: Uint8Array,
): string | null {
  if (index === page.items.length - 1) return page.nextCursor;
  const actionId = page.items[index]?.['actionId'];
  if (typeof actionId !== 'string') return null;
  const organizationId = ctx.identity.organizationId;
  const meaning = meaningOf(input);
  let window: { from: number; to: number } | null = null;
  for (const cursor of [input.cursor, page.nextCursor]) {
    if (window !== null || typeof cursor !== 'string') continue;
    const check = decodeCursor(secret, organizationId, meaning, cursor);
    if (check.ok) window = check.position.window;
  }
  if (window === null) {
    const resolved = resolveDateRange(input.dateRange, ctx.engine.clock.now(), '/dateRange');
    if (!resolved.ok) return null;
    window = resolved.window;
  }
  const org = orgData(ctx.engine.state.data, organizationId);
  const row = findRow(org, actionId);
  if (row < 0) return null;
  return encodeCursor(secret, organizationId, meaning, {
    window,
    lastTime: org.table.createdAt[row] ?? 0,
    lastId: actionId,
  });
}
