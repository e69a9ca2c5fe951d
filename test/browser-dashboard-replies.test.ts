/**
 * The dashboard's "Agent reply requests" panel in headless Chromium (Debian's, through playwright-core),
 * on a real mock server with its agent interface. An agent prepares replies and asks for review through
 * the official MCP SDK client on /mcp; the panel lists each request with its state, its text (as text)
 * and the link of its confirmation page. A person follows the link, the page's CSRF and origin checks
 * refuse a forged and a cross-site post, the person approves there; the clock is advanced from the
 * dashboard and the panel shows queued, delivering, delivered. Reply text with markup creates no element
 * and runs no script, in the panel or on the page. At 1280x800 the link shows without scrolling
 * sideways. The dashboard's own requests stay under /__mock/.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChaos } from '../mocks/engine/chaos/index.ts';
import { actionIdOfRow, orgData } from '../mocks/engine/records/state.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { answerData } from './agent-answer.ts';
import { expectOnlyAdminRequests, openDashboard, watch } from './browser/dashboard.ts';
import { launchChromium, ROOT } from './browser/harness.ts';
import { keyOf } from './support/keys.ts';

const ORG = 'org_acme';
const REVIEWED = '0b7d3c52-91e4-4a0f-8c6e-2f5a9d1b7e30';
const DRAFT = '5e2a8f14-6c3d-4b79-a1e0-93d7c4b2f865';
/** Markup a reply may carry: shown as these characters, never parsed (ids to look for in the DOM). */
const MARKUP =
  '<img id="injected-img" src="x" onerror="window.pwned=1"><script id="injected-script">window.pwned=2</script>';
const TEXT = `Sorry for the wait! ${MARKUP} <b id="injected-b">Fixed</b> & live now.`;
/** Longer than the panel shows: cut there with "…", the whole text in the cell's title. */
const LONG_TEXT = `Draft: ${'we are looking into it. '.repeat(20)}`;

