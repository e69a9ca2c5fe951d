/**
 * The dashboard against a page's own mock (MSW's setupWorker, no mock server): the page frames
 * `/__mock/index.html` (the files `writeDashboardFiles` wrote beside it, served by the page's static
 * server), and the service worker hands the frame's admin calls to the handlers of the page. Headless
 * Chromium: the dashboard lists exactly the page's exchanges, updates after a new one, and shows a
 * markup body as text.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDashboardFiles } from '../mocks/http/dashboard/files.ts';
import { launchChromium, ROOT, type StaticServer, seededKey, serveStatic } from './browser/harness.ts';
import { scaled } from './support/timeouts.ts';

interface Row {
  readonly method: string;
  readonly path: string;
  readonly status: string;
}

async function buildPage(dir: string): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'test/browser/msw-dashboard-app.ts')],
    outfile: join(dir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  await copyFile(join(ROOT, 'test/browser/msw-dashboard.html'), join(dir, 'index.html'));
  await copyFile(join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js'), join(dir, 'mockServiceWorker.js'));
  await writeDashboardFiles(dir);
}

/** The journal rows the dashboard shows, newest first. */
function rowsOf(frame: Frame): Promise<Row[]> {
  return frame.$$eval('#journal-rows tr:not(.violation-row)', (trs) =>
    trs.map((tr) => {
      const cell = tr.querySelector('td.path');
      const method = cell?.querySelector('strong')?.textContent ?? '';
      const text = cell?.textContent ?? '';
      return {
        method,
        path: text.slice(text.indexOf(method) + method.length).trim(),
        status: tr.querySelector('td.status')?.textContent ?? '',
      };
    }),
  );
}

describe('the dashboard against a page mock (setupWorker, headless Chromium)', () => {
  let dir: string | undefined;
  let site: StaticServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cca-kit-msw-dashboard-'));
    await buildPage(dir);
    site = await serveStatic(dir);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  // The API under a path of the page's origin, and on another origin: the dashboard's calls go to
  // /__mock/ of the page's origin either way. One at each of the dashboard's two tested sizes.
  it.each([
    ['/api', 1280, 800],
    ['https://api.example.test', 800, 600],
  ] as const)(
    "with the API at %s (%ix%i): lists exactly the page's exchanges, follows a new one, and shows a markup body as text",
    async (base, width, height) => {
      if (browser === undefined || site === undefined) throw new Error('set-up failed');
      const read = await seededKey('org_acme', 'reporting');
      const write = await seededKey('org_acme', 'write');
      const context = await browser.newContext({ viewport: { width, height } });
      const problems: string[] = [];
      try {
        const tab = await context.newPage();
        tab.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
        // The app's own 401 and 400 are console errors too; what matters is that no file or admin call failed.
        tab.on('response', (response) => {
          if (response.status() >= 400 && !response.url().includes('/v0/'))
            problems.push(`${response.status()} ${response.url()}`);
        });
        const query = new URLSearchParams({ key: read, writeKey: write, base });
        await tab.goto(`${site.url}/?${query}`);
        await tab.waitForSelector('body[data-ready="true"]', { timeout: scaled(30_000) });
        type App = {
          call(method: string, path: string, key: string, body?: string): Promise<{ status: number }>;
        };
        const call = (method: string, path: string, key: string, body?: string) =>
          tab.evaluate(
            ([m, p, k, b]) =>
              (window as unknown as { app: App }).app.call(m as string, p as string, k as string, b),
            [method, path, key, body] as const,
          );
        expect((await call('GET', '/v0/agents', 'read')).status).toBe(200);
        expect((await call('GET', '/v0/action/list?pageSize=2', 'read')).status).toBe(200);
        expect((await call('GET', '/v0/agents', 'none')).status).toBe(401);

        // The page marks itself ready as it appends the dashboard's iframe, which then has yet to
        // navigate to the dashboard's URL: wait for that instead of looking once.
        const dashboardUrl = /\/__mock\/index\.html$/;
        const frame =
          tab.frame({ url: dashboardUrl }) ??
          (await tab
            .waitForEvent('framenavigated', {
              predicate: (f) => dashboardUrl.test(f.url()),
              timeout: scaled(30_000),
            })
            .catch(() => tab.frame({ url: dashboardUrl })));
        if (frame === null) throw new Error('the dashboard frame is missing');
        await frame.waitForSelector('#live[data-kind="ok"]:has-text("live")', { timeout: scaled(30_000) });
        await frame.waitForFunction(
          () => document.querySelectorAll('#journal-rows tr:not(.violation-row)').length >= 3,
        );
        expect(await rowsOf(frame)).toEqual([
          { method: 'GET', path: '/v0/agents', status: '401' },
          { method: 'GET', path: '/v0/action/list?pageSize=2', status: '200' },
          { method: 'GET', path: '/v0/agents', status: '200' },
        ]);
        // The dashboard's own admin calls are not journaled: the page's mock saw three exchanges.
        expect(
          await tab.evaluate(() =>
            (window as unknown as { app: { journalLength(): number } }).app.journalLength(),
          ),
        ).toBe(3);

        const markup = '<img id="injected-img" src="x" onerror="window.pwned=1"><b id="injected-b">bold</b>';
        expect((await call('POST', '/v0/moderation/cases', 'write', markup)).status).toBe(400);
        await frame.waitForFunction(
          () => document.querySelectorAll('#journal-rows tr:not(.violation-row)').length === 4,
        );
        expect((await rowsOf(frame))[0]).toEqual({
          method: 'POST',
          path: '/v0/moderation/cases',
          status: '400',
        });
        const seq = await frame.$eval(
          '#journal-rows tr:not(.violation-row)',
          (tr) => (tr as HTMLElement).dataset['seq'],
        );
        await frame.getByRole('button', { name: new RegExp(`^Open exchange ${seq}:`) }).click();
        await frame.waitForSelector(`#exchange-title:has-text("Exchange ${seq}:")`);
        expect(await frame.locator('#exchange pre.body').first().textContent()).toBe(markup);
        const injected = await frame.evaluate(() => ({
          elements: document.querySelectorAll('#injected-img, #injected-b, #exchange img, #exchange b')
            .length,
          pwned: (window as unknown as { pwned?: number }).pwned ?? null,
        }));
        expect(injected).toEqual({ elements: 0, pwned: null });
        expect(await tab.evaluate(() => (window as unknown as { pwned?: number }).pwned ?? null)).toBeNull();
        // Every panel loaded from the page's mock: nothing failed on the status line.
        expect(await frame.textContent('#live')).toBe('live');
        expect(await frame.textContent('#status')).not.toMatch(/Could not/);
      } finally {
        await context.close();
      }
      expect(problems).toEqual([]);
    },
  );
});
