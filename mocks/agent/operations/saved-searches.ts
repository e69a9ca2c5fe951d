/**
 * `config.savedSearch.list/get/create/update/delete` over the engine's saved-search slice
 * (`mocks/engine/saved-searches/`). A saved search is a name and a `query.search.actions` input without
 * cursor, stamped by the engine clock and the creating key's name. Names are unique per organization
 * (create with a taken name is a conflict naming `name`), so an agent that timed out on a create can
 * look it up by name before creating again (4.18 rule 3). An id of another organization is not_found,
 * exactly like an unknown id.
 */

import type { SavedSearch, SavedSearchRefusal, SavedSearchWrite } from '../../engine/saved-searches/index.ts';
import * as store from '../../engine/saved-searches/index.ts';
import { type AgentContext, type AgentFailure, fail, type Outcome, succeed } from '../types.ts';
import { conflict, invalidInput, notFound } from './failures.ts';
import type { SearchQuery } from './search-actions.ts';

const slice = (ctx: AgentContext) => ctx.engine.state.savedSearches;

function failureOf(refusal: SavedSearchRefusal, creating: boolean): AgentFailure {
  switch (refusal.reason) {
    case 'not_found':
      return notFound('/id', `no saved search with id ${JSON.stringify(refusal.id)} in this organization`);
    case 'name_taken':
      return conflict(
        '/name',
        creating
          ? `a saved search named ${JSON.stringify(refusal.name)} exists already (list or get it before creating again)`
          : `a saved search named ${JSON.stringify(refusal.name)} exists already`,
      );
    case 'full':
      return invalidInput(
        '/name',
        `this organization has ${refusal.count} saved searches, the most it may keep: delete one first`,
      );
  }
}

const outcomeOf = <T>(write: SavedSearchWrite<T>, creating = false): Outcome<T> =>
  write.ok ? succeed(write.value) : fail(failureOf(write.refusal, creating));

export function listSavedSearches(ctx: AgentContext): Outcome<{ items: SavedSearch[] }> {
  return succeed({ items: store.listSavedSearches(slice(ctx), ctx.identity.organizationId) });
}

export function getSavedSearch(ctx: AgentContext, input: { id: string }): Outcome<SavedSearch> {
  const found = store.findSavedSearch(slice(ctx), ctx.identity.organizationId, input.id);
  return found === undefined
    ? outcomeOf({ ok: false, refusal: { reason: 'not_found', id: input.id } })
    : succeed(found);
}

/** The writes are engine commands (`savedSearch.*`), so a shared store applies them on every replica. */
export async function createSavedSearch(
  ctx: AgentContext,
  input: { name: string; query: SearchQuery },
): Promise<Outcome<SavedSearch>> {
  const { organizationId, keyName } = ctx.identity;
  const write = await ctx.engine.execute({
    type: 'savedSearch.create',
    organizationId,
    keyName,
    name: input.name,
    query: input.query,
  });
  return outcomeOf(write, true);
}

export async function updateSavedSearch(
  ctx: AgentContext,
  input: { id: string; name?: string; query?: SearchQuery },
): Promise<Outcome<SavedSearch>> {
  const { organizationId, keyName } = ctx.identity;
  const write = await ctx.engine.execute({
    type: 'savedSearch.update',
    organizationId,
    keyName,
    id: input.id,
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.query === undefined ? {} : { query: input.query }),
  });
  return outcomeOf(write);
}

export async function deleteSavedSearch(
  ctx: AgentContext,
  input: { id: string },
): Promise<Outcome<{ id: string; deleted: true }>> {
  const organizationId = ctx.identity.organizationId;
  return outcomeOf(await ctx.engine.execute({ type: 'savedSearch.delete', organizationId, id: input.id }));
}
