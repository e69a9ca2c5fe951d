/** Which operations carry a record id in their path, and whether the engine knows an id of that record. */
import { findRow, orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';

export type IdRecord = 'action' | 'agent' | 'moderation case';

export interface IdPathParameter {
  readonly name: string;
  readonly record: IdRecord;
}

/** The operations whose 404 may be a client's precision loss, with their id path parameter. */
export const ID_PATH_PARAMETERS: Readonly<Record<string, IdPathParameter>> = {
  getAction: { name: 'id', record: 'action' },
  getCustomFields: { name: 'actionId', record: 'action' },
  updateCustomFields: { name: 'actionId', record: 'action' },
  getAgent: { name: 'id', record: 'agent' },
  getModerationCase: { name: 'caseId', record: 'moderation case' },
};

/** True when `id` names a record of `organizationId` (exact match, as the handlers look it up). */
export function findKnownId(
  state: EngineState,
  organizationId: string,
  record: IdRecord,
  id: string,
): boolean {
  switch (record) {
    case 'action':
      return findRow(orgData(state.data, organizationId), id) >= 0;
    case 'agent':
      return orgData(state.data, organizationId).catalog.agents.some((agent) => agent.userId === id);
    case 'moderation case':
      return state.moderation.byCaseId.get(id)?.organizationId === organizationId;
  }
}
