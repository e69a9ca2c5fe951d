/**
 * `config.savedSearch.list/get/create/update/delete`. A saved search is a name and a
 * `query.search.actions` input without cursor, stamped by the engine clock and the creating key's name.
 * Names are unique per organization (create with a taken name is a conflict naming `name`), so an agent
 * that timed out on a create can look it up by name before creating again (4.18 rule 3). An id of
 * another organization is not_found, exactly like an unknown id.
 */
import { type AgentContext, fail, type Outcome, succeed } from '../types.ts';
import { conflict, invalidInput, notFound } from './failures.ts';
import { type SavedSearch, type SavedSearchState, savedSearchesOf } from './saved-search-state.ts';
import type { SearchQuery } from './search-actions.ts';
import { SAVED_SEARCHES_PER_ORGANIZATION } from './vocabulary.ts';

/** Where the slice lives; the engine state carries it once mocks/engine/state.ts composes it. */
export type SavedSearchHost = (ctx: AgentContext) => SavedSearchState;

const iso = (ctx: AgentContext): string => new Date(ctx.engine.clock.now()).toISOString();

function mine(ctx: AgentContext, host: SavedSearchHost): Map<string, SavedSearch> {
  return savedSearchesOf(host(ctx), ctx.identity.organizationId);
}

const missing = (id: string) =>
  fail(notFound('/id', `no saved search with id ${JSON.stringify(id)} in this organization`));

function nameTaken(searches: Map<string, SavedSearch>, name: string, except: string | null): boolean {
  for (const search of searches.values()) if (search.name === name && search.id !== except) return true;
  return false;
}

export function listSavedSearches(
  ctx: AgentContext,
  host: SavedSearchHost,
): Outcome<{ items: SavedSearch[] }> {
  return succeed({ items: [...mine(ctx, host).values()] });
}

export function getSavedSearch(
  ctx: AgentContext,
  host: SavedSearchHost,
  input: { id: string },
): Outcome<SavedSearch> {
  const found = mine(ctx, host).get(input.id);
  return found === undefined ? missing(input.id) : succeed(found);
}

export function createSavedSearch(
  ctx: AgentContext,
  host: SavedSearchHost,
  input: { name: string; query: SearchQuery },
): Outcome<SavedSearch> {
  const state = host(ctx);
  const searches = savedSearchesOf(state, ctx.identity.organizationId);
  if (nameTaken(searches, input.name, null)) {
    return fail(
      conflict(
        '/name',
        `a saved search named ${JSON.stringify(input.name)} exists already (list or get it before creating again)`,
      ),
    );
  }
  if (searches.size >= SAVED_SEARCHES_PER_ORGANIZATION) {
    return fail(
      invalidInput(
        '/name',
        `this organization has ${searches.size} saved searches, the most it may keep: delete one first`,
      ),
    );
  }
  const now = iso(ctx);
  const search: SavedSearch = {
    id: `ss_${state.next++}`,
    name: input.name,
    query: input.query,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.identity.keyName,
  };
  searches.set(search.id, search);
  return succeed(search);
}

export function updateSavedSearch(
  ctx: AgentContext,
  host: SavedSearchHost,
  input: { id: string; name?: string; query?: SearchQuery },
): Outcome<SavedSearch> {
  const searches = mine(ctx, host);
  const found = searches.get(input.id);
  if (found === undefined) return missing(input.id);
  if (input.name !== undefined && nameTaken(searches, input.name, found.id)) {
    return fail(conflict('/name', `a saved search named ${JSON.stringify(input.name)} exists already`));
  }
  const updated: SavedSearch = {
    ...found,
    name: input.name ?? found.name,
    query: input.query ?? found.query,
    updatedAt: iso(ctx),
  };
  searches.set(found.id, updated);
  return succeed(updated);
}

export function deleteSavedSearch(
  ctx: AgentContext,
  host: SavedSearchHost,
  input: { id: string },
): Outcome<{ id: string; deleted: true }> {
  const searches = mine(ctx, host);
  if (!searches.delete(input.id)) return missing(input.id);
  return succeed({ id: input.id, deleted: true });
}
