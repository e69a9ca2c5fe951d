/**
 * Writes as commands: every change of the engine state is one of these plain-data values, applied by
 * `applyCommand` (`./apply.ts`) and nothing else. Handlers and admin routes turn a request into a
 * command and the outcome into an answer, so the same log of commands can be kept in a file, shared
 * by replicas through Redis and replayed at start (`mocks/engine/store/`).
 *
 * A command holds only JSON values: it is written to a log as it is.
 */
import type { CreatedKey, CreateKeyInput } from '../auth/index.ts';
import type { DataLoadOutcome } from '../data-file/types.ts';
import type { IngestionBatchInput, IngestReceipt } from '../ingestion/intake.ts';
import type { BatchResult } from '../moderation/batch.ts';
import type { ModerationCaseStatus, PolicyWorkflow, SubmissionOutcome } from '../moderation/types.ts';
import type { WriteOutcome } from '../records/custom-fields.ts';
import type { KeyRecord, Organization } from '../types.ts';
import type { ReplyCommand, ReplyOutcomes } from './replies.ts';
import type { SavedSearchCommand, SavedSearchOutcomes } from './saved-searches.ts';

export type Command =
  | {
      readonly type: 'customFields.update';
      readonly organizationId: string;
      readonly actionId: string;
      /** The request's `fields`, checked when applied (422 `fieldErrors` is an outcome). */
      readonly fields: unknown;
      readonly keyName: string;
    }
  | { readonly type: 'moderation.submit'; readonly organizationId: string; readonly submission: unknown }
  | {
      readonly type: 'moderation.submitBatch';
      readonly organizationId: string;
      readonly cases: readonly unknown[];
    }
  | { readonly type: 'moderation.step'; readonly caseId: string }
  | {
      readonly type: 'moderation.policy.activate';
      readonly organizationId: string;
      readonly policyId?: string;
    }
  | { readonly type: 'moderation.policy.deactivate'; readonly organizationId: string }
  | { readonly type: 'ingestion.batch'; readonly organizationId: string; readonly batch: IngestionBatchInput }
  | { readonly type: 'keys.create'; readonly input: CreateKeyInput }
  /** By the key's id (`keyIdOf`), never its value: a log or a backup must not hold keys. */
  | { readonly type: 'keys.revoke'; readonly keyId: string }
  | { readonly type: 'organization.moderationMode'; readonly organizationId: string; readonly mode: unknown }
  | { readonly type: 'clock.advance'; readonly ms: unknown }
  | { readonly type: 'clock.set'; readonly now: unknown }
  | { readonly type: 'data.merge'; readonly file: unknown }
  | { readonly type: 'data.replace'; readonly file: unknown }
  | { readonly type: 'reset' }
  | ReplyCommand
  | SavedSearchCommand;

export type CommandType = Command['type'];
export type CommandOf<T extends CommandType> = Extract<Command, { readonly type: T }>;

/** The commands of the agent-writes part (`../parts.ts`). */
export type AgentCommand = Extract<CommandType, `reply.${string}` | `savedSearch.${string}`>;

/** What applying each kind of command returns (a refusal thrown by a slice is `Applied.ok === false`). */
export interface CommandOutcomes extends ReplyOutcomes, SavedSearchOutcomes {
  'customFields.update': WriteOutcome | { readonly ok: false; readonly notFound: true };
  'moderation.submit': SubmissionOutcome;
  'moderation.submitBatch': readonly BatchResult[];
  'moderation.step': ModerationCaseStatus;
  'moderation.policy.activate': PolicyWorkflow;
  'moderation.policy.deactivate': null;
  'ingestion.batch': IngestReceipt;
  'keys.create': CreatedKey;
  'keys.revoke': KeyRecord;
  'organization.moderationMode': Organization;
  'clock.advance': number;
  'clock.set': number;
  'data.merge': DataLoadOutcome;
  'data.replace': DataLoadOutcome;
  reset: null;
}

export type OutcomeOf<C extends Command> = CommandOutcomes[C['type']];

/**
 * The result of applying a command: its outcome, or the error a slice threw to refuse it (an
 * `AdminError` for an unknown key or organization). A refused command changed nothing.
 */
export type Applied<T = unknown> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown };

/** A command as a log keeps it: with the real time it was issued at, so every replay reads the same clock. */
export interface LoggedCommand {
  /** Real time (epoch ms) the command was issued at; the clock is pinned there while it applies. */
  readonly real: number;
  readonly command: Command;
  /** Who issued it (replica id and a counter): lets the issuer find its own outcome in a shared log. */
  readonly origin?: string;
}
