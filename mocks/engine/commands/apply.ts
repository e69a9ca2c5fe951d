/**
 * The one function that changes the engine state: `applyCommand`. It runs with the clock pinned at
 * the command's real time, so a command applied again (a replayed file, another replica reading the
 * same log) reads the same times and issues the same ids. A slice that refuses a command throws
 * before it changes anything; the refusal is returned as data.
 */
import { validateSchema } from '../../../src/contract/index.ts';
import { createKey, KEY_EXPIRIES, KEY_PROFILES, type KeyExpiry, revokeKey } from '../auth/index.ts';
import { AdminError, missingPart } from '../errors.ts';
import { ingestBatch, scheduleSettle, settleIngestion } from '../ingestion/index.ts';
import { submitBatch } from '../moderation/batch.ts';
import { submitCase } from '../moderation/intake.ts';
import { activatePolicy, deactivatePolicy, stepCase } from '../moderation/status.ts';
import { writeFields } from '../records/custom-fields.ts';
import { findRow, orgData } from '../records/state.ts';
import type { ModerationMode, Organization } from '../types.ts';
import type { CommandTarget } from './target.ts';
import type {
  AgentCommand,
  Applied,
  Command,
  CommandOf,
  CommandOutcomes,
  CommandType,
  LoggedCommand,
} from './types.ts';

export type Applier<T extends CommandType> = (
  target: CommandTarget,
  command: CommandOf<T>,
) => CommandOutcomes[T];

/** One applier per command type. */
export type Appliers = { readonly [T in CommandType]: Applier<T> };

type PartCommand = 'data.merge' | 'data.replace' | AgentCommand;

/** The commands an engine applies only with an optional part (`../parts.ts`), by the part's opt-in. */
const PART_COMMANDS = {
  'data.merge': 'dataFiles',
  'data.replace': 'dataFiles',
  'reply.prepare': 'agent',
  'reply.review': 'agent',
  'reply.decide': 'agent',
  'reply.admin': 'agent',
  'savedSearch.create': 'agent',
  'savedSearch.update': 'agent',
  'savedSearch.delete': 'agent',
} as const satisfies Record<PartCommand, 'dataFiles' | 'agent'>;

const MODES: readonly ModerationMode[] = ['ad_policy', 'standard'];

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new AdminError(
    'BAD_REQUEST',
    `${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`,
  );
}

function organization(target: CommandTarget, id: string): Organization {
  const org = target.state.organizations.get(id);
  if (org === undefined) throw new AdminError('NOT_FOUND', `No organization ${JSON.stringify(id)}`);
  return org;
}

