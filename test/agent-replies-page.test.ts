/**
 * The confirmation page over real HTTP (a loopback server that serves `replyPages` and hands every
 * other path to the engine): what a person sees, escaped; a GET never approves; approval is a POST of
 * the page's form with its CSRF token; tampered, reused and wrong-request tokens are refused with a
 * clear page and a 4xx; strict CSP and no external assets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FORM_BYTES, replyTools } from '../mocks/agent/replies/index.ts';
import {
  failureOf,
  ORG,
  type ReplyHarness,
  replyHarness,
  successOf,
  uuidOf,
} from './support/reply-harness.ts';
import { type PageServer, startPageServer } from './support/reply-page-server.ts';

let h: ReplyHarness;
let server: PageServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  expect(h.engine.unexpectedErrors).toEqual([]);
});

async function setUp() {
  h = replyHarness();
  server = await startPageServer(h.engine);
  return server.url;
}

/** Prepares and reviews a reply through the tools; the approval link is on the page server's origin. */
async function linkFor(n: number, text = 'Thanks, it is fixed now.', actionIndex = 0): Promise<string> {
  const actionId = h.unresponded()[actionIndex] ?? '';
  successOf(await h.call('prepare_reply', { actionId, text, requestId: uuidOf(n) }));
  const review = replyTools.find((t) => t.name === 'review_reply');
  if (review === undefined) throw new Error('no review_reply tool');
  const failure = failureOf(
    await review.handle(h.context(ORG, server?.url ?? null), { requestId: uuidOf(n) }),
  );
  return String(failure['approvalUrl']);
}

const stateOf = async (n: number) =>
  String(successOf(await h.call('open_reply', { requestId: uuidOf(n) }))['state']);

const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

