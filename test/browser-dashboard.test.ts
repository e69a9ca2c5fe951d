/**
 * The mock's dashboard at /__mock/ in headless Chromium (Debian's, through playwright-core), at
 * 1280x800: a client mistake and a moderation submission made through the REST API show up on the
 * page with the violation's rule; the clock is advanced from the page until the case completes; a key
 * revoked from the page refuses the next request; the export downloads. A body with markup is shown as
 * text. The page's own requests stay under /__mock/ (never /v0 or /mcp), nothing breaks its strict
 * Content-Security-Policy, and every control has a label.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChaos } from '../mocks/engine/chaos/index.ts';
import type { JournalSummary } from '../mocks/engine/journal/index.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { createViolationLog } from '../mocks/engine/violations/index.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { expectOnlyAdminRequests, openDashboard } from './browser/dashboard.ts';
import { launchChromium, ROOT } from './browser/harness.ts';
import { keyOf } from './support/keys.ts';

describe('the mock dashboard in headless Chromium', () => {
  let mock: MockServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    mock = await startMockServer({
      seed: 42,
      actions: 200,
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

  const rest = async (path: string, key: string | null, init: RequestInit = {}) => {
    if (mock === undefined) throw new Error('set-up failed');
    const headers = new Headers(init.headers);
    if (key !== null) headers.set('x-api-key', key);
    const response = await fetch(`${mock.url}${path}`, { ...init, headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const journal = async (): Promise<JournalSummary[]> =>
    ((await rest('/__mock/journal', null)).body['entries'] as JournalSummary[]) ?? [];

  it('shows the violation with its rule, completes a case by advancing the clock, revokes a key (next request 401), downloads and loads the export, steps a case, switches chaos; its own requests stay under /__mock/', async () => {
    if (mock === undefined || browser === undefined) throw new Error('set-up failed');
    const reporting = keyOf(mock.engine.admin, 'org_acme', 'reporting');
    const write = keyOf(mock.engine.admin, 'org_acme', 'write');
    // The client's mistake: a page size below the contract's minimum.
    expect((await rest('/v0/action/list?pageSize=0', reporting)).status).toBe(400);
    const ack = await rest('/v0/moderation/cases', write, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sampleSubmission({ externalId: 'dash-1' })),
    });
    expect(ack.status).toBe(202);
    const caseId = String(ack.body['caseId']);
    const recorded = await journal();
    const mistake = recorded.find((e) => e.status === 400);
    const violation = mistake?.violations[0];
    expect(violation).toBeDefined();
    // The rule of the catalog the mistake broke (contract/rules.json), as the violation log names it.
    const rule = violation?.rule ?? '';
    expect(rule).toBe('LIST-PAGESIZE-RANGE');

    const { tab, requested, problems, close } = await openDashboard(browser, mock.url);
    try {
      // The violation, with its rule and message, under its request.
      const row = tab.locator(`tr.violation-row[data-seq="${mistake?.seq}"]`);
      await row.waitFor();
      expect(await row.locator('.rule').first().textContent()).toBe(rule);
      expect(await row.textContent()).toContain(violation?.message ?? '?');
      const line = tab.locator(`#journal-rows tr[data-seq="${mistake?.seq}"]:not(.violation-row)`);
      expect(await line.textContent()).toContain('/v0/action/list?pageSize=0');
      expect(await line.textContent()).toContain('reporting');
      expect(await line.textContent()).not.toContain(reporting);
      // Filtered by status and rule on the server: only the mistake is left.
      await tab.fill('#filter-status', '4xx');
      await tab.fill('#filter-rule', rule);
      await tab.press('#filter-rule', 'Enter');
      await tab.waitForFunction(
        () => document.querySelectorAll('#journal-rows tr:not(.violation-row)').length === 1,
      );
      await tab.click('button[type="reset"]');
      await tab.waitForFunction(
        () => document.querySelectorAll('#journal-rows tr:not(.violation-row)').length === 2,
      );

      // The moderation case, stepped along by advancing the clock from the page (by keyboard).
      const state = tab.locator(`#moderation-rows tr[data-case="${caseId}"] td.state`);
      await state.waitFor();
      expect(await state.textContent()).toBe('pending');
      const plusOneSecond = tab.getByRole('button', { name: '+1 s' });
      for (let i = 0; i < 30 && (await state.textContent()) !== 'completed'; i++) {
        const before = await tab.textContent('#clock-now');
        await plusOneSecond.focus();
        await tab.keyboard.press('Enter');
        await tab.waitForFunction(
          (shown) => document.getElementById('clock-now')?.textContent !== shown,
          before,
        );
      }
      expect(await state.textContent()).toBe('completed');
      expect((await rest(`/v0/moderation/cases/${caseId}`, reporting)).body['analysisStatus']).toBe(
        'completed',
      );

      // Revoke the reporting key on the page; the next request with it is refused, and the page shows it.
      const name = mock.engine.admin.listKeys('org_acme').find((k) => k.key === reporting)?.name ?? '';
      // Revoking asks first (the seeded keys are the ones tests use).
      tab.once('dialog', (dialog) => void dialog.accept());
      await tab.getByRole('button', { name: `Revoke key ${name} (reporting, org_acme)` }).click();
      await tab.waitForSelector(`#keys-list tr[data-key-name="${name}"] .key-revoked`);
      const refused = await rest('/v0/agents', reporting);
      expect(refused.status).toBe(401);
      const last = (await journal()).at(-1);
      const refusedRow = tab.locator(`#journal-rows tr[data-seq="${last?.seq}"]:not(.violation-row)`);
      await refusedRow.waitFor();
      expect(await refusedRow.locator('td.status').textContent()).toBe('401');

      // The export downloads as a data file of the current state.
      const [download] = await Promise.all([tab.waitForEvent('download'), tab.click('#data-export')]);
      const file = JSON.parse(await readFile((await download.path()) ?? '', 'utf8')) as Record<
        string,
        unknown
      >;
      expect(file['version']).toBe(1);
      expect(JSON.stringify(file['moderationCases'])).toContain('dash-1');

      // Load the export back from the page's file input: merged into the running state it is refused
      // (its cases exist already), every problem listed by pointer; replacing the state with it works.
      const status = async (mode: 'merge' | 'replace') => {
        await tab.setInputFiles('#data-file', (await download.path()) ?? '');
        await tab.check(`input[name="mode"][value="${mode}"]`);
        await tab.evaluate(() => {
          const region = document.getElementById('status');
          if (region !== null) region.textContent = '';
        });
        await tab.getByRole('button', { name: 'Load', exact: true }).click();
        await tab.waitForFunction(() =>
          /loaded|failed/.test(document.getElementById('status')?.textContent ?? ''),
        );
        return tab.textContent('#status');
      };
      expect(await status('merge')).toMatch(
        /failed: the data file was refused \(\d+ problems?\); nothing was loaded/,
      );
      expect(await tab.textContent('#data-problems')).toContain('/moderationCases/0/caseId');
      expect(await status('replace')).toContain('loaded (replace)');
      expect(await tab.locator('#data-problems li').count()).toBe(0);

      // Step another case one state from the page.
      const second = await rest('/v0/moderation/cases', write, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sampleSubmission({ externalId: 'dash-2' })),
      });
      const secondState = tab.locator(
        `#moderation-rows tr[data-case="${String(second.body['caseId'])}"] td.state`,
      );
      await secondState.waitFor();
      expect(await secondState.textContent()).toBe('pending');
      await tab
        .getByRole('button', { name: `Step case ${String(second.body['caseId'])} one state on` })
        .click();
      await tab.waitForSelector(
        `#moderation-rows tr[data-case="${String(second.body['caseId'])}"] td.state:has-text("running")`,
      );

      // Chaos on and off from the page.
      await tab.check('#chaos-unknownFields');
      await tab.getByRole('button', { name: 'Apply' }).click();
      await tab.waitForSelector('#chaos-summary:has-text("on: unknown fields")');
      expect(
        ((await rest('/__mock/chaos', null)).body['chaos'] as { unknownFields: boolean }).unknownFields,
      ).toBe(true);
      await tab.getByRole('button', { name: 'All off' }).click();
      await tab.waitForSelector('#chaos-summary:has-text("all modes off")');
      expect(
        ((await rest('/__mock/chaos', null)).body['chaos'] as { unknownFields: boolean }).unknownFields,
      ).toBe(false);

      await mkdir(join(ROOT, 'test-results'), { recursive: true });
      await tab.screenshot({ path: join(ROOT, 'test-results/dashboard.png') });

      // Every control has a label a screen reader reads out.
      const unlabeled = await tab.evaluate(() =>
        [...document.querySelectorAll('input, select, button')]
          .filter((node) => {
            const control = node as HTMLInputElement;
            const named = (control.labels?.length ?? 0) > 0 || control.getAttribute('aria-label') !== null;
            return !named && (control.textContent ?? '').trim() === '';
          })
          .map((node) => node.outerHTML),
      );
      expect(unlabeled).toEqual([]);
    } finally {
      await close();
    }
    // The page's own requests: the page, its assets and the admin API; never the service's routes.
    expectOnlyAdminRequests(requested, mock.url);
    // And the journal holds only the test's own REST calls: nothing of the page reached /v0 or /mcp.
    const entries = await journal();
    expect(entries.every((e) => !e.path.startsWith('/__mock/') && e.interface === 'rest')).toBe(true);
    expect(entries.map((e) => e.path)).toEqual([
      '/v0/action/list?pageSize=0',
      '/v0/moderation/cases',
      `/v0/moderation/cases/${caseId}`,
      '/v0/agents',
      '/v0/moderation/cases',
    ]);
    // The refused merge is the only failed load (Chromium logs every non-2xx fetch).
    expect(problems).toEqual([
      'console error: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
  });

  it('shows a body containing markup as text: no element is created from it, no script runs', async () => {
    if (mock === undefined || browser === undefined) throw new Error('set-up failed');
    const write = keyOf(mock.engine.admin, 'org_acme', 'write');
    const markup =
      '<img id="injected-img" src="x" onerror="window.pwned=1"><script id="injected-script">window.pwned=2</script><b id="injected-b">bold</b>';
    const sent = await rest('/v0/moderation/cases', write, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sampleSubmission({ externalId: 'markup-1', title: markup })),
    });
    const malformed = await rest('/v0/moderation/cases', write, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: markup,
    });
    expect(malformed.status).toBe(400);
    const entries = await journal();
    const seqs = entries.slice(-2).map((e) => e.seq);
    expect(sent.status).toBeGreaterThanOrEqual(200);

    const { tab, problems, close } = await openDashboard(browser, mock.url);
    try {
      // By keyboard from the top: the skip link first, then the journal's first filter.
      const focused = () =>
        tab.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || '');
      await tab.keyboard.press('Tab');
      expect(await focused()).toBe('Skip to the journal');
      await tab.keyboard.press('Enter');
      await tab.keyboard.press('Tab');
      expect(await focused()).toBe('filter-status');
      for (const seq of seqs) {
        await tab.getByRole('button', { name: new RegExp(`^Open exchange ${seq}:`) }).click();
        await tab.waitForSelector(`#exchange-title:has-text("Exchange ${seq}:")`);
        const shown = (await tab.locator('#exchange pre.body').first().textContent()) ?? '';
        // A JSON body is shown indented (its strings as JSON writes them), any other body as it came.
        const text = seq === seqs[0] ? String((JSON.parse(shown) as { title?: unknown }).title) : shown;
        expect(text).toBe(markup);
      }
      const created = await tab.evaluate(() => ({
        elements: document.querySelectorAll('#injected-img, #injected-script, #injected-b').length,
        imagesInExchange: document.querySelectorAll('#exchange img, #exchange script, #exchange b').length,
        pwned: (window as unknown as { pwned?: number }).pwned ?? null,
      }));
      expect(created).toEqual({ elements: 0, imagesInExchange: 0, pwned: null });
      // The detail is keyboard-reachable: its heading has focus, Close returns to the opener.
      expect(await tab.evaluate(() => document.activeElement?.id)).toBe('exchange-title');
    } finally {
      await close();
    }
    expect(problems).toEqual([]);
  });
});
