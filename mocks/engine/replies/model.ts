/**
 * The reply request and its lifecycle (spec section 3: "approval, queue review and delivery are
 * separate states of a reply request; their names and moves: not shown"). The names and moves chosen
 * here are also data in `contract/agent/replies.json`; a test holds the two equal.
 *
 * draft ─review_reply→ awaiting_approval ─person approves→ queued ─queue review (clock)→ delivering
 *                                      └─person rejects→ rejected          delivering ─clock→ delivered
 *                                                                          delivering ─forced→ failed | unknown
 */

export const REPLY_STATES = [
  'draft',
  'awaiting_approval',
  'rejected',
  'queued',
  'delivering',
  'delivered',
  'failed',
  'unknown',
] as const;

export type ReplyState = (typeof REPLY_STATES)[number];

/** Which of the separate steps of section 3 a state belongs to. */
export const PHASE_OF: Readonly<Record<ReplyState, 'draft' | 'approval' | 'queue_review' | 'delivery'>> = {
  draft: 'draft',
  awaiting_approval: 'approval',
  rejected: 'approval',
  queued: 'queue_review',
  delivering: 'delivery',
  delivered: 'delivery',
  failed: 'delivery',
  unknown: 'delivery',
};

export const TERMINAL_STATES: ReadonlySet<ReplyState> = new Set([
  'rejected',
  'delivered',
  'failed',
  'unknown',
]);

/** Who made a move: the agent (a tool), the person (the confirmation page), test tooling, the engine clock. */
export type Actor = 'agent' | 'person' | 'admin' | 'clock';

export interface ReplyMove {
  readonly from: ReplyState | null;
  readonly to: ReplyState;
  readonly by: readonly Actor[];
  readonly trigger: string;
}

/** Every move that can happen; nothing else does (`moveTo` refuses the rest). */
export const REPLY_MOVES: readonly ReplyMove[] = [
  { from: null, to: 'draft', by: ['agent'], trigger: 'prepare_reply' },
  { from: 'draft', to: 'awaiting_approval', by: ['agent'], trigger: 'review_reply' },
  {
    from: 'awaiting_approval',
    to: 'queued',
    by: ['person', 'admin'],
    trigger: 'Approve on the confirmation page (admin: POST /__mock/replies/{org}/{requestId}/approve)',
  },
  {
    from: 'awaiting_approval',
    to: 'rejected',
    by: ['person', 'admin'],
    trigger: 'Reject on the confirmation page (admin: POST /__mock/replies/{org}/{requestId}/reject)',
  },
  {
    from: 'queued',
    to: 'delivering',
    by: ['clock', 'admin'],
    trigger: 'queue review ends (queueReviewMs of engine time after approval, or admin advance)',
  },
  {
    from: 'delivering',
    to: 'delivered',
    by: ['clock', 'admin'],
    trigger: 'delivery ends (deliveryMs of engine time after queue review, or admin advance)',
  },
  {
    from: 'delivering',
    to: 'failed',
    by: ['clock', 'admin'],
    trigger: 'delivery ends with the outcome forced by admin: failed',
  },
  {
    from: 'delivering',
    to: 'unknown',
    by: ['clock', 'admin'],
    trigger: 'delivery ends with the outcome forced by admin: unknown',
  },
];

export function isAllowedMove(from: ReplyState | null, to: ReplyState, by: Actor): boolean {
  return REPLY_MOVES.some((m) => m.from === from && m.to === to && m.by.includes(by));
}

/** Engine-time delays of the clock-driven steps (documented in docs/agent-replies.md). */
export const QUEUE_REVIEW_MS = 1000;
export const DELIVERY_MS = 2000;

/** Longest reply text, in Unicode code points (JSON Schema `maxLength` counts the same way). */
export const MAX_TEXT_CODE_POINTS = 4000;
/** Longest actionId and serverId accepted. */
export const MAX_ID_LENGTH = 256;
/** Reply requests kept per organization; beyond, prepare_reply refuses (reset the mock). */
export const MAX_REQUESTS_PER_ORGANIZATION = 10_000;

/** What a delivery ends with; the admin API can force `failed` or `unknown` (or `delivered` back). */
export type DeliveryOutcome = 'delivered' | 'failed' | 'unknown';

/** Where the reply will be posted, fixed when the draft is prepared. */
export interface ReplyDestination {
  readonly platform: string;
  readonly serverName: string;
  readonly channelName: string;
  /** The `serverId` given to prepare_reply, or null (the action's own account). */
  readonly serverId: string | null;
  readonly visibility: 'public' | 'private';
  readonly sourceURL: string | null;
}

export interface ReplyHistoryEntry {
  readonly from: ReplyState | null;
  readonly to: ReplyState;
  /** Epoch ms on the engine clock. */
  readonly at: number;
  readonly by: Actor;
}

/** The input of prepare_reply exactly as given: what "the same input" compares. */
export interface PreparedInput {
  readonly actionId: string;
  readonly text: string;
  readonly serverId: string | null;
  readonly isPublicReply: boolean | null;
}

export interface ReplyRequest {
  readonly organizationId: string;
  readonly requestId: string;
  readonly input: PreparedInput;
  readonly destination: ReplyDestination;
  readonly actionTitle: string;
  readonly customer: { readonly name: string; readonly username: string };
  /** The key that prepared it (its name, never its value); the delivered message's author. */
  readonly preparedBy: string;
  state: ReplyState;
  /** When the clock moves it on (queued, delivering); null otherwise. */
  nextAt: number | null;
  /** The outcome the delivery step ends with. */
  plannedOutcome: DeliveryOutcome;
  /** The confirmation link's token, issued by the first review_reply. */
  approvalToken: string | null;
  /** The id of the AGENT message once delivered. */
  messageId: string | null;
  readonly history: ReplyHistoryEntry[];
}

/** What a new reply request is made of, besides the action it answers. */
export interface DraftReplyOptions {
  readonly organizationId: string;
  readonly requestId: string;
  readonly input: PreparedInput;
  readonly preparedBy: string;
  readonly plannedOutcome: DeliveryOutcome;
  /** Engine time of its creation (the history's first entry). */
  readonly at: number;
}

/**
 * A new reply request in `draft`, its destination and customer copied from the action it answers (a
 * REST action record): what prepare_reply creates and what a data file's request starts from.
 */
export function draftReplyRequest(
  action: Readonly<Record<string, unknown>>,
  options: DraftReplyOptions,
): ReplyRequest {
  const { input } = options;
  const user = (action['user'] ?? {}) as { readonly name?: unknown; readonly username?: unknown };
  return {
    organizationId: options.organizationId,
    requestId: options.requestId,
    input,
    destination: {
      platform: String(action['platform']),
      serverName: String(action['serverName']),
      channelName: String(action['channelName']),
      serverId: input.serverId,
      visibility: (input.isPublicReply ?? action['isPublicPost'] === true) ? 'public' : 'private',
      sourceURL: typeof action['sourceURL'] === 'string' ? action['sourceURL'] : null,
    },
    actionTitle: String(action['actionTitle']),
    customer: { name: String(user.name ?? ''), username: String(user.username ?? '') },
    preparedBy: options.preparedBy,
    state: 'draft',
    nextAt: null,
    plannedOutcome: options.plannedOutcome,
    approvalToken: null,
    messageId: null,
    history: [{ from: null, to: 'draft', at: options.at, by: 'agent' }],
  };
}