const coreAppliers: Omit<Appliers, PartCommand> = {
  'customFields.update': ({ state, clock }, c) => {
    const org = orgData(state.data, c.organizationId);
    const row = findRow(org, c.actionId);
    if (row < 0) return { ok: false, notFound: true };
    return writeFields(org, row, c.fields, c.keyName, clock.now());
  },
  'moderation.submit': ({ state }, c) => submitCase(state.moderation, c.organizationId, c.submission, []),
  'moderation.submitBatch': ({ state }, c) =>
    submitBatch(state.moderation, c.organizationId, c.cases, (item) => {
      const validation = validateSchema('ModerationSubmission', item, 'body');
      return validation.ok ? [] : validation.issues;
    }),
  'moderation.step': ({ state }, c) => {
    const result = stepCase(state.moderation, c.caseId);
    if (result.ok) return result.status;
    switch (result.reason) {
      case 'not_found':
        throw new AdminError('NOT_FOUND', `No moderation case ${JSON.stringify(c.caseId)}`);
      case 'policy_not_configured':
        throw new AdminError(
          'BAD_REQUEST',
          `Case ${c.caseId}: its organization has no active policy workflow`,
        );
      case 'already_settled':
        throw new AdminError('BAD_REQUEST', `Case ${c.caseId} is already completed or failed`);
    }
  },
  'moderation.policy.activate': (target, c) => {
    const policyId = c.policyId;
    if (
      policyId !== undefined &&
      (typeof policyId !== 'string' || policyId.length === 0 || policyId.length > 200)
    ) {
      throw new AdminError('BAD_REQUEST', 'policyId must be a string of 1..200 characters');
    }
    organization(target, c.organizationId);
    return activatePolicy(target.state.moderation, c.organizationId, policyId);
  },
  'moderation.policy.deactivate': (target, c) => {
    organization(target, c.organizationId);
    deactivatePolicy(target.state.moderation, c.organizationId);
    return null;
  },
  'ingestion.batch': ({ state }, c) => {
    const receipt = ingestBatch(state.ingestion, c.organizationId, c.batch);
    settleIngestion(state.ingestion, state.data);
    scheduleSettle(state.ingestion, state.data);
    return receipt;
  },
  'keys.create': (target, c) => {
    const input = c.input;
    organization(target, input.organizationId);
    const profile = oneOf('profile', input.profile ?? 'reporting', KEY_PROFILES);
    const expiry: KeyExpiry = oneOf('expiry', input.expiry ?? '90d', KEY_EXPIRIES);
    if (
      input.name !== undefined &&
      (typeof input.name !== 'string' || input.name.length === 0 || input.name.length > 200)
    ) {
      throw new AdminError('BAD_REQUEST', 'name must be a string of 1..200 characters');
    }
    return createKey(
      target.state.keys,
      {
        organizationId: input.organizationId,
        profile,
        expiry,
        ...(input.name === undefined ? {} : { name: input.name }),
      },
      target.clock.now(),
    );
  },
  'keys.revoke': ({ state }, c) => {
    const revoked = revokeKey(state.keys, c.keyId);
    if (revoked === undefined) throw new AdminError('NOT_FOUND', 'No such API key');
    return revoked;
  },
  'organization.moderationMode': (target, c) => {
    const org = organization(target, c.organizationId);
    org.moderationMode = oneOf('mode', c.mode, MODES);
    return org;
  },
  'clock.advance': ({ clock }, c) => {
    const ms = c.ms;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw new AdminError('BAD_REQUEST', `ms must be a finite number >= 0 (got ${JSON.stringify(ms)})`);
    }
    return clock.advance(ms);
  },
  'clock.set': ({ clock }, c) => {
    const target = typeof c.now === 'string' ? Date.parse(c.now) : c.now;
    if (typeof target !== 'number' || !Number.isFinite(target)) {
      throw new AdminError(
        'BAD_REQUEST',
        `now must be epoch ms or an ISO timestamp (got ${JSON.stringify(c.now)})`,
      );
    }
    const current = clock.now();
    if (target < current) {
      throw new AdminError(
        'BAD_REQUEST',
        `the mock clock cannot move backwards (now ${new Date(current).toISOString()}); use reset to start over`,
      );
    }
    return clock.set(target);
  },
  reset: (target) => {
    target.reset();
    return null;
  },
};

/**
 * Applies one command at its real time and returns its outcome, or the refusal a slice threw. Never
 * throws an `AdminError`; any other throw is a defect and is returned the same way (the caller answers
 * 500), after which the state is what the slice left.
 *
 * @example
 * const applied = applyCommand(target, { real: Date.now(), command: { type: 'keys.revoke', keyId } });
 * if (!applied.ok) throw applied.error;
 */
export function applyCommand<C extends Command>(
  target: CommandTarget,
  entry: LoggedCommand & { readonly command: C },
  partAppliers: Partial<Appliers> = {},
): Applied<CommandOutcomes[C['type']]> {
  const command = entry.command;
  const applier = (
    Object.hasOwn(coreAppliers, command.type)
      ? coreAppliers[command.type as keyof typeof coreAppliers]
      : partAppliers[command.type]
  ) as Applier<C['type']> | undefined;
  if (applier === undefined) {
    return {
      ok: false,
      error: new AdminError('BAD_REQUEST', refusalOf(command.type)),
    };
  }
  try {
    return {
      ok: true,
      value: target.clock.pinned(entry.real, () => applier(target, command as CommandOf<C['type']>)),
    };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Why a command has no applier: a part this engine lacks, or a name this version does not know. */
function refusalOf(type: string): string {
  if (!Object.hasOwn(PART_COMMANDS, type)) return `unknown command ${JSON.stringify(type)}`;
  return PART_COMMANDS[type as PartCommand] === 'dataFiles'
    ? missingPart('Data files', 'dataFiles')
    : `${type}: the agent interface's writes are not part of this engine (cca-kit/agent needs an engine from createEngine)`;
}

/** The names of every command this version applies (a log naming another is refused whole). */
export const COMMAND_TYPES: ReadonlySet<string> = new Set([
  ...Object.keys(coreAppliers),
  ...Object.keys(PART_COMMANDS),
]);
