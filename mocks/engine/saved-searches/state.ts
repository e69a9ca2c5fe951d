/**
 * The saved-search slice of the engine state: per organization, in creation order. It lives in the
 * engine state (mocks/engine/state.ts), so `admin.reset()` clears it with everything else, and it is
 * keyed by organization, so one organization never sees another's.
 */

/**
 * The saved query: a `query.search.actions` input without cursor. Its shape is the agent interface's
 * (validated there against `contract/agent/operations.json`); the engine stores it as given.
 */
export type SavedQuery = Readonly<Record<string, unknown>>;

export interface SavedSearch {
  readonly id: string;
  readonly name: string;
  readonly query: SavedQuery;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The name of the key that created it (never the key's value). */
  readonly createdBy: string;
}

export interface SavedSearchState {
  /** Organization id → saved searches by id (a Map keeps creation order). */
  readonly byOrganization: Map<string, Map<string, SavedSearch>>;
  /** The number of the next id; ids are `ss_<n>`, never reused within one engine state. */
  next: number;
}

export function createSavedSearchState(): SavedSearchState {
  return { byOrganization: new Map(), next: 1 };
}

/** The organization's saved searches (created empty on first use). */
export function savedSearchesOf(state: SavedSearchState, organizationId: string): Map<string, SavedSearch> {
  let searches = state.byOrganization.get(organizationId);
  if (searches === undefined) {
    searches = new Map();
    state.byOrganization.set(organizationId, searches);
  }
  return searches;
}
