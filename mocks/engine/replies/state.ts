/**
 * The replies slice of the engine state: reply requests per organization (a requestId is an
 * organization's own), the confirmation tokens, and the counters tokens are derived from. A new one
 * is built by `admin.reset()` with the rest of the state.
 */
import type { ReplyRequest } from './model.ts';
import { Signer } from './tokens.ts';

export interface RepliesState {
  /** organizationId → requestId → request. */
  readonly byOrganization: Map<string, Map<string, ReplyRequest>>;
  /** Confirmation token → its request. */
  readonly byToken: Map<string, ReplyRequest>;
  /** Requests the clock still moves on (queued, delivering). */
  readonly inFlight: Set<ReplyRequest>;
  /**
   * Requests loaded from a data file awaiting approval without a link yet (see `./links.ts`): an index
   * of where to look; a request leaves it when a `reply.review` command gives it its link.
   */
  readonly linkless: Set<ReplyRequest>;
  readonly signer: Signer;
  /** Links issued so far: the serial of the next token. */
  tokensIssued: number;
  /** Confirmation page views rendered so far: the serial of the next CSRF token. */
  pageViews: number;
}

export interface RepliesStateOptions {
  readonly seed: number | string;
  /** Mixed into the secret when set, so links stay unguessable to someone who knows the seed. */
  readonly adminToken: string | null;
}

/**
 * @example
 * const replies = createRepliesState({ seed: 42, adminToken: null });
 */
export function createRepliesState(options: RepliesStateOptions): RepliesState {
  const secret = `cca-kit replies|seed=${String(options.seed)}|admin=${options.adminToken ?? ''}`;
  return {
    byOrganization: new Map(),
    byToken: new Map(),
    inFlight: new Set(),
    linkless: new Set(),
    signer: new Signer(secret),
    tokensIssued: 0,
    pageViews: 0,
  };
}

/** The organization's requests (created on first use). */
export function requestsOf(state: RepliesState, organizationId: string): Map<string, ReplyRequest> {
  let requests = state.byOrganization.get(organizationId);
  if (requests === undefined) {
    requests = new Map();
    state.byOrganization.set(organizationId, requests);
  }
  return requests;
}
