/**
 * The data file format (contract/data.schema.json): what a user states to put their own data in the
 * mock, and what `GET /__mock/data` exports. Identifiers are strings kept byte for byte; timestamps
 * are ISO 8601 or relative to the anchor (`"-2d"`, `"-90m"`, `"now"`; see ./time.ts).
 */

import type { ActionScores } from '../records/ingest-types.ts';
import type { DeliveryOutcome, ReplyState } from '../replies/model.ts';

/** ISO 8601 with a zone designator, or an offset from the anchor such as `-2d`, `-1d12h`, `+30m`, `now`. */
export type Timestamp = string;

/**
 * A key, by value (`key`) or by the SHA-256 of its value (`keyHash`, `sha256:` and 64 hex digits),
 * exactly one. Loading hashes a value at once; the engine and its exports hold only the hash.
 */
export type DataFileKey = DataFileKeyFields &
  ({ readonly key: string; readonly keyHash?: never } | { readonly keyHash: string; readonly key?: never });

interface DataFileKeyFields {
  readonly organizationId: string;
  readonly name?: string;
  readonly profile: 'reporting' | 'write' | 'read_write' | 'import';
  /** Default `active`. `expired` without `expiresAt` expires a day before the anchor. */
  readonly status?: 'active' | 'expired' | 'revoked';
  /** Null: never expires. Default `+90d`. */
  readonly expiresAt?: Timestamp | null;
}

export interface DataFileAgent {
  readonly userId: string;
  readonly name: string;
  readonly email: string;
  readonly role: string;
}

export interface DataFileQueue {
  readonly id: string;
  readonly name: string;
}

export interface DataFileTag {
  readonly id: string;
  readonly value: string;
  /** A name listed in the organization's `tagGroups`. */
  readonly group: string;
}

export interface DataFileCustomField {
  readonly name: string;
  readonly displayName: string;
  readonly type: 'text' | 'number' | 'boolean' | 'single_select' | 'date' | 'json';
  readonly options?: readonly string[];
}

export interface DataFileOrganization {
  readonly id: string;
  readonly name?: string;
  /** Default `standard`. */
  readonly moderationMode?: 'ad_policy' | 'standard';
  readonly agents?: readonly DataFileAgent[];
  readonly queues?: readonly DataFileQueue[];
  readonly tagGroups?: readonly string[];
  readonly tags?: readonly DataFileTag[];
  readonly closingTags?: readonly DataFileTag[];
  readonly customFields?: readonly DataFileCustomField[];
}

export interface DataFileMessage {
  readonly id: string;
  readonly timestamp: Timestamp;
  readonly author: string;
  readonly authorId?: string | null;
  readonly authorType: 'USER' | 'AGENT' | 'BOT';
  readonly message: string;
  readonly mediaUrls?: readonly string[];
  /** Read only in `conversation`. */
  readonly parentMessageId?: string | null;
}

export interface DataFileComment {
  readonly text: string;
  readonly authorNativeId: string;
  readonly authorNativeName: string | null;
}

export interface DataFileUser {
  readonly userId: string;
  readonly name: string;
  readonly username: string;
  readonly email?: string | null;
  readonly followerCount?: number | null;
}

/** An action's `scores` (see `ActionScores`): each figure optional. */
export type DataFileScores = ActionScores;

export type SentimentLabel = 'Very Negative' | 'Negative' | 'Neutral' | 'Positive';

export interface DataFileAction {
  readonly organizationId: string;
  readonly actionId: string;
  readonly title: string;
  readonly summary?: string;
  /** Default OPEN. */
  readonly status?: 'OPEN' | 'PENDING' | 'ESCALATED' | 'CLOSED' | 'CANCELLED';
  readonly platform: string;
  readonly recordType?: string | null;
  readonly isPublicPost?: boolean;
  readonly sourceURL?: string | null;
  readonly serverId?: string;
  readonly serverName?: string;
  readonly channelName?: string;
  /** Queue ids of the organization. */
  readonly queue?: string | null;
  readonly initialQueue?: string | null;
  /** An agent userId of the organization. */
  readonly assignee?: string | null;
  readonly sentiment?: SentimentLabel | null;
  readonly sentimentScore?: number | null;
  readonly moderation?: 'approved' | 'flagged' | 'hidden' | null;
  readonly user: DataFileUser;
  readonly createdAt: Timestamp;
  readonly updatedAt?: Timestamp | null;
  readonly claimTime?: Timestamp | null;
  readonly closeTime?: Timestamp | null;
  readonly csatScore?: '1' | '2' | '3' | '4' | '5' | null;
  readonly csatFeedback?: string | null;
  readonly estimatedCSAT?: number | null;
  /**
   * The action's share of the averages no action field carries (agent and queue metrics'
   * averageResolutionQuality, averageSentimentChange, averageRubricScore; tag analytics' avgActionability,
   * avgRelevance). The export writes them, so a reloaded export keeps those averages; an action without
   * one counts in no average of it.
   */
  readonly scores?: DataFileScores;
  /** Tag ids of the organization. */
  readonly tags?: readonly string[];
  readonly closingTags?: readonly string[];
  readonly customFields?: Readonly<Record<string, unknown>>;
  readonly messages?: readonly DataFileMessage[];
  readonly conversation?: readonly DataFileMessage[];
  readonly comments?: readonly DataFileComment[];
  readonly rootMessageText?: string | null;
}

