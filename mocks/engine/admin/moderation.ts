/**
 * Admin operations of the moderation slice, typed (attach them to `engine.admin`) and as `/__mock/`
 * routes:
 *
 * | route | operation |
 * |---|---|
 * | `POST /__mock/moderation/cases/{caseId}/step` | move one case one state on |
 * | `PUT /__mock/organizations/{id}/policy` `{policyId?}` | activate a new policy workflow (new evaluations) |
 * | `DELETE /__mock/organizations/{id}/policy` | no policy: status reads answer `policy_not_configured` |
 * | `GET /__mock/organizations/{id}/policy` | the active policy workflow, or null |
 * | `GET /__mock/moderation/cases[?organizationId=]` | every case with its status, for debugging |
 */
import {
  activatePolicy,
  activeWorkflow,
  type CaseSummary,
  deactivatePolicy,
  listCases,
  type ModerationCaseStatus,
  type PolicyWorkflow,
  stepCase,
} from '../moderation/index.ts';
import type { EngineState } from '../state.ts';
import { AdminError } from './api.ts';
import { type AdminRoute, ok } from './route.ts';

/** What the moderation admin acts on: the engine's current state (a getter survives reset). */
export interface ModerationAdminHost {
  readonly state: Pick<EngineState, 'organizations' | 'moderation'>;
}

export interface ModerationAdmin {
  /** Moves one case's active evaluation one state on: pending → running → completed | failed. */
  stepModerationCase(caseId: string): ModerationCaseStatus;
  /** Activates a new policy workflow (default policy id when omitted): every case gets a new evaluation. */
  activateModerationPolicy(organizationId: string, policyId?: string): PolicyWorkflow;
  /** Removes the organization's policy workflow. */
  deactivateModerationPolicy(organizationId: string): void;
  moderationPolicy(organizationId: string): PolicyWorkflow | null;
  listModerationCases(organizationId?: string): readonly CaseSummary[];
}

/**
 * @example
 * const admin = createModerationAdmin(host);
 * admin.stepModerationCase(ack.caseId).analysisStatus; // 'running'
 */
export function createModerationAdmin(host: ModerationAdminHost): ModerationAdmin {
  const knownOrganization = (id: string): string => {
    if (!host.state.organizations.has(id))
      throw new AdminError('NOT_FOUND', `No organization ${JSON.stringify(id)}`);
    return id;
  };
  return {
    stepModerationCase(caseId) {
      const result = stepCase(host.state.moderation, caseId);
      if (result.ok) return result.status;
      switch (result.reason) {
        case 'not_found':
          throw new AdminError('NOT_FOUND', `No moderation case ${JSON.stringify(caseId)}`);
        case 'policy_not_configured':
          throw new AdminError(
            'BAD_REQUEST',
            `Case ${caseId}: its organization has no active policy workflow`,
          );
        case 'already_settled':
          throw new AdminError('BAD_REQUEST', `Case ${caseId} is already completed or failed`);
      }
    },
    activateModerationPolicy(organizationId, policyId) {
      if (
        policyId !== undefined &&
        (typeof policyId !== 'string' || policyId.length === 0 || policyId.length > 200)
      ) {
        throw new AdminError('BAD_REQUEST', 'policyId must be a string of 1..200 characters');
      }
      return activatePolicy(host.state.moderation, knownOrganization(organizationId), policyId);
    },
    deactivateModerationPolicy(organizationId) {
      deactivatePolicy(host.state.moderation, knownOrganization(organizationId));
    },
    moderationPolicy(organizationId) {
      return activeWorkflow(host.state.moderation, knownOrganization(organizationId));
    },
    listModerationCases(organizationId) {
      return listCases(host.state.moderation, organizationId);
    },
  };
}

export const moderationAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'POST',
    path: '/__mock/moderation/cases/{caseId}/step',
    summary: 'Move one moderation case one state on: pending → running → completed | failed',
    handle: ({ state, params }) =>
      ok({ case: createModerationAdmin({ state }).stepModerationCase(params['caseId'] ?? '') }),
  },
  {
    method: 'GET',
    path: '/__mock/moderation/cases',
    summary: 'List moderation cases (optionally ?organizationId=) with status, evaluations and policy',
    handle: ({ state, query }) =>
      ok({
        cases: createModerationAdmin({ state }).listModerationCases(query.get('organizationId') ?? undefined),
      }),
  },
  {
    method: 'GET',
    path: '/__mock/organizations/{id}/policy',
    summary: "The organization's active moderation policy workflow, or null",
    handle: ({ state, params }) =>
      ok({ policy: createModerationAdmin({ state }).moderationPolicy(params['id'] ?? '') }),
  },
  {
    method: 'PUT',
    path: '/__mock/organizations/{id}/policy',
    summary: 'Activate a new moderation policy workflow: {"policyId"?}; every case gets a new evaluation',
    handle: ({ state, params, body }) => {
      const input = body === undefined || body === null ? {} : body;
      if (typeof input !== 'object' || Array.isArray(input)) {
        throw new AdminError(
          'BAD_REQUEST',
          'the request body must be a JSON object like {"policyId": "ad-policy-v2"}',
        );
      }
      const policyId = (input as { readonly policyId?: unknown }).policyId;
      if (policyId !== undefined && typeof policyId !== 'string') {
        throw new AdminError('BAD_REQUEST', 'policyId must be a string');
      }
      return ok({
        policy: createModerationAdmin({ state }).activateModerationPolicy(params['id'] ?? '', policyId),
      });
    },
  },
  {
    method: 'DELETE',
    path: '/__mock/organizations/{id}/policy',
    summary: 'Remove the moderation policy workflow: status reads answer policy_not_configured',
    handle: ({ state, params }) => {
      createModerationAdmin({ state }).deactivateModerationPolicy(params['id'] ?? '');
      return ok({ policy: null });
    },
  },
];
