/**
 * The confirmation page on the mock's origin (spec 4.18 rule 4: "if review_reply returns a link, the
 * human confirms there"), at `/agent/replies/{token}`:
 *
 * - `GET` shows the action, the customer, the exact text and where it will be posted, with Approve and
 *   Reject. A GET never decides anything (link previewers and prefetchers must not send replies).
 * - `POST` (the page's form, `application/x-www-form-urlencoded`: `csrf`, `decision`) approves or rejects.
 *   The CSRF token is bound to the request, its link and the page view; a cross-site post is refused.
 *   A decision taken answers 303 back to the link (Post/Redirect/Get), so reloading the page after
 *   deciding shows the request as it stands instead of sending the form again.
 *
 * Refusals are pages too: an unknown or tampered token 404, a bad CSRF token or a cross-site post 403,
 * a decision on a request that is no longer awaiting approval (a replayed post) 409, a bad decision
 * 400, another content type 415, a body over 8 KiB 413, another method 405.
 */
import { constantTimeEqual } from '../../engine/auth/constant-time.ts';
import type { Engine } from '../../engine/engine.ts';
import type { ReplyRequest, ReplyState } from '../../engine/replies/index.ts';
import {
  csrfToken,
  csrfValid,
  REPLY_PAGE_PREFIX,
  settleReplies,
  TOKEN_PATTERN,
} from '../../engine/replies/index.ts';
import type { AgentPageHandler } from '../types.ts';
import { contentSecurityPolicy, decisionPage, errorPage, statusPage } from './html.ts';

/** Largest form body read. */
export const MAX_FORM_BYTES = 8 * 1024;

async function page(status: number, html: string, headOnly = false, extra: Record<string, string> = {}) {
  return new Response(headOnly ? null : html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': await contentSecurityPolicy(),
      'cache-control': 'no-store',
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      ...extra,
    },
  });
}

const NOT_A_LINK = errorPage(
  'This confirmation link is not valid',
  'The link is unknown, mistyped or altered. Open the exact link the agent gave you; nothing was approved.',
);

/** Reads at most `limit` bytes of the body as text; null when it is longer. */
async function boundedText(request: Request, limit: number): Promise<string | null> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const joined = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(joined);
}

function requestOfToken(engine: Engine, token: string): ReplyRequest | undefined {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const request = engine.state.replies.byToken.get(token);
  if (request === undefined || request.approvalToken === null) return undefined;
  return constantTimeEqual(request.approvalToken, token) ? request : undefined;
}

/**
 * A post from another site (the browser says so), or from an origin other than this page's. An opaque
 * `Origin: null` (privacy settings, a sandboxed frame) proves nothing either way: the CSRF token decides.
 * The token in the link never leaves the origin: the referrer policy is `same-origin`.
 */
function crossSite(request: Request, url: URL): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = request.headers.get('origin');
  if (origin === null || origin === 'null') return false;
  const host = request.headers.get('host');
  return origin !== url.origin && (host === null || origin !== `${url.protocol}//${host}`);
}

/** What the page says of a request decided already, by its state (the status line below tells the rest). */
const HEADING_OF: Partial<Record<ReplyState, string>> = {
  rejected: 'Reply rejected',
  queued: 'Reply approved',
  delivering: 'Reply approved',
  delivered: 'Reply approved',
};

async function show(
  engine: Engine,
  request: ReplyRequest,
  token: string,
  headOnly: boolean,
): Promise<Response> {
  if (request.state !== 'awaiting_approval')
    return page(200, statusPage(request, HEADING_OF[request.state] ?? 'Reply request'), headOnly);
  const replies = engine.state.replies;
  const view = ++replies.pageViews;
  const csrf = await csrfToken(replies.signer, view, request.organizationId, request.requestId, token);
  return page(200, decisionPage(request, `${REPLY_PAGE_PREFIX}${token}`, csrf), headOnly);
}

async function post(engine: Engine, http: Request, url: URL, request: ReplyRequest, token: string) {
  const type = (http.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return page(
      415,
      errorPage('Unsupported form', 'Decide with the Approve or Reject button of the confirmation page.'),
    );
  }
  if (crossSite(http, url)) {
    return page(
      403,
      errorPage(
        'Refused',
        'This decision was not sent from the confirmation page itself; nothing was approved.',
      ),
    );
  }
  const text = await boundedText(http, MAX_FORM_BYTES);
  if (text === null)
    return page(413, errorPage('Form too large', `The form is limited to ${MAX_FORM_BYTES} bytes.`));
  const form = new URLSearchParams(text);
  const decision = form.get('decision');
  if (decision !== 'approve' && decision !== 'reject') {
    return page(400, errorPage('No decision', 'Choose Approve or Reject on the confirmation page.'));
  }
  const replies = engine.state.replies;
  const csrf = form.get('csrf') ?? '';
  if (!(await csrfValid(replies.signer, csrf, request.organizationId, request.requestId, token))) {
    return page(
      403,
      errorPage(
        'This form is not valid for this reply',
        'The form token is missing, altered or belongs to another reply. Open the link again and decide there; nothing was approved.',
      ),
    );
  }
  // The decision is the engine's `reply.decide` command: the first one in the log wins on every replica.
  const decided = await engine.execute({
    type: 'reply.decide',
    organizationId: request.organizationId,
    requestId: request.requestId,
    decision,
  });
  if (!decided.decided) {
    return page(409, statusPage(decided.request ?? request, 'This reply was decided already'));
  }
  const heading = decision === 'approve' ? 'Reply approved' : 'Reply rejected';
  return page(303, statusPage(request, heading), false, { location: `${REPLY_PAGE_PREFIX}${token}` });
}

/**
 * Serves `/agent/replies/{token}`; null for any other path.
 *
 * @example
 * const response = await replyPages(new Request(approvalUrl), engine); // the page, never a decision
 */
export const replyPages: AgentPageHandler = async (http, engine) => {
  const url = new URL(http.url);
  if (!url.pathname.startsWith(REPLY_PAGE_PREFIX)) return null;
  const token = url.pathname.slice(REPLY_PAGE_PREFIX.length);
  const method = http.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    return page(405, errorPage('Method not allowed', 'Open the link, then use its buttons.'), false, {
      allow: 'GET, HEAD, POST',
    });
  }
  settleReplies(engine.state.replies, engine.state.data, engine.clock.now());
  const request = requestOfToken(engine, token);
  if (request === undefined) return page(404, NOT_A_LINK, method === 'HEAD');
  if (method === 'POST') return post(engine, http, url, request, token);
  return show(engine, request, token, method === 'HEAD');
};
