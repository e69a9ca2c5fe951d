/**
 * A reply end to end on the real mock server (`startMockServer`, one port for REST, /mcp and the
 * confirmation page), driven by the official MCP SDK client: prepare, review (approval_required with a
 * link on the mock's origin), a person's GET and POST on that page, the engine clock, then open_reply
 * and REST agree that the reply was delivered once.
 */

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionIdOfRow, orgData } from '../mocks/engine/records/state.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { answerData } from './agent-answer.ts';

let mock: MockServer;
let client: Client;
let restKey: string;

const REQUEST_ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

beforeAll(async () => {
  mock = await startMockServer({ seed: 42, clock: 'frozen' });
  const keys = mock.engine.admin.listKeys('org_acme').filter((k) => k.status === 'active');
  const readWrite = keys.find((k) => k.profile === 'read_write')?.key ?? '';
  restKey = keys.find((k) => k.profile === 'reporting')?.key ?? '';
  client = new Client({ name: 'agent-replies-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${mock.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${readWrite}` } },
    }),
  );
});

afterAll(async () => {
  await client?.close();
  await mock?.close();
});

/** A seeded action of org_acme with no AGENT message yet, created in the past six days. */
function unrespondedAction(): string {
  const org = orgData(mock.engine.state.data, 'org_acme');
  const now = mock.engine.clock.now();
  for (let row = org.table.size - 1; row >= 0; row--) {
    const at = org.table.createdAt[row] ?? 0;
    if (!org.table.responded(row) && at > now - 6 * 86_400_000 && at <= now) return actionIdOfRow(org, row);
  }
  throw new Error('no unresponded recent action in the seed');
}

async function tool(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return {
    isError: result.isError === true,
    content: (answerData(result) ?? {}) as Record<string, unknown>,
  };
}

describe('a reply through /mcp, the confirmation page and REST on one mock', () => {
  it('AGENT-MCP-APPROVAL-REQUIRED-NOT-SUCCESS, AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS: approval_required links to the mock’s page; only the page’s POST approves; REST shows the delivered reply', async () => {
    const actionId = unrespondedAction();
    const text = 'We fixed the sync issue: please try again <3';
    const prepared = await tool('prepare_reply', { actionId, text, requestId: REQUEST_ID });
    expect(prepared).toMatchObject({ isError: false, content: { state: 'draft', actionId, text } });

    const review = await tool('review_reply', { requestId: REQUEST_ID });
    expect(review.isError).toBe(true);
    expect(review.content).toMatchObject({ kind: 'approval_required', requestId: REQUEST_ID });
    const link = String(review.content['approvalUrl']);
    expect(link.startsWith(`${mock.url}/agent/replies/`)).toBe(true);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    expect((await tool('open_reply', { requestId: REQUEST_ID })).content['state']).toBe('awaiting_approval');

    const approve = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: mock.url },
      body: new URLSearchParams({ csrf, decision: 'approve' }).toString(),
    });
    expect(approve.status).toBe(200);
    expect((await tool('open_reply', { requestId: REQUEST_ID })).content['state']).toBe('queued');

    const advanced = await fetch(`${mock.url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 3000 }),
    });
    expect(advanced.status).toBe(200);
    const opened = await tool('open_reply', { requestId: REQUEST_ID });
    expect(opened.content).toMatchObject({ state: 'delivered', delivery: { outcome: 'delivered' } });

    const detail = await fetch(`${mock.url}/v0/action/${encodeURIComponent(actionId)}`, {
      headers: { 'x-api-key': restKey },
    });
    const body = (await detail.json()) as Record<string, unknown>;
    const record = (body['data'] ?? body) as { messages: { authorType: string; message: string }[] };
    expect(record.messages.filter((m) => m.message === text)).toEqual([
      expect.objectContaining({ authorType: 'AGENT', message: text }),
    ]);
    // A retry of the whole conversation after a time-out answers the same request; nothing is sent again.
    expect((await tool('prepare_reply', { actionId, text, requestId: REQUEST_ID })).content['state']).toBe(
      'delivered',
    );
    expect(mock.engine.unexpectedErrors).toEqual([]);
  });
});
