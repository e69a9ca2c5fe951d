/**
 * The reply confirmation page in headless Chromium (Debian's, through playwright-core): a person opens
 * the link review_reply gave, sees the reply (screenshot under test-results/), clicks Approve; then
 * open_reply and REST show the delivered reply. Opening the link approves nothing; a replayed POST of
 * the same form is refused. The strict CSP holds: the page reports no violation and loads nothing.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyTools } from '../mocks/agent/replies/index.ts';
import { launchChromium, ROOT } from './browser/harness.ts';
import { failureOf, ORG, replyHarness, successOf, uuidOf } from './support/reply-harness.ts';
import { type PageServer, startPageServer } from './support/reply-page-server.ts';

describe('the reply confirmation page in headless Chromium', () => {
  const h = replyHarness();
  let server: PageServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    server = await startPageServer(h.engine);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS: opening the link approves nothing; Approve does, once; then open_reply and REST show the delivered reply', async () => {
    if (browser === undefined || server === undefined) throw new Error('set-up failed');
    const [actionId = ''] = h.unresponded();
    const requestId = uuidOf(1);
    const text = 'Hi! <b>Sorry</b> for the wait: the fix is live 🙂\nReply here if it happens again.';
    successOf(await h.call('prepare_reply', { actionId, text, requestId }));
    const review = replyTools.find((t) => t.name === 'review_reply');
    const answer = await review?.handle(h.context(ORG, server.url), { requestId });
    const link = String(failureOf(answer ?? { ok: true, value: null })['approvalUrl']);
    const open = async () => successOf(await h.call('open_reply', { requestId }));

    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      const problems: string[] = [];
      const requested: string[] = [];
      tab.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      tab.on('console', (message) => problems.push(`console ${message.type()}: ${message.text()}`));
      tab.on('request', (request) => requested.push(request.url()));

      const response = await tab.goto(link);
      expect(response?.status()).toBe(200);
      expect(await tab.textContent('#reply-text')).toBe(text);
      expect(await tab.textContent('#status')).toContain('Awaiting your approval');
      await mkdir(join(ROOT, 'test-results'), { recursive: true });
      await tab.screenshot({ path: join(ROOT, 'test-results/reply-confirmation-page.png'), fullPage: true });
      // Opened (and reloaded): still awaiting approval, nothing sent.
      await tab.reload();
      expect((await open())['state']).toBe('awaiting_approval');

      const csrf = await tab.getAttribute('input[name="csrf"]', 'value');
      await Promise.all([tab.waitForURL(link), tab.click('#approve')]);
      expect(await tab.getAttribute('#status', 'data-state')).toBe('queued');
      await tab.screenshot({
        path: join(ROOT, 'test-results/reply-confirmation-approved.png'),
        fullPage: true,
      });
      expect((await open())['state']).toBe('queued');
      // Reloading after the decision reads the page again (Post/Redirect/Get): no second post, no 409.
      const reloaded = await tab.reload();
      expect(reloaded?.status()).toBe(200);
      expect(reloaded?.request().method()).toBe('GET');
      expect(await tab.textContent('h1')).toBe('Reply approved');
      expect(await tab.getAttribute('#status', 'data-state')).toBe('queued');

      // A replayed POST of the same form (same CSRF token) is refused.
      const replay = await tab.request.post(link, {
        form: { csrf: csrf ?? '', decision: 'approve' },
        headers: { origin: server.url },
      });
      expect(replay.status()).toBe(409);

      // Queue review, then delivery, on the engine clock: open_reply and REST show the delivered reply.
      h.engine.clock.advance(3000);
      expect(await open()).toMatchObject({ state: 'delivered', delivery: { outcome: 'delivered' } });
      const detail = await h.rest(`/v0/action/${encodeURIComponent(actionId)}`);
      const record = (detail.body['data'] ?? detail.body) as {
        messages: { authorType: string; message: string }[];
        totalAgentMessages: number;
      };
      expect(record.messages.at(-1)).toMatchObject({ authorType: 'AGENT', message: text });
      expect(record.totalAgentMessages).toBe(1);

      // Nothing but the page itself was loaded; no CSP violation or script error was reported.
      expect(requested.every((url) => url.startsWith(server?.url ?? '-'))).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
