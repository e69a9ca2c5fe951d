/**
 * The records slice of the engine state: per organization the columnar action store, two window
 * indexes (createdAt, updatedAt), the catalog (agents, queues, tags, custom-field registry) and the
 * custom-field values written through the API, with their provenance.
 */
import {
  DEFAULT_ACTIONS,
  DEFAULT_SEED,
  generateDataset,
  SEEDED_RECORD_TYPES,
} from '../../../fixtures/generate/dataset.ts';
import { platformOf } from '../../../fixtures/generate/derive.ts';
import { actionIdOf, rowOfActionId } from '../../../fixtures/generate/ids.ts';
import { ActionTable, FLAG_INGESTED } from '../../../fixtures/generate/table.ts';
import type { Dataset, OrgCatalog } from '../../../fixtures/generate/types.ts';
import type { Clock } from '../types.ts';
import type { IngestedAction } from './ingest-types.ts';
import { LazyMap } from './lazy-map.ts';
import { SortedIndex } from './sorted-index.ts';

/** Default cap of conversation search's `totalRecords`. */
export const DEFAULT_SEARCH_CAP = 10_000;

/** Provenance of a custom-field value (shape chosen by the mock; the spec shows only "JSON"). */
export type Provenance =
  | { readonly origin: 'seed' }
  | { readonly origin: 'ingestion' }
  /** Stated in a data file (mocks/engine/data-file/). */
  | { readonly origin: 'data' }
  | {
      readonly origin: 'api';
      readonly confidence: number | null;
      readonly rationale: string | null;
      readonly updatedAt: string;
      readonly keyName: string;
    };

export interface StoredCustomValue {
  readonly value: unknown;
  readonly provenance: Provenance;
}

export interface OrgData {
  /** Replaced (never mutated) when a data file merges agents, queues, tags or fields in. */
  catalog: OrgCatalog;
  readonly table: ActionTable;
  /** Epoch ms the seeded content is relative to. */
  readonly anchor: number;
  readonly byCreated: SortedIndex;
  /** Rows with a non-null updatedAt only. */
  readonly byUpdated: SortedIndex;
  /** Interned record types; `table.recordType` indexes this list. */
  readonly recordTypes: string[];
  readonly recordTypeIndex: Map<string, number>;
  /** Full records of ingested actions, by row. */
  readonly ingested: Map<number, IngestedAction>;
  readonly ingestedIds: Map<string, number>;
  /** Values written through the custom-fields PATCH, by row then field name. */
  readonly customValues: Map<number, Map<string, StoredCustomValue>>;
}

export interface DataState {
  readonly seed: string;
  readonly anchor: number;
  readonly clock: Clock;
  readonly searchCap: number;
  /** Whether read answers that depend only on rows are remembered (`answer-cache.ts`). */
  readonly rememberAnswers: boolean;
  readonly orgs: Map<string, OrgData>;
}

export interface DataStateOptions {
  readonly seed?: number | string;
  readonly actions?: number;
  readonly clock: Clock;
  /** A data set generated already (shared with the key store); generated from seed/actions otherwise. */
  readonly dataset?: Dataset;
  /** Cap of conversation search's count; default 10000. */
  readonly searchCap?: number;
  /** Remember row-only read answers until a row changes; default true. */
  readonly rememberAnswers?: boolean;
}

/**
 * Builds the records slice from a seed (or a data set generated already), anchored at `clock.now()`.
 *
 * @example
 * const data = createDataState({ seed: 42, actions: 2000, clock: { now: () => Date.now() } });
 * getActionRow(data, 'org_acme', someId);
 */
export function createDataState(options: DataStateOptions): DataState {
  const searchCap = options.searchCap ?? DEFAULT_SEARCH_CAP;
  if (!Number.isInteger(searchCap) || searchCap < 1)
    throw new RangeError(`searchCap must be a positive integer, got ${searchCap}`);
  const dataset =
    options.dataset ??
    generateDataset({
      seed: options.seed ?? DEFAULT_SEED,
      actions: options.actions ?? DEFAULT_ACTIONS,
      anchor: options.clock.now(),
    });
  // Each seeded organization is generated and indexed at its first use (./lazy-map.ts).
  const orgs = new LazyMap<string, OrgData>(
    dataset.orgs.map((org) => [
      org.catalog.organization.id,
      () => buildOrg(org.catalog, org.actions, dataset.anchor),
    ]),
  );
  return {
    seed: dataset.seed,
    anchor: dataset.anchor,
    clock: options.clock,
    searchCap,
    rememberAnswers: options.rememberAnswers ?? true,
    // The data set itself is not kept: it holds the seeded keys by value, and the state is what a
    // snapshot writes to disk or Redis. Each organization's loader holds what it needs.
    orgs,
  };
}

