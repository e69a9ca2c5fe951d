/** The saved-search commands (agent `config.savedSearch.create/update/delete`), stamped by the engine clock. */
import {
  createSavedSearch,
  deleteSavedSearch,
  type SavedQuery,
  type SavedSearch,
  type SavedSearchWrite,
  updateSavedSearch,
} from '../saved-searches/index.ts';
import type { CommandTarget } from './target.ts';

export type SavedSearchCommand =
  | {
      readonly type: 'savedSearch.create';
      readonly organizationId: string;
      readonly keyName: string;
      readonly name: string;
      readonly query: SavedQuery;
    }
  | {
      readonly type: 'savedSearch.update';
      readonly organizationId: string;
      readonly keyName: string;
      readonly id: string;
      readonly name?: string;
      readonly query?: SavedQuery;
    }
  | { readonly type: 'savedSearch.delete'; readonly organizationId: string; readonly id: string };

export interface SavedSearchOutcomes {
  'savedSearch.create': SavedSearchWrite<SavedSearch>;
  'savedSearch.update': SavedSearchWrite<SavedSearch>;
  'savedSearch.delete': SavedSearchWrite<{ readonly id: string; readonly deleted: true }>;
}

const writer = ({ clock }: CommandTarget, organizationId: string, keyName: string) => ({
  organizationId,
  keyName,
  at: new Date(clock.now()).toISOString(),
});

export const savedSearchAppliers = {
  'savedSearch.create': (
    target: CommandTarget,
    c: Extract<SavedSearchCommand, { type: 'savedSearch.create' }>,
  ) =>
    createSavedSearch(target.state.savedSearches, writer(target, c.organizationId, c.keyName), {
      name: c.name,
      query: c.query,
    }),
  'savedSearch.update': (
    target: CommandTarget,
    c: Extract<SavedSearchCommand, { type: 'savedSearch.update' }>,
  ) =>
    updateSavedSearch(target.state.savedSearches, writer(target, c.organizationId, c.keyName), {
      id: c.id,
      ...(c.name === undefined ? {} : { name: c.name }),
      ...(c.query === undefined ? {} : { query: c.query }),
    }),
  'savedSearch.delete': (
    target: CommandTarget,
    c: Extract<SavedSearchCommand, { type: 'savedSearch.delete' }>,
  ) => deleteSavedSearch(target.state.savedSearches, c.organizationId, c.id),
} as const;
