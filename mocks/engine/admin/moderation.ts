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
  activeWorkflow,
  type CaseSummary,
  listCases,
  type ModerationCaseStatus,
  type PolicyWorkflow,
} from '../moderation/index.ts';
import type { EngineState } from '../state.ts';
import { AdminError, type AdminHost } from './api.ts';
import { type AdminRoute, ok } from './route.ts';

/** What the moderation admin acts on: the engine's current state (a getter survives reset) and its writes. */
export interface ModerationAdminHost {
  readonly state: Pick<EngineState, 'organizations' | 'moderation'>;
  readonly run: AdminHost['run'];
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
    stepModerationCase: (caseId) => host.run({ type: 'moderation.step', caseId }),
    activateModerationPolicy: (organizationId, policyId) =>
      host.run({
        type: 'moderation.policy.activate',
        organizationId,
        ...(policyId === undefined ? {} : { policyId }),
      }),
    deactivateModerationPolicy(organizationId) {
      host.run({ type: 'moderation.policy.deactivate', organizationId });
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
    handle: async ({ params, execute }) =>
      ok({ case: await execute({ type: 'moderation.step', caseId: params['caseId'] ?? '' }) }),
  },
  {
    method: 'GET',
    path: '/__mock/moderation/cases',
    summary: 'List moderation cases (optionally ?organizationId=) with status, evaluations and policy',
    handle: ({ state, query }) =>
      ok({ cases: listCases(state.moderation, query.get('organizationId') ?? undefined) }),
  },
  {
    method: 'GET',
    path: '/__mock/organizations/{id}/policy',
    summary: "The organization's active moderation policy workflow, or null",
    handle: ({ state, params }) => {
      const id = params['id'] ?? '';
      if (!state.organizations.has(id))
        throw new AdminError('NOT_FOUND', `No organization ${JSON.stringify(id)}`);
      return ok({ policy: activeWorkflow(state.moderation, id) });
    },
  },
  {
    method: 'PUT',
    path: '/__mock/organizations/{id}/policy',
    summary: 'Activate a new moderation policy workflow: {"policyId"?}; every case gets a new evaluation',
    handle: async ({ params, body, execute }) => {
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
      const organizationId = params['id'] ?? '';
      return ok({
        policy: await execute({
          type: 'moderation.policy.activate',
          organizationId,
          ...(policyId === undefined ? {} : { policyId }),
        }),
      });
    },
  },
  {
    method: 'DELETE',
    path: '/__mock/organizations/{id}/policy',
    summary: 'Remove the moderation policy workflow: status reads answer policy_not_configured',
    handle: async ({ params, execute }) => {
      await execute({ type: 'moderation.policy.deactivate', organizationId: params['id'] ?? '' });
      return ok({ policy: null });
    },
  },
];