function buildOrg(catalog: OrgCatalog, table: ActionTable, anchor: number): OrgData {
  const partial = {
    catalog,
    table,
    anchor,
    ingested: new Map<number, IngestedAction>(),
    ingestedIds: new Map<string, number>(),
  };
  const tie = tieByActionId(partial);
  const responded = (row: number): boolean => table.responded(row);
  const all = new Int32Array(table.size);
  let sorted = true;
  let withUpdate = 0;
  for (let row = 0; row < table.size; row++) {
    all[row] = row;
    if (row > 0 && (table.createdAt[row] ?? 0) <= (table.createdAt[row - 1] ?? 0)) sorted = false;
    if (!Number.isNaN(table.updatedAt[row] ?? Number.NaN)) withUpdate++;
  }
  const updatedRows = new Int32Array(withUpdate);
  let k = 0;
  for (let row = 0; row < table.size; row++)
    if (!Number.isNaN(table.updatedAt[row] ?? Number.NaN)) updatedRows[k++] = row;
  const byCreated = SortedIndex.build(all, (row) => table.createdAt[row] ?? 0, responded, tie, sorted);
  const byUpdated = SortedIndex.build(updatedRows, (row) => table.updatedAt[row] ?? 0, responded, tie, false);
  const recordTypes = [...SEEDED_RECORD_TYPES];
  return {
    ...partial,
    byCreated,
    byUpdated,
    recordTypes,
    recordTypeIndex: new Map(recordTypes.map((t, i) => [t, i])),
    customValues: new Map(),
  };
}

/**
 * Tie rule of both indexes: rows with equal times are stored by actionId descending (code-unit
 * order), so reading newest first yields actionId ascending.
 */
export function tieByActionId(
  org: Pick<OrgData, 'catalog' | 'table' | 'ingested'>,
): (a: number, b: number) => number {
  return (a, b) => {
    const idA = actionIdOfRow(org, a);
    const idB = actionIdOfRow(org, b);
    return idA < idB ? 1 : idA > idB ? -1 : 0;
  };
}

/** The organization's data; an organization without seeded data gets an empty store on first use. */
export function orgData(state: DataState, organizationId: string): OrgData {
  const existing = state.orgs.get(organizationId);
  if (existing !== undefined) return existing;
  const catalog: OrgCatalog = {
    organization: { id: organizationId, name: organizationId, moderationMode: 'standard' },
    code: organizationId.replace(/^org_/, '').slice(0, 4).toUpperCase() || 'ORG',
    idPrefix: '1999',
    padDigit: '9',
    slug: organizationId.replace(/[^A-Za-z0-9]/g, ''),
    domain: 'example.com',
    brand: organizationId,
    platforms: [],
    agents: [],
    queues: [],
    tags: [],
    closingTags: [],
    customFields: [],
    customerPool: 1,
  };
  const created = buildOrg(catalog, new ActionTable(16), state.anchor);
  state.orgs.set(organizationId, created);
  return created;
}

export function actionIdOfRow(org: Pick<OrgData, 'catalog' | 'table' | 'ingested'>, row: number): string {
  const ingested = org.ingested.get(row);
  if (ingested !== undefined) return ingested.actionId;
  return actionIdOf(org.catalog, platformOf(org.table, row), row, org.table.seed[row] ?? 0);
}

/** The row of `actionId` in this organization, or -1 (an exact, byte-for-byte match only). */
export function findRow(org: OrgData, actionId: string): number {
  const ingested = org.ingestedIds.get(actionId);
  if (ingested !== undefined) return ingested;
  const row = rowOfActionId(org.catalog, actionId);
  if (row < 0 || row >= org.table.size || org.table.hasFlag(row, FLAG_INGESTED)) return -1;
  return actionIdOfRow(org, row) === actionId ? row : -1;
}
