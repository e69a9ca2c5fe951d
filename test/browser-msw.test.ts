/**
 * The MSW handlers in a real browser: a page bundled with esbuild registers the service worker (the
 * file `msw init` produces) with `createHandlers`, calls the API with a seeded key from
 * fixtures/keys.json and renders the answers; headless Chromium loads it from a loopback server.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildMswPage,
  launchChromium,
  ROOT,
  type StaticServer,
  seededKey,
  serveStatic,
} from './browser/harness.ts';
import { scaled } from './support/timeouts.ts';

describe('cca-kit/msw in headless Chromium (setupWorker)', () => {
  let page: Awaited<ReturnType<typeof buildMswPage>> | undefined;
  let site: StaticServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    page = await buildMswPage();
    site = await serveStatic(page.dir);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await page?.remove();
  });

  it('renders the seeded actions the worker answered (AUTH-HEADER-X-API-KEY, AUTH-MISSING-KEY-401, DETAIL-CONSISTENT-WITH-LIST, MOD-NEW-CASE-PENDING)', async () => {
    if (browser === undefined || site === undefined) throw new Error('set-up failed');
    const key = await seededKey('org_acme', 'reporting');
    const writeKey = await seededKey('org_acme', 'write');
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      const logs: string[] = [];
      tab.on('pageerror', (error) => logs.push(`pageerror: ${error.message}`));
      tab.on('console', (message) => {
        if (message.type() === 'error') logs.push(`console: ${message.text()}`);
      });
      await tab.goto(`${site.url}/?key=${encodeURIComponent(key)}&writeKey=${encodeURIComponent(writeKey)}`);
      await tab.waitForSelector('body[data-ready]', { timeout: scaled(30_000) });
      expect(await tab.textContent('#error'), logs.join('\n')).toBe('');
      expect(await tab.getAttribute('body', 'data-ready')).toBe('true');

      // The service worker is in control and the answers came from the engine, not the static server.
      const controlled = await tab.evaluate(() => navigator.serviceWorker.controller !== null);
      expect(controlled).toBe(true);
      expect(await tab.textContent('#list-status')).toBe('200');
      const total = Number.parseInt((await tab.textContent('#total')) ?? '', 10);
      expect(total).toBeGreaterThan(0);
      const ids = await tab.$$eval('#actions li', (items) => items.map((li) => li.dataset['id'] ?? ''));
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.length).toBeLessThanOrEqual(5);
      const titles = await tab.$$eval('#actions li', (items) => items.map((li) => li.textContent ?? ''));
      expect(titles.every((title) => title.length > 0)).toBe(true);
      expect(await tab.textContent('#detail')).toBe(`200 ${ids[0]}`);
      expect(await tab.textContent('#anonymous-status')).toBe('401');
      // MOD-NEW-CASE-PENDING: the real-time engine clock moves the case on by itself in the browser.
      const lifecycle = (await tab.textContent('#moderation'))?.split(' > ') ?? [];
      expect(lifecycle[0]).toBe('pending');
      expect(lifecycle.at(-1)).toBe('completed');
      // The missing key was recorded by the violation log; the engine's self-check saw no bad response.
      expect(await tab.textContent('#violations')).toBe('1');
      expect(await tab.textContent('#self-check')).toBe('0');
      await mkdir(join(ROOT, 'test-results'), { recursive: true });
      await tab.screenshot({ path: join(ROOT, 'test-results/msw-browser-page.png') });
    } finally {
      await context.close();
    }
  });
});
