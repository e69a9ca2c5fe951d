/**
 * Swagger UI in a real browser: the HTTP mock's `/docs` in headless Chromium lists every operation of
 * the contract, and one "Try it out" call with a seeded key (fixtures/keys.json) answers 200. A
 * screenshot is kept as a test artifact in test-results/ (gitignored).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { launchChromium, ROOT, seededKey } from './browser/harness.ts';
import { scaled } from './support/timeouts.ts';

const SCREENSHOT = join(ROOT, 'test-results/swagger-ui.png');
const TRY_IT_OUT_SCREENSHOT = join(ROOT, 'test-results/swagger-ui-try-it-out.png');

/** operationIds of `contract/openapi.json`, read from the file itself. */
async function contractOperationIds(): Promise<string[]> {
  const document = JSON.parse(await readFile(join(ROOT, 'contract/openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  return Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) =>
      typeof operation === 'object' && operation !== null && typeof operation.operationId === 'string'
        ? [operation.operationId]
        : [],
    ),
  );
}

describe('Swagger UI of the mock in headless Chromium', () => {
  let mock: MockServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    mock = await startMockServer({ seed: 42, selfCheck: true });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  it('DOCS-SWAGGER-UI / MOCK-DOCS-WITHOUT-KEY: lists every operation; Authorize + Try it out on GET /v0/agents answers 200', async () => {
    if (mock === undefined || browser === undefined) throw new Error('set-up failed');
    const key = await seededKey('org_acme', 'reporting');
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    try {
      const page = await context.newPage();
      await page.goto(`${mock.url}/docs`);
      await page.waitForSelector('.opblock', { timeout: scaled(30_000) });

      const listed = await page.$$eval('.opblock', (blocks) => blocks.map((block) => block.id));
      const expected = await contractOperationIds();
      expect(expected.length).toBeGreaterThanOrEqual(19);
      for (const operationId of expected) {
        expect(
          listed.some((id) => id.endsWith(`-${operationId}`)),
          `${operationId} listed`,
        ).toBe(true);
      }
      expect(listed).toHaveLength(expected.length);

      await page.click('.btn.authorize');
      await page.fill('#api_key_value', key);
      await page.click('.auth-btn-wrapper .btn.modal-btn.auth.authorize');
      await page.click('.auth-btn-wrapper .btn-done');
      await page.waitForSelector('.btn.authorize.locked');

      const block = page.locator('#operations-Agents-listAgents');
      await block.locator('.opblock-summary').first().click();
      // The mock's page may open operations in try-out mode already (then the button reads "Cancel").
      const tryOut = block.locator('.try-out__btn');
      if ((await tryOut.textContent())?.includes('Try it out')) await tryOut.click();
      await block.locator('.execute').click();
      const status = block.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ timeout: scaled(30_000) });
      expect((await status.textContent())?.trim()).toBe('200');
      const shown = await block
        .locator('.live-responses-table tr.response .response-col_description')
        .first()
        .textContent();
      expect(shown).toContain('"success": true');
      expect(shown).toContain('"agentId"');
      const curl = await block.locator('.curl-command').textContent();
      expect(curl).toContain('X-API-Key');

      await mkdir(join(ROOT, 'test-results'), { recursive: true });
      await block.screenshot({ path: TRY_IT_OUT_SCREENSHOT });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: SCREENSHOT });
      expect(mock.engine.selfCheckFailures).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
