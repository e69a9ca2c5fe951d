/**
 * Dashboard test support: open the mock's dashboard (`/__mock/`) in a fresh browser context (1280x800 by default),
 * recording every request the page makes and every script error, console error or warning (a CSP
 * violation is reported as a console error), and check that the page's own requests stayed under
 * `/__mock/` on the mock's origin.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface OpenDashboard {
  readonly tab: Page;
  readonly context: BrowserContext;
  /** Every URL the dashboard tab requested, in order. */
  readonly requested: string[];
  /** Script errors, console errors and warnings of the dashboard tab. */
  readonly problems: string[];
  close(): Promise<void>;
}

/** Records what `tab` requests and every problem it reports into the two lists. */
export function watch(tab: Page, requested: string[], problems: string[]): void {
  tab.on('request', (request) => requested.push(request.url()));
  tab.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  tab.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()}`);
  });
}

/**
 * The dashboard of the mock at `origin`, loaded under its strict CSP and live (its first poll done),
 * in a window of `viewport` (1280x800 unless given).
 */
export async function openDashboard(
  browser: Browser,
  origin: string,
  viewport: { readonly width: number; readonly height: number } = { width: 1280, height: 800 },
): Promise<OpenDashboard> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const tab = await context.newPage();
  const requested: string[] = [];
  const problems: string[] = [];
  watch(tab, requested, problems);
  const response = await tab.goto(`${origin}/__mock/`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
  expect(response?.headers()['content-security-policy']).not.toMatch(/unsafe-(eval|inline)/);
  await tab.waitForSelector('#live[data-kind="ok"]:has-text("live")');
  return { tab, context, requested, problems, close: () => context.close() };
}

/** The page's own requests: the page, its assets and the admin API on `origin`; never /v0 or /mcp. */
export function expectOnlyAdminRequests(requested: readonly string[], origin: string): void {
  expect(requested.length).toBeGreaterThan(5);
  for (const url of requested) {
    const { origin: at, pathname } = new URL(url);
    expect(at).toBe(origin);
    expect(pathname.startsWith('/__mock/')).toBe(true);
  }
}
