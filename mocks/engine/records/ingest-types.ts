/**
 * What the ingestion slice hands to the records slice: a whole action with explicit messages (and,
 * for threaded sources, the conversation). Identifiers are kept byte for byte.
 */
import type { ActionStatus, CustomerRecord, Platform } from '../../../fixtures/generate/types.ts';

export type AuthorType = 'USER' | 'AGENT' | 'BOT';

export interface IngestedMessage {
  readonly id: string;
  /** ISO 8601 timestamp (re-emitted as `toISOString()`), or epoch ms. */
  readonly timestamp: string | number;
  readonly author: string;
  readonly authorId: string | null;
  readonly authorType: AuthorType;
  readonly message: string;
  readonly mediaUrls?: readonly string[];
  /** Only read in `conversation`. */
  readonly parentMessageId?: string | null;
}

export interface IngestedActionInput {
  /** Unique within the organization; must not collide with a seeded action id. */
  readonly actionId: string;
  readonly platform: Platform;
  readonly serverId: string;
  readonly serverName: string;
  readonly channelName?: string;
  readonly recordType: string | null;
  readonly title: string;
  readonly summary: string;
  /** Default OPEN. */
  readonly status?: ActionStatus;
  readonly isPublicPost: boolean;
  /** Null for private content. */
  readonly sourceURL: string | null;
  /** ISO 8601 timestamp or epoch ms. */
  readonly createdAt: string | number;
  /** Default: the latest message time, or null when there is none after createdAt. */
  readonly updatedAt?: string | number | null;
  readonly user: CustomerRecord;
  /** Flat message list (detail `messages`, counts, the responded flag). */
  readonly messages: readonly IngestedMessage[];
  /** Threaded conversation (`parentMessageId`); the detail shows `conversation` only when given. */
  readonly conversation?: readonly IngestedMessage[];
  readonly customFields?: Readonly<Record<string, unknown>>;
  /** Default: the first message's text. */
  readonly rootMessageText?: string | null;
  readonly sentiment?: {
    readonly label: 'Very Negative' | 'Negative' | 'Neutral' | 'Positive';
    readonly score: number;
  } | null;
  /**
   * What a user-defined action (a data file, mocks/engine/data-file/) states beyond an ingested one.
   * Catalog references are ids of the organization's catalog; an unknown id counts as null.
   */
  readonly extras?: ActionExtras;
}

export interface ActionExtras {
  readonly queueId?: string | null;
  readonly initialQueueId?: string | null;
  readonly assigneeUserId?: string | null;
  readonly tagIds?: readonly string[];
  readonly closingTagIds?: readonly string[];
  /** Epoch ms. */
  readonly claimedAt?: number | null;
  readonly closedAt?: number | null;
  /** 1..5. */
  readonly csat?: number | null;
  readonly csatFeedback?: string | null;
  readonly estimatedCsat?: number | null;
  readonly moderation?: 'approved' | 'flagged' | 'hidden' | null;
  /** Figures of the agent and tag metrics the spec shows no action field for (a data file's `scores`). */
  readonly scores?: ActionScores;
  readonly comments?: readonly {
    readonly text: string;
    readonly authorNativeId: string;
    readonly authorNativeName: string | null;
  }[];
}

/**
 * An action's share of the averages of agent, queue and tag metrics that no action field carries:
 * averageResolutionQuality (1..5), averageSentimentChange (-1..1), averageRubricScore (0..100),
 * avgActionability and avgRelevance (0..1). A generated action derives them from its seed; an ingested
 * or loaded one has those its data file states, and counts in no average it leaves out.
 */
export interface ActionScores {
  readonly resolutionQuality?: number;
  readonly sentimentChange?: number;
  readonly rubricScore?: number;
  readonly actionability?: number;
  readonly relevance?: number;
}

/** The stored form: times normalised to epoch ms. */
export interface IngestedAction extends Omit<IngestedActionInput, 'createdAt' | 'updatedAt'> {
  readonly createdAtMs: number;
  readonly updatedAtMs: number | null;
}

export interface IngestOutcome {
  readonly actionId: string;
  readonly created: boolean;
}