export type DataFileModerationCase = {
  readonly organizationId: string;
  readonly caseId: string;
  /** The submission body (spec 2.7); its `externalId` is the case's. */
  readonly submission: Readonly<Record<string, unknown>>;
  readonly acceptedAt?: Timestamp;
  readonly evaluationId?: string;
} & (
  | { readonly analysisStatus: 'pending' | 'running' }
  | { readonly analysisStatus: 'completed'; readonly decision: Readonly<Record<string, unknown>> }
  | { readonly analysisStatus: 'failed'; readonly failureCode: string }
);

/**
 * A reply request of the agent interface (spec 4.18, `mocks/engine/replies/`) in any state. The moves
 * that lead to `state` are recorded in its history: every one at `createdAt` but the last, at
 * `updatedAt`. A `delivered` request adds its text as an AGENT message of the action at `updatedAt`,
 * exactly as a live delivery does. A `queued` or `delivering` one moves on with the clock from
 * `updatedAt` (queue review 1 s, delivery 2 s of engine time). An `awaiting_approval` one gets its
 * confirmation link when review_reply is called for it (tokens are issued asynchronously).
 */
export interface DataFileReplyRequest {
  readonly organizationId: string;
  /** A UUID (as prepare_reply takes it), unique in its organization. */
  readonly requestId: string;
  /** An action of the organization (in this file or the state it is merged into). */
  readonly actionId: string;
  readonly text: string;
  readonly state: ReplyState;
  /** As given to prepare_reply: null (default) posts to the action's own account. */
  readonly serverId?: string | null;
  /** As given to prepare_reply: null (default) replies as public as the action is. */
  readonly isPublicReply?: boolean | null;
  /** The name of the key that prepared it; the delivered message's author. Default `data file`. */
  readonly preparedBy?: string;
  /** Default `updatedAt`, else `now`. */
  readonly createdAt?: Timestamp;
  /** The time of the last move; default `createdAt`. */
  readonly updatedAt?: Timestamp;
  /** What a request not yet settled ends its delivery with. Default `delivered`. */
  readonly plannedOutcome?: DeliveryOutcome;
}

/** A batch of the ingestion endpoint (spec 4.17) with the organization it was sent for. */
export interface DataFileIngestionBatch {
  readonly organizationId: string;
  readonly platform: string;
  readonly serverId: string;
  readonly serverName: string;
  readonly channelId?: string;
  readonly channelName?: string;
  readonly processingLevel?: 'INSIGHTS' | 'STATS_ONLY';
  readonly source?: { readonly system: string; readonly sourceId?: string };
  readonly records: readonly Readonly<Record<string, unknown>>[];
}

export interface DataFile {
  readonly $schema?: string;
  readonly version: 1;
  readonly organizations: readonly DataFileOrganization[];
  readonly keys?: readonly DataFileKey[];
  readonly actions?: readonly DataFileAction[];
  readonly moderationCases?: readonly DataFileModerationCase[];
  readonly ingestionBatches?: readonly DataFileIngestionBatch[];
  readonly replyRequests?: readonly DataFileReplyRequest[];
  /** Free-form notes, e.g. what an import could not derive. Never read by the mock. */
  readonly notes?: readonly string[];
}

/** One thing wrong with a data file, located by JSON pointer. */
export interface DataProblem {
  readonly pointer: string;
  readonly message: string;
}

/** What replacing or merging a data file gives: its size when applied, or its problems (nothing changed). */
export type DataLoadOutcome =
  | { readonly ok: true; readonly organizations: number; readonly actions: number }
  | { readonly ok: false; readonly problems: readonly DataProblem[] };
