/**
 * Window and paging queries over one organization's indexes. A window is two binary searches; a
 * page walks newest first from the window's end. Totals: the whole window and its responded part
 * come from the prefix counts (O(log n)); only an arbitrary DSL predicate counts by scanning the
 * window (O(window)).
 */

import type { Window } from './dates.ts';
import type { RowPredicate } from './filter-dsl.ts';
import type { SortedIndex } from './sorted-index.ts';
import type { OrgData } from './state.ts';

export type SortField = 'createdAt' | 'updatedAt';

/** Which actions of the window a list shows: by the responded flag (legacy) or by a DSL predicate. */
export type Selection =
  | { readonly kind: 'responded'; readonly responded: boolean }
  | { readonly kind: 'all' }
  | { readonly kind: 'predicate'; readonly predicate: RowPredicate };

export interface Page {
  readonly rows: number[];
  readonly total: number;
}

export function indexFor(org: OrgData, sortBy: SortField): SortedIndex {
  return sortBy === 'updatedAt' ? org.byUpdated : org.byCreated;
}

/** Positions [lo, hi) of the window `from <= t <= to` (inclusive bounds). */
export function windowRange(index: SortedIndex, window: Window): { lo: number; hi: number } {
  return { lo: index.lowerBound(window.from), hi: index.upperBound(window.to) };
}

function matcher(org: OrgData, selection: Selection): RowPredicate {
  switch (selection.kind) {
    case 'all':
      return () => true;
    case 'responded':
      return (row) => org.table.responded(row) === selection.responded;
    case 'predicate':
      return selection.predicate;
  }
}

/** The first `pageSize` matching rows of the window, newest first, and the number of matches. */
export function listPage(
  org: OrgData,
  sortBy: SortField,
  window: Window,
  selection: Selection,
  pageSize: number,
): Page {
  const index = indexFor(org, sortBy);
  const { lo, hi } = windowRange(index, window);
  const match = matcher(org, selection);
  const rows: number[] = [];
  for (let pos = hi - 1; pos >= lo && rows.length < pageSize; pos--) {
    const row = index.rowAt(pos);
    if (match(row)) rows.push(row);
  }
  let total: number;
  if (selection.kind === 'all') total = hi - lo;
  else if (selection.kind === 'responded') {
    const responded = index.respondedBetween(lo, hi);
    total = selection.responded ? responded : hi - lo - responded;
  } else {
    total = 0;
    for (let pos = lo; pos < hi; pos++) if (match(index.rowAt(pos))) total++;
  }
  return { rows, total };
}

export interface SearchPage extends Page {
  readonly capped: boolean;
}

/**
 * Conversation search over the whole history, newest first (ties: actionId ascending). Counting
 * stops once it passes `cap`; the page itself is always the real one.
 */
export function searchPage(
  org: OrgData,
  predicate: RowPredicate | null,
  page: number,
  pageSize: number,
  cap: number,
): SearchPage {
  const index = org.byCreated;
  const n = index.size;
  const skip = (page - 1) * pageSize;
  const rows: number[] = [];
  if (predicate === null) {
    for (let pos = n - 1 - skip; pos >= 0 && rows.length < pageSize; pos--) rows.push(index.rowAt(pos));
    return { rows, total: Math.min(n, cap), capped: n > cap };
  }
  let matches = 0;
  for (let pos = n - 1; pos >= 0; pos--) {
    const row = index.rowAt(pos);
    if (!predicate(row)) continue;
    matches++;
    if (matches > skip && rows.length < pageSize) rows.push(row);
    if (matches > cap && rows.length === pageSize) break;
    if (matches > cap && matches > skip + pageSize) break;
  }
  return { rows, total: Math.min(matches, cap), capped: matches > cap };
}

/** Calls `fn` for every row of the createdAt window (oldest first), optionally responded only. */
export function forEachInWindow(
  org: OrgData,
  window: Window,
  respondedOnly: boolean,
  fn: (row: number) => void,
): void {
  const index = org.byCreated;
  const { lo, hi } = windowRange(index, window);
  for (let pos = lo; pos < hi; pos++) {
    const row = index.rowAt(pos);
    if (!respondedOnly || org.table.responded(row)) fn(row);
  }
}
