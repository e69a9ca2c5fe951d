/**
 * The writes of the saved-search slice: create, update, delete, with the slice's rules (names unique
 * per organization, at most `SAVED_SEARCHES_PER_ORGANIZATION` each). Refusals are data; the agent
 * interface turns them into its failures (`mocks/agent/operations/saved-searches.ts`).
 */
import { type SavedQuery, type SavedSearch, type SavedSearchState, savedSearchesOf } from './state.ts';

/** Saved searches kept per organization; beyond, create refuses. */
export const SAVED_SEARCHES_PER_ORGANIZATION = 500;

/** Who writes and when (engine time, ISO 8601). */
export interface SavedSearchWriter {
  readonly organizationId: string;
  readonly keyName: string;
  readonly at: string;
}

export type SavedSearchRefusal =
  | { readonly reason: 'not_found'; readonly id: string }
  | { readonly reason: 'name_taken'; readonly name: string }
  | { readonly reason: 'full'; readonly count: number };

export type SavedSearchWrite<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly refusal: SavedSearchRefusal };

const refuse = (refusal: SavedSearchRefusal): SavedSearchWrite<never> => ({ ok: false, refusal });

function nameTaken(searches: Map<string, SavedSearch>, name: string, except: string | null): boolean {
  for (const search of searches.values()) if (search.name === name && search.id !== except) return true;
  return false;
}

export function listSavedSearches(state: SavedSearchState, organizationId: string): SavedSearch[] {
  return [...savedSearchesOf(state, organizationId).values()];
}

export function findSavedSearch(
  state: SavedSearchState,
  organizationId: string,
  id: string,
): SavedSearch | undefined {
  return savedSearchesOf(state, organizationId).get(id);
}

export function createSavedSearch(
  state: SavedSearchState,
  by: SavedSearchWriter,
  input: { readonly name: string; readonly query: SavedQuery },
): SavedSearchWrite<SavedSearch> {
  const searches = savedSearchesOf(state, by.organizationId);
  if (nameTaken(searches, input.name, null)) return refuse({ reason: 'name_taken', name: input.name });
  if (searches.size >= SAVED_SEARCHES_PER_ORGANIZATION)
    return refuse({ reason: 'full', count: searches.size });
  const search: SavedSearch = {
    id: `ss_${state.next++}`,
    name: input.name,
    query: input.query,
    createdAt: by.at,
    updatedAt: by.at,
    createdBy: by.keyName,
  };
  searches.set(search.id, search);
  return { ok: true, value: search };
}

export function updateSavedSearch(
  state: SavedSearchState,
  by: SavedSearchWriter,
  input: { readonly id: string; readonly name?: string; readonly query?: SavedQuery },
): SavedSearchWrite<SavedSearch> {
  const searches = savedSearchesOf(state, by.organizationId);
  const found = searches.get(input.id);
  if (found === undefined) return refuse({ reason: 'not_found', id: input.id });
  if (input.name !== undefined && nameTaken(searches, input.name, found.id))
    return refuse({ reason: 'name_taken', name: input.name });
  const updated: SavedSearch = {
    ...found,
    name: input.name ?? found.name,
    query: input.query ?? found.query,
    updatedAt: by.at,
  };
  searches.set(found.id, updated);
  return { ok: true, value: updated };
}

export function deleteSavedSearch(
  state: SavedSearchState,
  organizationId: string,
  id: string,
): SavedSearchWrite<{ readonly id: string; readonly deleted: true }> {
  if (!savedSearchesOf(state, organizationId).delete(id)) return refuse({ reason: 'not_found', id });
  return { ok: true, value: { id, deleted: true } };
}
