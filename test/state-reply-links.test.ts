/**
 * Confirmation links across replicas and restarts ("a confirmation link works wherever the
 * load balancer sends the person"). Real processes: two replicas of the built CLI sharing one command
 * log in Debian's redis-server on an ephemeral loopback port, and one `--state-file` mock restarted.
 * The official MCP SDK client prepares and reviews a reply on replica A; the person opens the link and
 * approves it on replica B with plain HTTP (GET the page, read its CSRF token, POST the form: 303 back to
 * the link); A's open_reply and REST see it queued, then, after the shared clock moves, delivered once.
 * A reply request loaded from a data file gets its link lazily (at its first review_reply or admin
 * read): that link is a logged command too, so it opens on the other replica and after a restart, and
 * replicas issuing it at once agree on one link.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import { answerData } from './agent-answer.ts';
import {
  json,
  type MockProcess,
  type RedisServer,
  startMock,
  startRedis,
} from './support/state-processes.ts';
import { scaled } from './support/timeouts.ts';

const ORG = 'org_links';
const AGENT_KEY = 'links_agent_key_0001';
const READ_KEY = 'links_reporting_key_0001';
const ACTION = '9007199254740993017';
/** Reply requests of the data file, awaiting approval without a link until someone reviews or reads them. */
const FROM_FILE = {
  reviewed: 'a0000000-0000-4000-8000-00000000f001',
  read: 'a0000000-0000-4000-8000-00000000f002',
  raced: 'a0000000-0000-4000-8000-00000000f003',
  restarted: 'a0000000-0000-4000-8000-00000000f004',
};
const LIVE = 'b0000000-0000-4000-8000-0000000000a1';

const dataFile = () =>
  scenario()
    .organization(ORG)
    .key({ key: AGENT_KEY, profile: 'read_write' })
    .key({ key: READ_KEY, profile: 'reporting' })
    .action({ actionId: ACTION, messages: [userSays('The export stalls at 99 %', '-2h')] })
    .replyRequest({
      requestId: FROM_FILE.reviewed,
      state: 'awaiting_approval',
      text: 'From the file, reviewed',
    })
    .replyRequest({ requestId: FROM_FILE.read, state: 'awaiting_approval', text: 'From the file, read' })
    .replyRequest({ requestId: FROM_FILE.raced, state: 'awaiting_approval', text: 'From the file, raced' })
    .replyRequest({
      requestId: FROM_FILE.restarted,
      state: 'awaiting_approval',
      text: 'From the file, restarted',
    })
    .build();

interface Agent {
  tool(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ isError: boolean; content: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** The official MCP SDK client on one replica's /mcp, with the data file's read-write key. */
async function agentOn(mock: MockProcess): Promise<Agent> {
  const client = new Client({ name: 'reply-links-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${mock.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${AGENT_KEY}` } },
    }),
  );
  return {
    async tool(name, args) {
      const result = await client.callTool({ name, arguments: args });
      return {
        isError: result.isError === true,
        content: (answerData(result) ?? {}) as Record<string, unknown>,
      };
    },
    close: () => client.close(),
  };
}

/** review_reply's link, as a path (the same path on every replica's origin). */
async function reviewedPath(agent: Agent, requestId: string): Promise<string> {
  const review = await agent.tool('review_reply', { requestId });
  expect(review.isError).toBe(true);
  expect(review.content).toMatchObject({ kind: 'approval_required', requestId });
  return new URL(String(review.content['approvalUrl'])).pathname;
}

/** The page path the admin read shows (it issues a missing link first). */
async function adminPath(mock: MockProcess, requestId: string): Promise<unknown> {
  const read = await json(`${mock.url}/__mock/replies/${ORG}/${requestId}`);
  expect(read.status).toBe(200);
  return (read.body['reply'] as Record<string, unknown>)['approvalPath'];
}

const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** What a person's browser shows on `mock` at `path`: the decision page, with its CSRF token. */
async function openOn(mock: MockProcess, path: string): Promise<{ html: string; csrf: string }> {
  const page = await fetch(`${mock.url}${path}`);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const csrf = csrfOf(html);
  expect(csrf).not.toBe('');
  return { html, csrf };
}

/** The page's form posted on `mock`: a decision taken answers 303 back to the link. */
async function post(mock: MockProcess, path: string, csrf: string, decision: 'approve' | 'reject') {
  const answer = await fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: mock.url },
    body: new URLSearchParams({ csrf, decision }).toString(),
    redirect: 'manual',
  });
  await answer.text();
  return { status: answer.status, location: answer.headers.get('location') };
}

