/**
 * The moderation slice of the engine state: cases by organization and externalId, cases by caseId,
 * and the active policy workflow of each organization. One slice per engine; nothing global.
 */
import type { Clock } from '../types.ts';
import { fnv1a64 } from './canonical.ts';
import { type Latency, type LatencyOption, normalizeLatency } from './scheduler.ts';
import type { ModerationCase, PolicyWorkflow } from './types.ts';

export interface ModerationStateOptions {
  /** The engine clock: the lifecycle moves only when it does. */
  readonly clock: Clock;
  /** Default: running after 1 s, completed after 3 s. See `LatencyOption`. */
  readonly latency?: LatencyOption;
  /** Seeds the generated caseId / evaluationId / workflow ids. Default 0. */
  readonly seed?: number | string;
  /** Policy id every organization starts with. Default `ad-policy-v1`. */
  readonly defaultPolicyId?: string;
  /** Organizations that start with no policy workflow (status reads answer `policy_not_configured`). */
  readonly unconfiguredOrganizations?: readonly string[];
}

interface OrganizationSlot {
  readonly byExternalId: Map<string, ModerationCase>;
  workflow: PolicyWorkflow | null;
}

export interface ModerationState {
  readonly clock: Clock;
  readonly latency: Latency;
  readonly seed: string;
  readonly defaultPolicyId: string;
  readonly unconfigured: ReadonlySet<string>;
  readonly organizations: Map<string, OrganizationSlot>;
  readonly byCaseId: Map<string, ModerationCase>;
  /** Clock time the slice was created: when every organization's default workflow counts as activated. */
  readonly createdAt: number;
  /** Counter behind the generated ids. */
  issued: number;
}

/**
 * Creates an empty moderation slice.
 *
 * @example
 * const moderation = createModerationState({ clock, latency: 'instant', seed: 42 });
 */
export function createModerationState(options: ModerationStateOptions): ModerationState {
  return {
    clock: options.clock,
    latency: normalizeLatency(options.latency),
    seed: String(options.seed ?? 0),
    defaultPolicyId: options.defaultPolicyId ?? 'ad-policy-v1',
    unconfigured: new Set(options.unconfiguredOrganizations ?? []),
    organizations: new Map(),
    byCaseId: new Map(),
    createdAt: options.clock.now(),
    issued: 0,
  };
}

/**
 * The organization's slot, created on first use with the default policy (or none, if unconfigured).
 * Reads create slots too, so creating one must not depend on when it happens: the default workflow's
 * id comes from the organization (not the id counter) and it counts as activated when the slice was
 * created. Then replicas and a replayed log issue the same ids whatever was read before.
 */
export function organizationSlot(state: ModerationState, organizationId: string): OrganizationSlot {
  const existing = state.organizations.get(organizationId);
  if (existing !== undefined) return existing;
  const workflow = state.unconfigured.has(organizationId) ? null : defaultWorkflow(state, organizationId);
  const slot: OrganizationSlot = { byExternalId: new Map(), workflow };
  state.organizations.set(organizationId, slot);
  return slot;
}

export function activeWorkflow(state: ModerationState, organizationId: string): PolicyWorkflow | null {
  return organizationSlot(state, organizationId).workflow;
}

export function newWorkflow(state: ModerationState, policyId: string, now: number): PolicyWorkflow {
  return { workflowId: issueId(state, 'wf'), policyId, activatedAt: now };
}

function defaultWorkflow(state: ModerationState, organizationId: string): PolicyWorkflow {
  const input = `${state.seed}:wf:default:${organizationId}`;
  const workflowId = `wf_${fnv1a64(`${fnv1a64(input)}:${input}`)}`;
  return { workflowId, policyId: state.defaultPolicyId, activatedAt: state.createdAt };
}

/** A fresh, deterministic id: `<prefix>_` and 16 hex digits derived from the seed and a counter. */
export function issueId(state: ModerationState, prefix: 'mc' | 'ev' | 'wf'): string {
  for (;;) {
    state.issued += 1;
    const input = `${state.seed}:${prefix}:${state.issued}`;
    // Hashing twice spreads consecutive counters over the whole id (FNV alone keeps their prefixes alike).
    const id = `${prefix}_${fnv1a64(`${fnv1a64(input)}:${input}`)}`;
    if (prefix !== 'mc' || !state.byCaseId.has(id)) return id;
  }
}
