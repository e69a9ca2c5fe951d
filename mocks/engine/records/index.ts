/**
 * The records slice of the engine (`state.data`): seeded actions, window indexes, the filter language
 * and the seam through which ingestion adds actions.
 *
 * @example
 * import { createDataState, upsertIngestedAction, getActionRecord } from './records/index.ts';
 * const data = createDataState({ seed: 42, actions: 2000, clock });
 * upsertIngestedAction(data, 'org_acme', record);
 * getActionRecord(data, 'org_acme', record.actionId); // the detail record, or undefined
 */
import { type DataState, findRow, orgData } from './state.ts';
import { actionDetail } from './view.ts';

export { DEFAULT_WINDOW_MS, type Parsed, parseDateParam, resolveWindow, type Window } from './dates.ts';
export { FILTER_KEYS, type FilterKey, type FilterTerm, parseFilter } from './filter-dsl.ts';
export { addIngestedAction, upsertIngestedAction } from './ingest.ts';
export type {
  AuthorType,
  IngestedAction,
  IngestedActionInput,
  IngestedMessage,
  IngestOutcome,
} from './ingest-types.ts';
export {
  createDataState,
  type DataState,
  type DataStateOptions,
  DEFAULT_SEARCH_CAP,
  findRow,
  type OrgData,
  orgData,
  type Provenance,
  type StoredCustomValue,
} from './state.ts';

/** The detail record (spec 2.2) of an action of the organization, or undefined (unknown or another organization's). */
export function getActionRecord(
  state: DataState,
  organizationId: string,
  actionId: string,
): Record<string, unknown> | undefined {
  const org = orgData(state, organizationId);
  const row = findRow(org, actionId);
  return row < 0 ? undefined : actionDetail(org, row);
}

/** Alias of `getActionRecord`, the name the ingestion slice was promised. */
export const getAction = getActionRecord;