/** What a person does on `mock`: GET the page, then POST the form's decision. */
async function decideOn(mock: MockProcess, path: string, decision: 'approve' | 'reject') {
  const { html, csrf } = await openOn(mock, path);
  return { html, csrf, ...(await post(mock, path, csrf, decision)) };
}

/** The AGENT messages of the action whose text is `text`, through REST. */
async function agentMessages(mock: MockProcess, text: string): Promise<unknown[]> {
  const detail = await json(`${mock.url}/v0/action/${ACTION}`, { headers: { 'x-api-key': READ_KEY } });
  expect(detail.status).toBe(200);
  const messages = detail.body['messages'] as { authorType: string; message: string }[];
  return messages.filter((m) => m.authorType === 'AGENT' && m.message === text);
}

describe('confirmation links shared by replicas through Redis', () => {
  let dir: string;
  let redis: RedisServer;
  let a: MockProcess;
  let b: MockProcess;
  let agentA: Agent;
  let agentB: Agent;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cca-reply-links-'));
    const file = join(dir, 'replies.json');
    writeFileSync(file, JSON.stringify(dataFile()));
    redis = await startRedis();
    const args = ['--data', file, '--clock', 'frozen', '--state', redis.url];
    // One after the other: the first writes the log's origin, the second checks it.
    a = await startMock(args);
    b = await startMock(args);
    agentA = await agentOn(a);
    agentB = await agentOn(b);
  }, scaled(60_000));
  afterAll(async () => {
    await agentA?.close();
    await agentB?.close();
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await redis?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    "a data file's request: its link issued by review_reply on A opens on B first thing; B's reads show that link",
    async () => {
      const path = await reviewedPath(agentA, FROM_FILE.reviewed);
      // Nothing on B asked for this link before the person opens it there.
      const opened = await openOn(b, path);
      expect(opened.html).toContain('From the file, reviewed');
      expect(await adminPath(b, FROM_FILE.reviewed)).toBe(path);
      expect(await reviewedPath(agentB, FROM_FILE.reviewed)).toBe(path);
      expect(await post(b, path, opened.csrf, 'approve')).toEqual({ status: 303, location: path });
      expect((await agentA.tool('open_reply', { requestId: FROM_FILE.reviewed })).content['state']).toBe(
        'queued',
      );
    },
    scaled(30_000),
  );

  it(
    "a data file's request: its link issued by an admin read on B opens on A first thing; A's review_reply gives it",
    async () => {
      const path = String(await adminPath(b, FROM_FILE.read));
      expect(path).toMatch(/^\/agent\/replies\/[A-Za-z0-9_-]{43}$/);
      const page = await fetch(`${a.url}${path}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('From the file, read');
      expect(await reviewedPath(agentA, FROM_FILE.read)).toBe(path);
      expect(await adminPath(a, FROM_FILE.read)).toBe(path);
    },
    scaled(30_000),
  );

  it(
    "a data file's request reviewed and read on both replicas at once gets one link, never two",
    async () => {
      const paths = await Promise.all([
        reviewedPath(agentA, FROM_FILE.raced),
        reviewedPath(agentB, FROM_FILE.raced),
        adminPath(a, FROM_FILE.raced),
        adminPath(b, FROM_FILE.raced),
        (async () => {
          const list = await json(`${a.url}/__mock/replies?organizationId=${ORG}`);
          const replies = list.body['replies'] as { requestId: string; approvalPath: unknown }[];
          return replies.find((r) => r.requestId === FROM_FILE.raced)?.approvalPath;
        })(),
      ]);
      expect(new Set(paths).size).toBe(1);
      for (const mock of [a, b]) {
        expect(await adminPath(mock, FROM_FILE.raced)).toBe(paths[0]);
        expect((await fetch(`${mock.url}${String(paths[0])}`)).status).toBe(200);
      }
    },
    scaled(30_000),
  );

  it(
    'AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS: prepared and reviewed on A, approved on B, seen on A, delivered once',
    async () => {
      const text = 'Fixed: the export finishes now.';
      const prepared = await agentA.tool('prepare_reply', { actionId: ACTION, text, requestId: LIVE });
      expect(prepared).toMatchObject({ isError: false, content: { state: 'draft', text } });
      const path = await reviewedPath(agentA, LIVE);
      expect(path).toMatch(/^\/agent\/replies\/[A-Za-z0-9_-]{43}$/);

      // The person's browser lands on B: the page shows the exact text and decides there.
      const decided = await decideOn(b, path, 'approve');
      expect(decided.html).toContain(text);
      expect(decided.status).toBe(303);
      expect(decided.location).toBe(path);
      const after = await fetch(`${b.url}${path}`);
      expect(await after.text()).toContain('Reply approved');

      // A sees it approved at once, through MCP and REST; B's form posted again on A is refused.
      expect((await agentA.tool('open_reply', { requestId: LIVE })).content['state']).toBe('queued');
      const onA = await json(`${a.url}/__mock/replies/${ORG}/${LIVE}`);
      expect(onA.body['reply']).toMatchObject({ state: 'queued', approvalPath: path });
      expect((await post(a, path, decided.csrf, 'approve')).status).toBe(409);
      expect(await agentMessages(a, text)).toEqual([]);

      // The shared clock moves (through B): A delivers it, and every replica shows it once.
      expect(
        (await json(`${b.url}/__mock/clock/advance`, { method: 'POST', body: '{"ms": 3000}' })).status,
      ).toBe(200);
      const opened = await agentA.tool('open_reply', { requestId: LIVE });
      expect(opened.content).toMatchObject({ state: 'delivered', delivery: { outcome: 'delivered' } });
      expect(
        (await json(`${b.url}/__mock/clock/advance`, { method: 'POST', body: '{"ms": 60000}' })).status,
      ).toBe(200);
      for (const mock of [a, b]) {
        expect(await agentMessages(mock, text)).toHaveLength(1);
        const reply = (await json(`${mock.url}/__mock/replies/${ORG}/${LIVE}`)).body['reply'] as {
          history: { to: string }[];
        };
        expect(reply.history.map((h) => h.to)).toEqual([
          'draft',
          'awaiting_approval',
          'queued',
          'delivering',
          'delivered',
        ]);
      }
      expect((await agentB.tool('open_reply', { requestId: LIVE })).content['state']).toBe('delivered');
    },
    scaled(60_000),
  );
});

describe('a confirmation link of a data file request survives a restart of a --state-file mock', () => {
  let dir: string;
  let mock: MockProcess | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cca-reply-links-file-'));
  });
  afterAll(async () => {
    await mock?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'the link issued before the restart opens after it, and is the one review_reply gives',
    async () => {
      const file = join(dir, 'replies.json');
      writeFileSync(file, JSON.stringify(dataFile()));
      const args = ['--data', file, '--clock', 'frozen', '--state-file', join(dir, 'sandbox.state')];
      mock = await startMock(args);
      const agent = await agentOn(mock);
      const path = await reviewedPath(agent, FROM_FILE.restarted);
      const read = await adminPath(mock, FROM_FILE.read);
      await agent.close();
      await mock.stop('SIGKILL');

      mock = await startMock(args);
      const again = await agentOn(mock);
      try {
        // The person opens the link first thing after the restart.
        const page = await fetch(`${mock.url}${path}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('From the file, restarted');
        expect(await adminPath(mock, FROM_FILE.read)).toBe(read);
        expect(await adminPath(mock, FROM_FILE.restarted)).toBe(path);
        expect(await reviewedPath(again, FROM_FILE.restarted)).toBe(path);
        const decided = await decideOn(mock, path, 'approve');
        expect(decided.html).toContain('From the file, restarted');
        expect(decided.status).toBe(303);
        expect((await again.tool('open_reply', { requestId: FROM_FILE.restarted })).content['state']).toBe(
          'queued',
        );
      } finally {
        await again.close();
      }
    },
    scaled(60_000),
  );
});
