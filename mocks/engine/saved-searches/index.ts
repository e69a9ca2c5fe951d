/**
 * The saved-search slice of the engine: per-organization saved searches and their writes. The agent
 * interface's `config.savedSearch.*` operations (`mocks/agent/operations/saved-searches.ts`) sit on top.
 *
 * @example
 * import { createSavedSearch, createSavedSearchState } from './saved-searches/index.ts';
 * const state = createSavedSearchState();
 * createSavedSearch(state, { organizationId: 'org_acme', keyName: 'ci', at: '2026-11-20T12:00:00Z' }, { name: 'X', query: {} });
 */
export {
  createSavedSearchState,
  type SavedQuery,
  type SavedSearch,
  type SavedSearchState,
  savedSearchesOf,
} from './state.ts';
export {
  createSavedSearch,
  deleteSavedSearch,
  findSavedSearch,
  listSavedSearches,
  SAVED_SEARCHES_PER_ORGANIZATION,
  type SavedSearchRefusal,
  type SavedSearchWrite,
  type SavedSearchWriter,
  updateSavedSearch,
} from './store.ts';
