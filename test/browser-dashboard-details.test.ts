/**
 * The dashboard's details in headless Chromium, at 1280x800 and at 800x600: one clock in the header
 * (the mock's, labelled; no local time), revoking a key asks first (dismissed, the key stays active),
 * the write profile reads once as what it may do, a failed load is named on the status line (and its
 * recovery said), the requests table keeps a usable width, the chaos counters have human labels, and
 * the targeted faults are listed with their counters, added and removed from the page, their answers
 * marked in the requests; a fault's markup is shown as text.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChaos } from '../mocks/engine/chaos/index.ts';
import { createViolationLog } from '../mocks/engine/violations/index.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { expectOnlyAdminRequests, openDashboard } from './browser/dashboard.ts';
import { launchChromium, ROOT } from './browser/harness.ts';
import { keyOf } from './support/keys.ts';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
] as const;

describe('the dashboard details in headless Chromium', () => {
  let mock: MockServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    mock = await startMockServer({
      seed: 42,
      actions: 60,
      clock: 'frozen',
      interceptors: [createViolationLog(), createChaos()],
      agent: false,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  const api = async (method: string, path: string, body?: unknown, key?: string) => {
    if (mock === undefined) throw new Error('set-up failed');
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (key !== undefined) headers['x-api-key'] = key;
    const response = await fetch(`${mock.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const text = async (tab: Page, selector: string) => (await tab.textContent(selector))?.trim() ?? '';

  for (const viewport of VIEWPORTS) {
    const size = `${viewport.width}x${viewport.height}`;
    it(`at ${size}: one labelled mock clock, the write profile once, human chaos counters, a usable requests table, the faults panel and marks`, async () => {
      if (mock === undefined || browser === undefined) throw new Error('set-up failed');
      await api('POST', '/__mock/reset');
      const reporting = keyOf(mock.engine.admin, 'org_acme', 'reporting');
      // Something for the table to show, and a chaos counter to label.
      for (let i = 0; i < 3; i++) await api('GET', '/v0/action/list?pageSize=2', undefined, reporting);
      await api('PUT', '/__mock/chaos', { latency: '0-1' });
      await api('GET', '/v0/agents', undefined, reporting);
      await api('DELETE', '/__mock/chaos');
      const markup = '<img id="fault-img" src="x" onerror="window.pwned=1"><b id="fault-b">b</b>';
      await api('POST', '/__mock/faults', {
        operation: 'submitModerationCase',
        body: { title: markup },
        status: 422,
      });

      const { tab, requested, problems, close } = await openDashboard(browser, mock.url, viewport);
      try {
        // One clock, the mock's, labelled; the live line carries no time of day.
        const clock = (await api('GET', '/__mock/clock')).body['clock'] as { iso: string };
        await tab.waitForSelector('#clock-now:not(:has-text("…"))');
        expect(await text(tab, '.clock-label')).toBe('Mock clock');
        expect(await text(tab, '#clock-now')).toBe(clock.iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z'));
        const header = await text(tab, 'header');
        expect(header.match(/\d\d:\d\d:\d\d/g)).toHaveLength(1);
        expect(await text(tab, '#live')).toBe('live');

        // The write profile reads once as what it may do.
        const writeRow = tab.locator('#keys-list tr', { hasText: 'Acme Robotics write key' });
        const writeText = (await writeRow.textContent()) ?? '';
        expect(writeText).not.toMatch(/write: write/);
        expect(writeText).toContain('scope write · custom fields and moderation submissions');

        // The chaos counters under human labels, none by its field name.
        const stats = await text(tab, '#chaos-stats');
        expect(stats).toContain('total delay (ms): ');
        expect(stats).toMatch(/requests seen: [1-9]/);
        expect(stats).not.toMatch(/delayedMs|idsRewritten|unknownFields/);

        // The fault set through the API is listed, its markup as text.
        const listed = tab.locator('#faults-list li[data-fault="f1"]');
        await listed.waitFor();
        expect(await listed.locator('.fault-what').textContent()).toContain(
          JSON.stringify({ title: markup }),
        );
        expect(await listed.locator('.fault-counts').textContent()).toBe('answered 0 · 1 left');
        const injected = await tab.evaluate(() => ({
          elements: document.querySelectorAll('#fault-img, #fault-b').length,
          pwned: (window as unknown as { pwned?: number }).pwned ?? null,
        }));
        expect(injected).toEqual({ elements: 0, pwned: null });

        // Added from the page: the next two listAgents calls answer 500, marked in the requests.
        await tab.fill('#fault-operation', 'listAgents');
        await tab.selectOption('#fault-answer', '500');
        await tab.fill('#fault-times', '2');
        await tab.getByRole('button', { name: 'Add fault' }).click();
        await tab.waitForSelector('#status:has-text("Fault f2 set")');
        expect((await api('GET', '/v0/agents', undefined, reporting)).status).toBe(500);
        const seq = ((await api('GET', '/__mock/journal')).body['entries'] as { seq: number }[]).at(-1)?.seq;
        const row = tab.locator(`#journal-rows tr[data-seq="${seq}"]:not(.violation-row)`);
        await row.waitFor();
        expect(await row.locator('td.status').textContent()).toBe('500 fault f2');
        await tab.waitForSelector(
          '#faults-list li[data-fault="f2"] .fault-counts:has-text("answered 1 · 1 left")',
        );
        // A bad one is refused, the field named on the status line.
        await tab.fill('#fault-operation', 'getActions');
        await tab.getByRole('button', { name: 'Add fault' }).click();
        await tab.waitForSelector('#status[data-kind="error"]:has-text("fault field operation")');
        // Removed from the page.
        await tab.getByRole('button', { name: 'Remove fault f2' }).click();
        await tab.waitForSelector('#faults-list li[data-fault="f2"]', { state: 'detached' });
        expect((await api('GET', '/v0/agents', undefined, reporting)).status).toBe(200);

        // The requests table keeps a usable width and needs no sideways scrolling.
        const layout = await tab.evaluate(() => {
          const wrap = document.querySelector('.table-wrap') as HTMLElement;
          const path = document.querySelector('#journal-rows td.path') as HTMLElement;
          return {
            wrap: wrap.clientWidth,
            overflow: wrap.scrollWidth - wrap.clientWidth,
            path: path.getBoundingClientRect().width,
            page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          };
        });
        expect(layout.wrap).toBeGreaterThanOrEqual(Math.min(700, viewport.width - 100));
        expect(layout.overflow).toBeLessThanOrEqual(1);
        expect(layout.path).toBeGreaterThan(180);
        expect(layout.page).toBeLessThanOrEqual(0);

        // A load that fails is named on the status line; when loading works again, that is said.
        await tab.route('**/__mock/faults', (route) =>
          route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false}' }),
        );
        await tab.waitForSelector(
          '#status[data-kind="error"]:has-text("Could not load the targeted faults: the mock answered 500")',
        );
        expect(await text(tab, '#live')).toBe('not updating');
        await tab.unroute('**/__mock/faults');
        await tab.waitForSelector('#status[data-kind="ok"]:has-text("Loading works again")');

        await mkdir(join(ROOT, 'test-results'), { recursive: true });
        await tab.screenshot({ path: join(ROOT, `test-results/dashboard-${size}.png`), fullPage: true });
      } finally {
        await close();
      }
      expectOnlyAdminRequests(requested, mock.url);
      // Chromium logs every non-2xx fetch: the refused fault and the failed loads, nothing else.
      expect(
        problems.filter(
          (p) =>
            !/Failed to load resource: the server responded with a status of (400 \(Bad Request\)|500 \(Internal Server Error\))/.test(
              p,
            ),
        ),
      ).toEqual([]);
    });
  }

  it('asks before revoking a seeded key: dismissed, the key stays active; accepted, it is revoked', async () => {
    if (mock === undefined || browser === undefined) throw new Error('set-up failed');
    await api('POST', '/__mock/reset');
    const key = keyOf(mock.engine.admin, 'org_acme', 'read_write');
    const name = mock.engine.admin.listKeys('org_acme').find((k) => k.key === key)?.name ?? '';
    const { tab, close } = await openDashboard(browser, mock.url, { width: 800, height: 600 });
    try {
      const revoke = tab.getByRole('button', { name: `Revoke key ${name} (read_write, org_acme)` });
      const asked: string[] = [];
      tab.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await revoke.click();
      await expect.poll(() => asked.length).toBe(1);
      expect(asked[0]).toContain(`Revoke the key "${name}" (read_write, org_acme)?`);
      expect(asked[0]).toContain('only a reset of the mock brings a seeded key back');
      expect(mock.engine.admin.listKeys('org_acme').find((k) => k.key === key)?.status).toBe('active');
      tab.once('dialog', (dialog) => void dialog.accept());
      await revoke.click();
      await tab.waitForSelector(`#keys-list tr[data-key-name="${name}"] .key-revoked`);
      expect((await api('GET', '/v0/agents', undefined, key)).status).toBe(401);
    } finally {
      await close();
    }
    await api('POST', '/__mock/reset');
  });
});
