/**
 * The operations behind `execute` (spec 4.18): the catalog of `contract/agent/operations.json` and
 * their implementations over the engine's state, as one `OperationRegistry`.
 *
 * @example
 * const registry = createOperationRegistry();
 * registry.list(); // [{ id: 'query.search.actions', summary, effect: 'read' }, ...]
 * const page = await registry.call(ctx, 'query.search.actions', { limit: 20 });
 * if (page.ok) page.value; // { items: [...], nextCursor: '...' | null }
 */
import type { Choices } from '../../../src/contract/choice-points.ts';
import type { Engine } from '../../engine/engine.ts';
import type { OperationRegistry } from '../types.ts';
import { type AnalyticsInput, analyticsActions } from './analytics.ts';
import { cursorSecret } from './cursor.ts';
import { buildRegistry, type OperationRun } from './registry.ts';
import {
  createSavedSearch,
  deleteSavedSearch,
  getSavedSearch,
  listSavedSearches,
  updateSavedSearch,
} from './saved-searches.ts';
import {
  cursorAfterItem,
  type SearchInput,
  type SearchPage,
  type SearchQuery,
  searchActions,
} from './search-actions.ts';
import { searchTags, type TagsInput } from './search-tags.ts';

export type { SavedSearch } from '../../engine/saved-searches/index.ts';
export { CATALOG } from './catalog.ts';

export interface OperationRegistryOptions {
  /**
   * Secret material of the cursors' MAC. Default: derived from the engine's seed, so cursors survive a
   * restart of the same seeded mock; set it when cursors must not be forgeable by whoever knows the seed.
   */
  readonly cursorSecret?: string;
  /**
   * The choices whose catalog `list()` and `spec(id)` serve (default: the mock's defaults). `call`
   * always follows the calling engine's choices; give the engine's here so `spec()` shows the same.
   */
  readonly choices?: Choices;
}

/**
 * Creates the registry. Operations read `ctx.engine` at call time, so one registry serves any number of
 * engines; the cursor secret is per engine (from its seed) unless `cursorSecret` fixes one.
 */
export function createOperationRegistry(options: OperationRegistryOptions = {}): OperationRegistry {
  const fixed = options.cursorSecret === undefined ? undefined : cursorSecret(options.cursorSecret);
  const perEngine = new WeakMap<Engine, Uint8Array>();
  const secretOf = (engine: Engine): Uint8Array => {
    if (fixed !== undefined) return fixed;
    let secret = perEngine.get(engine);
    if (secret === undefined) {
      secret = cursorSecret(`seed:${String(engine.options.seed)}`);
      perEngine.set(engine, secret);
    }
    return secret;
  };

  const runs: Readonly<Record<string, OperationRun>> = {
    'query.search.actions': (ctx, input) => searchActions(ctx, input as SearchInput, secretOf(ctx.engine)),
    'query.search.tags': (ctx, input) => searchTags(ctx, input as TagsInput),
    'query.analytics.actions': (ctx, input) => analyticsActions(ctx, input as AnalyticsInput),
    'config.savedSearch.list': (ctx) => listSavedSearches(ctx),
    'config.savedSearch.get': (ctx, input) => getSavedSearch(ctx, input as { id: string }),
    'config.savedSearch.create': (ctx, input) =>
      createSavedSearch(ctx, input as { name: string; query: SearchQuery }),
    'config.savedSearch.update': (ctx, input) =>
      updateSavedSearch(ctx, input as { id: string; name?: string; query?: SearchQuery }),
    'config.savedSearch.delete': (ctx, input) => deleteSavedSearch(ctx, input as { id: string }),
  };
  const registry = buildRegistry(runs, options.choices);
  return {
    ...registry,
    resumeAfter(ctx, id, input, output, index) {
      if (id !== 'query.search.actions') return null;
      return cursorAfterItem(ctx, input as SearchInput, output as SearchPage, index, secretOf(ctx.engine));
    },
  };
}
