/**
 * What prepare_reply and open_reply answer about a request (the `ReplyRequest` schema of
 * `contract/agent/replies.json`): its state, the exact text, where it will be posted, the link a person
 * confirms on, the delivery outcome and every move with its time.
 */
import {
  type DeliveryOutcome,
  PHASE_OF,
  type ReplyDestination,
  type ReplyRequest,
  type ReplyState,
  TERMINAL_STATES,
} from './model.ts';

/** Where the confirmation page is served on the mock's origin; the token follows. */
export const REPLY_PAGE_PREFIX = '/agent/replies/';

/** The confirmation link on `origin`, or null without an origin (in process). */
export const approvalUrlOf = (origin: string | null, token: string): string | null =>
  origin === null ? null : `${origin.replace(/\/+$/, '')}${REPLY_PAGE_PREFIX}${token}`;

export interface ReplyView {
  readonly requestId: string;
  readonly actionId: string;
  readonly state: ReplyState;
  readonly phase: (typeof PHASE_OF)[ReplyState];
  readonly terminal: boolean;
  readonly text: string;
  readonly actionTitle: string;
  readonly customer: { readonly name: string; readonly username: string };
  readonly destination: ReplyDestination;
  readonly preparedBy: string;
  /** The confirmation link while the request awaits approval; null otherwise or without an origin. */
  readonly approvalUrl: string | null;
  readonly delivery: {
    readonly outcome: DeliveryOutcome | null;
    readonly messageId: string | null;
    /** Set when the outcome is unknown: read this request again, never send the reply again. */
    readonly failure: UnknownDeliveryFailure | null;
  };
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly history: readonly {
    readonly from: ReplyState | null;
    readonly to: ReplyState;
    readonly at: string;
    readonly by: string;
  }[];
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The agent interface's `unknown_delivery_state` failure (one member of its `AgentFailure` union). */
export interface UnknownDeliveryFailure {
  readonly kind: 'unknown_delivery_state';
  readonly code: 'UNKNOWN_DELIVERY_STATE';
  readonly requestId: string;
  readonly message: string;
}

export function unknownDeliveryFailure(requestId: string): UnknownDeliveryFailure {
  return {
    kind: 'unknown_delivery_state',
    code: 'UNKNOWN_DELIVERY_STATE',
    requestId,
    message: `Delivery of reply request ${requestId} has an unknown outcome: it may or may not have been posted. Read it with open_reply; do not send it again.`,
  };
}

export function viewOf(request: ReplyRequest, origin: string | null): ReplyView {
  const outcome: DeliveryOutcome | null =
    request.state === 'delivered' || request.state === 'failed' || request.state === 'unknown'
      ? request.state
      : null;
  const first = request.history[0];
  const last = request.history[request.history.length - 1];
  return {
    requestId: request.requestId,
    actionId: request.input.actionId,
    state: request.state,
    phase: PHASE_OF[request.state],
    terminal: TERMINAL_STATES.has(request.state),
    text: request.input.text,
    actionTitle: request.actionTitle,
    customer: request.customer,
    destination: request.destination,
    preparedBy: request.preparedBy,
    approvalUrl:
      request.state === 'awaiting_approval' && request.approvalToken !== null
        ? approvalUrlOf(origin, request.approvalToken)
        : null,
    delivery: {
      outcome,
      messageId: request.messageId,
      failure: request.state === 'unknown' ? unknownDeliveryFailure(request.requestId) : null,
    },
    createdAt: iso(first?.at ?? 0),
    updatedAt: iso(last?.at ?? 0),
    history: request.history.map((h) => ({ from: h.from, to: h.to, at: iso(h.at), by: h.by })),
  };
}
