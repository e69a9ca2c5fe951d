/**
 * The confirmation page's HTML: one self-contained document, no scripts, no external assets, every
 * text escaped (the reply text, titles and names are untrusted). The style is inline and allowed by
 * its hash in the Content-Security-Policy; nothing else may load or run.
 */
import type { ReplyRequest, ReplyState } from '../../engine/replies/index.ts';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:44rem;margin:2rem auto;background:#fff;border:1px solid #d6dae1;border-radius:8px;padding:1.5rem 2rem}
h1{font-size:1.4rem;margin:0 0 .5rem}h2{font-size:1.05rem;margin:1.25rem 0 .5rem}
.note{color:#4a5363;margin:0 0 1rem}dl{display:grid;grid-template-columns:11rem 1fr;gap:.35rem 1rem;margin:0}
dt{font-weight:600;color:#4a5363}dd{margin:0;overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f7f8fa;border:1px solid #d6dae1;border-radius:6px;padding:.75rem 1rem;font:15px/1.5 ui-monospace,monospace;margin:0}
form{display:flex;gap:.75rem;margin-top:1.5rem}button{font:inherit;padding:.55rem 1.2rem;border-radius:6px;border:1px solid #8a93a3;background:#fff;cursor:pointer}
button.approve{background:#1f6f43;border-color:#1f6f43;color:#fff}.status{margin-top:1.25rem;font-weight:600}
.mock{margin-top:1.5rem;font-size:.85rem;color:#6b7383}`;

let styleHash: Promise<string> | undefined;

/** `'sha256-…'` of the inline style, computed once. */
function styleSource(): Promise<string> {
  styleHash ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(STYLE)).then((digest) => {
    let binary = '';
    for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
    return `'sha256-${btoa(binary)}'`;
  });
  return styleHash;
}

/** The Content-Security-Policy of every page: nothing loads or runs; forms post only to this origin. */
export async function contentSecurityPolicy(): Promise<string> {
  return `default-src 'none'; style-src ${await styleSource()}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
}

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
<p class="mock">cca-kit mock of the Customer-Conversation Analytics Service: this page stands for the service's confirmation step.</p>
</main>
</body>
</html>
`;
}

const STATE_TEXT: Readonly<Record<ReplyState, string>> = {
  draft: 'Draft: the agent has not asked for approval yet.',
  awaiting_approval: 'Awaiting your approval. Nothing has been sent.',
  rejected: 'Rejected. This reply will not be sent.',
  queued: 'Approved. The reply is queued for review before delivery.',
  delivering: 'Approved. The reply is being delivered.',
  delivered: 'Delivered. The reply was posted.',
  failed: 'Delivery failed. The reply was not posted, and will not be retried.',
  unknown: 'Delivery outcome unknown. It will not be retried automatically.',
};

function details(request: ReplyRequest): string {
  const d = request.destination;
  const where = `${d.serverName}${d.channelName === '' ? '' : ` / ${d.channelName}`}${d.serverId === null ? '' : ` (server ${d.serverId})`}`;
  const rows: readonly (readonly [string, string, string])[] = [
    ['action-title', 'Action', request.actionTitle],
    ['action-id', 'Action id', request.input.actionId],
    ['customer', 'Customer', `${request.customer.name} (@${request.customer.username})`],
    ['platform', 'Posted on', d.platform],
    ['where', 'Account / channel', where],
    ['visibility', 'Visibility', d.visibility === 'public' ? 'Public reply' : 'Private reply'],
    ['prepared-by', 'Prepared by', request.preparedBy],
    ['request-id', 'Request', request.requestId],
  ];
  const list = rows
    .map(([id, label, value]) => `<dt>${label}</dt><dd id="${id}">${escapeHtml(value)}</dd>`)
    .join('\n');
  return `<dl>
${list}
</dl>
<h2>Exact text</h2>
<pre id="reply-text">${escapeHtml(request.input.text)}</pre>`;
}

const status = (state: ReplyState): string =>
  `<p class="status" id="status" data-state="${state}">${escapeHtml(STATE_TEXT[state])}</p>`;

/** The page a person decides on (awaiting approval), with the form and its CSRF token. */
export function decisionPage(request: ReplyRequest, action: string, csrf: string): string {
  return document(
    'Approve a reply',
    `<h1>Approve this reply?</h1>
<p class="note">An agent prepared this reply to a customer. Nothing is sent unless you approve it here.</p>
${details(request)}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<button class="approve" type="submit" name="decision" value="approve" id="approve">Approve and send</button>
<button type="submit" name="decision" value="reject" id="reject">Reject</button>
</form>
${status(request.state)}`,
  );
}

/** The request as it stands (after a decision, or opened again later): no form. */
export function statusPage(request: ReplyRequest, heading: string): string {
  return document(heading, `<h1>${escapeHtml(heading)}</h1>\n${details(request)}\n${status(request.state)}`);
}

/** A refusal: what is wrong and what to do, nothing about any request. */
export function errorPage(heading: string, message: string): string {
  return document(
    heading,
    `<h1>${escapeHtml(heading)}</h1>\n<p class="status" id="error">${escapeHtml(message)}</p>`,
  );
}