describe('the dashboard reply panel in headless Chromium', () => {
  let mock: MockServer | undefined;
  let client: Client | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    // With chaos installed, as `cca-kit mock` runs: the page reads every panel without a refusal.
    mock = await startMockServer({ seed: 42, actions: 200, clock: 'frozen', interceptors: [createChaos()] });
    client = new Client({ name: 'dashboard-replies-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${mock.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${keyOf(mock.engine.admin, ORG, 'read_write')}` } },
      }),
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await mock?.close();
  });

  async function tool(name: string, args: Record<string, unknown>) {
    if (client === undefined) throw new Error('set-up failed');
    const result = await client.callTool({ name, arguments: args });
    return {
      isError: result.isError === true,
      content: (answerData(result) ?? {}) as Record<string, unknown>,
    };
  }

  /** Elements the markup would have made, and whether any of its scripts ran. */
  const injected = (tab: Page) =>
    tab.evaluate(() => ({
      elements: document.querySelectorAll('#injected-img, #injected-script, #injected-b').length,
      pwned: (window as unknown as { pwned?: number }).pwned ?? null,
    }));

  it('AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS: lists the requests with state, text and link; the person approves on the linked page (forged and cross-site posts refused); the dashboard clock delivers it; markup stays text', async () => {
    if (mock === undefined || browser === undefined) throw new Error('set-up failed');
    const origin = mock.url;
    const org = orgData(mock.engine.state.data, ORG);
    const actionId = actionIdOfRow(org, 0);

    // The agent: prepare a reply and ask for review (approval_required, a link), and leave a draft.
    const prepared = await tool('prepare_reply', { actionId, text: TEXT, requestId: REVIEWED });
    expect(prepared).toMatchObject({ isError: false, content: { state: 'draft', text: TEXT } });
    const review = await tool('review_reply', { requestId: REVIEWED });
    expect(review.content).toMatchObject({ kind: 'approval_required', requestId: REVIEWED });
    const link = String(review.content['approvalUrl']);
    expect(link.startsWith(`${origin}/agent/replies/`)).toBe(true);
    const draft = await tool('prepare_reply', { actionId, text: LONG_TEXT, requestId: DRAFT });
    expect(draft.content['state']).toBe('draft');

    const { tab, context, requested, problems, close } = await openDashboard(browser, origin);
    try {
      const row = tab.locator(`#replies-rows tr[data-request="${REVIEWED}"]`);
      const state = row.locator('.state');
      const stateIs = (expected: string) =>
        tab.waitForSelector(`#replies-rows tr[data-request="${REVIEWED}"] .state:text-is("${expected}")`);
      /** The reply's text, on the row under its request. */
      const textOf = (requestId: string) =>
        tab.locator(`#replies-rows tr[data-request-text="${requestId}"] .reply-text`);
      await row.waitFor();
      expect(await tab.isHidden('#replies-empty')).toBe(true);
      expect(await state.textContent()).toBe('awaiting_approval');
      expect(await row.locator('td').nth(0).textContent()).toBe(`${REVIEWED}${ORG}`);
      expect(await row.locator('td').nth(1).textContent()).toBe(actionId);
      expect(await row.locator('td').nth(2).textContent()).toBe(
        'awaiting_approvalplanned outcome: delivered',
      );
      // The text is shown as the characters the agent sent; the markup made no element, ran nothing.
      expect(await textOf(REVIEWED).textContent()).toBe(TEXT);
      expect(await injected(tab)).toEqual({ elements: 0, pwned: null });
      // The link: the confirmation page's path on the mock's own origin, opened in a new tab.
      const anchor = row.getByRole('link', { name: 'Confirmation page' });
      expect(await anchor.getAttribute('href')).toBe(new URL(link).pathname);
      expect(await anchor.getAttribute('rel')).toBe('noopener noreferrer');
      // At 1280x800 the link shows in the side panel as it is: no sideways scrolling to find it.
      const fits = await tab.evaluate((id) => {
        const box = document.querySelector('#replies .scroll-x');
        const link = document.querySelector(`#replies-rows tr[data-request="${id}"] a`);
        if (box === null || link === null) return null;
        const outer = box.getBoundingClientRect();
        const inner = link.getBoundingClientRect();
        return {
          overflow: box.scrollWidth > box.clientWidth,
          inside: inner.left >= outer.left && inner.right <= outer.left + box.clientWidth,
        };
      }, REVIEWED);
      expect(fits).toEqual({ overflow: false, inside: true });

      // The draft: its state, no link yet (review_reply was never called), its text cut with the whole in the title.
      const draftRow = tab.locator(`#replies-rows tr[data-request="${DRAFT}"]`);
      expect(await draftRow.locator('.state').textContent()).toBe('draft');
      expect(await draftRow.locator('a').count()).toBe(0);
      const cut = (await textOf(DRAFT).textContent()) ?? '';
      expect(cut.endsWith('…')).toBe(true);
      expect(LONG_TEXT.startsWith(cut.slice(0, -1))).toBe(true);
      expect(await textOf(DRAFT).getAttribute('title')).toBe(LONG_TEXT);

      // A person follows the link: the confirmation page, the exact text as text, nothing decided yet.
      const [page] = await Promise.all([context.waitForEvent('page'), anchor.click()]);
      const pageRequested: string[] = [];
      const pageProblems: string[] = [];
      watch(page, pageRequested, pageProblems);
      await page.waitForSelector('#approve');
      expect(page.url()).toBe(link);
      expect(await page.textContent('#reply-text')).toBe(TEXT);
      expect(await page.getAttribute('#status', 'data-state')).toBe('awaiting_approval');
      expect(await injected(page)).toEqual({ elements: 0, pwned: null });
      const csrf = (await page.getAttribute('input[name="csrf"]', 'value')) ?? '';
      expect(csrf).not.toBe('');

      // The page's protections are in force: an altered CSRF token, and the real token posted from
      // another site (a form on an opaque origin, submitted by the browser), are both refused.
      const forged = await page.request.post(link, {
        form: { csrf: `${csrf.split('.')[0]}.forged`, decision: 'approve' },
        headers: { origin },
      });
      expect(forged.status()).toBe(403);
      expect(await forged.text()).toContain('The form token is missing, altered or belongs to another reply');
      const elsewhere = await context.newPage();
      await elsewhere.setContent(
        '<form method="post"><input name="csrf"><input name="decision" value="approve"></form>',
      );
      const [crossSite] = await Promise.all([
        elsewhere.waitForResponse((response) => response.url() === link),
        elsewhere.evaluate(
          ([action, token]) => {
            const form = document.querySelector('form');
            const field = document.querySelector<HTMLInputElement>('input[name="csrf"]');
            if (form === null || field === null) throw new Error('no form');
            form.action = action;
            field.value = token;
            form.submit();
          },
          [link, csrf] as const,
        ),
      ]);
      expect(crossSite.status()).toBe(403);
      expect(await crossSite.text()).toContain('not sent from the confirmation page itself');
      await elsewhere.close();
      expect((await tool('open_reply', { requestId: REVIEWED })).content['state']).toBe('awaiting_approval');

      // The person approves on the page; the panel shows it queued, the link now the request's page.
      await Promise.all([page.waitForURL(link), page.click('#approve')]);
      expect(await page.getAttribute('#status', 'data-state')).toBe('queued');
      await stateIs('queued');
      expect(await row.getByRole('link').textContent()).toBe('Page');

      // The clock, advanced from the dashboard: queue review (1 s), then delivery (2 s).
      await tab.bringToFront();
      const plusOneSecond = tab.getByRole('button', { name: '+1 s' });
      await plusOneSecond.click();
      await stateIs('delivering');
      await plusOneSecond.click();
      await plusOneSecond.click();
      await stateIs('delivered');
      expect(await textOf(REVIEWED).textContent()).toBe(TEXT);
      expect(await injected(tab)).toEqual({ elements: 0, pwned: null });
      await mkdir(join(ROOT, 'test-results'), { recursive: true });
      await tab.locator('#replies .scroll-x').evaluate((node) => node.scrollTo(0, 0));
      await tab.locator('#replies').screenshot({ path: join(ROOT, 'test-results/dashboard-replies.png') });

      // The person opens the link again: the page and the agent agree, delivered, the text still text.
      await page.goto(link);
      expect(await page.getAttribute('#status', 'data-state')).toBe('delivered');
      expect(await page.textContent('#reply-text')).toBe(TEXT);
      expect(await injected(page)).toEqual({ elements: 0, pwned: null });
      expect((await tool('open_reply', { requestId: REVIEWED })).content).toMatchObject({
        state: 'delivered',
        text: TEXT,
        delivery: { outcome: 'delivered' },
      });
      // The confirmation page loaded nothing but itself, and reported no script error or CSP violation.
      expect(pageRequested.every((url) => url === link)).toBe(true);
      expect(pageProblems).toEqual([]);
    } finally {
      await close();
    }
    // The dashboard's own requests: the page, its assets and the admin API; never /v0, /mcp or /agent.
    expectOnlyAdminRequests(requested, origin);
    expect(problems).toEqual([]);
    expect(mock.engine.unexpectedErrors).toEqual([]);
  });
});