const postForm = (link: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

describe('the confirmation page', () => {
  it('AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS: GET (as previewers and prefetchers send it) shows the reply and never approves', async () => {
    await setUp();
    const link = await linkFor(1);
    expect(link.startsWith(`${server?.url}/agent/replies/`)).toBe(true);
    for (const headers of [{}, { purpose: 'prefetch' }, { 'user-agent': 'Slackbot-LinkExpanding 1.0' }]) {
      const page = await fetch(link, { headers });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      await page.text();
    }
    expect((await fetch(link, { method: 'HEAD' })).status).toBe(200);
    expect(await stateOf(1)).toBe('awaiting_approval');
    h.engine.clock.advance(60_000);
    expect(await stateOf(1)).toBe('awaiting_approval');
  });

  it('shows the action, the customer, the exact text and where it will be posted; strict CSP, nothing external', async () => {
    await setUp();
    const link = await linkFor(2, 'Line one\n  Line two, exactly.');
    const actionId = h.unresponded()[0] ?? '';
    const answer = await h.rest(`/v0/action/${encodeURIComponent(actionId)}`);
    const detail = (answer.body['data'] ?? answer.body) as Record<string, unknown>;
    const page = await fetch(link);
    const html = await page.text();
    const user = detail['user'] as { name: string; username: string };
    const esc = (s: string) =>
      s
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;');
    expect(html).toContain(`<dd id="action-title">${esc(String(detail['actionTitle']))}</dd>`);
    expect(html).toContain(`<dd id="customer">${esc(`${user.name} (@${user.username})`)}</dd>`);
    expect(html).toContain(`<pre id="reply-text">Line one\n  Line two, exactly.</pre>`);
    expect(html).toContain(`<dd id="platform">${esc(String(detail['platform']))}</dd>`);
    expect(html).toContain(esc(String(detail['serverName'])));
    expect(html).toMatch(/<dd id="visibility">(Public|Private) reply<\/dd>/);
    expect(html).toContain('id="approve"');
    expect(html).toContain('id="reject"');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|https?:\/\/(?!127\.0\.0\.1)/i);
  });

  it('escapes the untrusted reply text (XSS): markup in it is shown, never parsed', async () => {
    await setUp();
    const attack = `</pre><script>alert(1)</script><img src=x onerror="alert(2)"> ' " & </textarea>`;
    const html = await (await fetch(await linkFor(3, attack))).text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain(
      '&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt; &#39; &quot; &amp; &lt;/textarea&gt;',
    );
  });

  it('approval is a POST of the page’s form with its CSRF token; a replayed POST is refused with 409', async () => {
    await setUp();
    const link = await linkFor(4);
    const csrf = csrfOf(await (await fetch(link)).text());
    expect(csrf).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    const approved = await postForm(link, { csrf, decision: 'approve' });
    // Post/Redirect/Get: back to the link, so a reload reads the page instead of posting again.
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toBe(new URL(link).pathname);
    const shown = await (await fetch(link)).text();
    expect(shown).toContain('data-state="queued"');
    expect(shown).toContain('<h1>Reply approved</h1>');
    expect(await stateOf(4)).toBe('queued');
    const replay = await postForm(link, { csrf, decision: 'approve' });
    expect(replay.status).toBe(409);
    expect(await replay.text()).toContain('decided already');
    const rejectLater = await postForm(link, { csrf, decision: 'reject' });
    expect(rejectLater.status).toBe(409);
    expect(await stateOf(4)).toBe('queued');
    // The page opened again shows the state and no form.
    const after = await (await fetch(link)).text();
    expect(after).not.toContain('<form');
    h.engine.clock.advance(3000);
    expect(await stateOf(4)).toBe('delivered');
  });

  it('Reject on the page rejects: nothing is sent', async () => {
    await setUp();
    const link = await linkFor(5);
    const csrf = csrfOf(await (await fetch(link)).text());
    expect((await postForm(link, { csrf, decision: 'reject' })).status).toBe(303);
    h.engine.clock.advance(10_000);
    expect(await stateOf(5)).toBe('rejected');
    expect(await (await fetch(link)).text()).toContain('<h1>Reply rejected</h1>');
  });

  it('a tampered or unknown token is refused with 404 and a clear page, GET and POST alike', async () => {
    await setUp();
    const link = await linkFor(6);
    const csrf = csrfOf(await (await fetch(link)).text());
    const token = link.slice(link.lastIndexOf('/') + 1);
    const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    const base = link.slice(0, link.lastIndexOf('/') + 1);
    for (const bad of [flipped, token.slice(1), `${token}A`, 'x'.repeat(43), '', `${token}/extra`, '%ZZ']) {
      const page = await fetch(`${base}${bad}`);
      expect(page.status, bad).toBe(404);
      expect(await page.text()).toContain('This confirmation link is not valid');
      expect((await postForm(`${base}${bad}`, { csrf, decision: 'approve' })).status).toBe(404);
    }
    expect(await stateOf(6)).toBe('awaiting_approval');
  });

  it('a missing, altered or other request’s CSRF token, or a cross-site post, is refused with 403', async () => {
    await setUp();
    const linkA = await linkFor(7, 'A', 0);
    const linkB = await linkFor(8, 'B', 1);
    const csrfA = csrfOf(await (await fetch(linkA)).text());
    const csrfB = csrfOf(await (await fetch(linkB)).text());
    const [view, mac = ''] = csrfA.split('.');
    const refusals: [Record<string, string>, Record<string, string>][] = [
      [{ decision: 'approve' }, {}],
      [{ decision: 'approve', csrf: '' }, {}],
      [{ decision: 'approve', csrf: `${view}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}` }, {}],
      [{ decision: 'approve', csrf: `999999.${mac}` }, {}],
      [{ decision: 'approve', csrf: csrfB }, {}],
      [{ decision: 'approve', csrfA }, {}],
      [{ decision: 'approve', csrf: csrfA }, { origin: 'http://evil.example' }],
      [{ decision: 'approve', csrf: csrfA }, { 'sec-fetch-site': 'cross-site' }],
    ];
    for (const [fields, headers] of refusals) {
      const answer = await postForm(linkA, fields, headers);
      expect(answer.status, JSON.stringify([fields, headers])).toBe(403);
      expect(await answer.text()).toContain('nothing was approved');
    }
    expect(await stateOf(7)).toBe('awaiting_approval');
    expect(await stateOf(8)).toBe('awaiting_approval');
    // The genuine form still works afterwards.
    expect((await postForm(linkA, { csrf: csrfA, decision: 'approve' })).status).toBe(303);
  });

  it('bad decisions, content types, sizes and methods get clear 4xx pages, never a decision', async () => {
    await setUp();
    const link = await linkFor(9);
    const csrf = csrfOf(await (await fetch(link)).text());
    expect((await postForm(link, { csrf, decision: 'send' })).status).toBe(400);
    expect((await postForm(link, { csrf })).status).toBe(400);
    const json = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ csrf, decision: 'approve' }),
    });
    expect(json.status).toBe(415);
    const big = await postForm(link, { csrf, decision: 'approve', pad: 'x'.repeat(MAX_FORM_BYTES) });
    expect(big.status).toBe(413);
    const put = await fetch(link, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(await stateOf(9)).toBe('awaiting_approval');
  });

  it('tokens are derived from the seed: the same seed gives the same link, another request another link', async () => {
    await setUp();
    const first = await linkFor(10);
    const second = await linkFor(11);
    expect(second).not.toBe(first);
    const origin = server?.url ?? '';
    await server?.close();
    h = replyHarness();
    server = await startPageServer(h.engine);
    const again = await linkFor(10);
    expect(again.slice(server.url.length)).toBe(first.slice(origin.length));
  });
});
