/**
 * Replies from every transport (spec 4.18 rule 4: "if review_reply returns a link, the human confirms
 * there"): `cca-kit mcp --stdio` serves the confirmation page on a loopback port of the same engine.
 * An SDK client prepares a reply over stdio, a person approves it in Chromium on the printed link,
 * and the agent sees it delivered through open_reply.
 */

import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { answerData } from './agent-answer.ts';
import { launchChromium } from './browser/harness.ts';
import { stdioTransport } from './support/stdio-mcp.ts';
import { scaled } from './support/timeouts.ts';

describe('cca-kit mcp --stdio with its confirmation page', () => {
  it(
    'AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS: a reply prepared over stdio is approved by a person in Chromium on the link, then open_reply sees it delivered',
    async () => {
      const { transport, stderr: stderrOf } = stdioTransport();
      const client = new Client({ name: 'stdio-replies', version: '1.0.0' });
      await client.connect(transport);
      const browser = await launchChromium();
      try {
        const found = await client.callTool({
          name: 'execute',
          arguments: {
            script:
              "return (await call('query.search.actions', { limit: 1, dateRange: { relative: { unit: 'year', count: 5 } } })).items[0].actionId;",
          },
        });
        const actionId = (answerData(found) as { result: string }).result;
        const requestId = '3b0f6a52-7c1e-4f0a-9d7e-2a6c5b1e8f10';
        const prepared = await client.callTool({
          name: 'prepare_reply',
          arguments: { actionId, text: 'Thanks for waiting: it is fixed now.', requestId },
        });
        expect(prepared.isError, JSON.stringify(answerData(prepared))).not.toBe(true);
        const review = await client.callTool({ name: 'review_reply', arguments: { requestId } });
        expect(answerData(review)).toMatchObject({ kind: 'approval_required' });
        const link = (answerData(review) as { approvalUrl: string | null }).approvalUrl;
        expect(link, stderrOf()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/agent\/replies\//);
        expect(stderrOf()).toContain(new URL(link ?? 'http://x').origin);

        const page = await browser.newPage();
        await page.goto(link ?? '');
        expect(await page.content()).toContain('Thanks for waiting: it is fixed now.');
        await page.click('button.approve');
        await page.waitForLoadState();

        let state = '';
        for (let i = 0; i < 40 && state !== 'delivered'; i++) {
          const opened = await client.callTool({ name: 'open_reply', arguments: { requestId } });
          state = String((answerData(opened) as { state?: string }).state);
          if (state !== 'delivered') await new Promise((resolve) => setTimeout(resolve, 250));
        }
        expect(state).toBe('delivered');
      } finally {
        await browser.close();
        await client.close();
      }
    },
    scaled(60_000),
  );
});
