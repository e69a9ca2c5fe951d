/**
 * Reply requests of the agent interface in data files: every state loads, a delivered one is an AGENT
 * message through REST like a live delivery, a loaded request awaiting approval gets its confirmation
 * link at its first review_reply or admin read (a `reply.review` command in the log, so engines sharing
 * the log know it and a replay gives it again), queued ones move on with the clock, the export carries
 * them (and not their messages twice), and bad ones are refused by JSON pointer.
 */
import { describe, expect, it } from 'vitest';
import { replyPages } from '../mocks/agent/replies/page.ts';
import { replyTools } from '../mocks/agent/replies/tools.ts';
import type { AgentContext, Outcome } from '../mocks/agent/types.ts';
import { adminRoutesPart } from '../mocks/engine/admin/part.ts';
import { MockClock } from '../mocks/engine/clock.ts';
import type { LoggedCommand } from '../mocks/engine/commands/types.ts';
import { createEngineWith } from '../mocks/engine/core.ts';
import { agentSays, scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import { exportDataFile } from '../mocks/engine/data-file/export.ts';
import { dataFilesPart } from '../mocks/engine/data-file/part.ts';
import { NOTHING_EXISTS } from '../mocks/engine/data-file/references.ts';
import { schemaProblems } from '../mocks/engine/data-file/schema.ts';
import type { DataFile, DataFileReplyRequest } from '../mocks/engine/data-file/types.ts';
import { checkDataFile } from '../mocks/engine/data-file/validate.ts';
import { createEngine, type Engine } from '../mocks/engine/index.ts';
import { reviewCommand } from '../mocks/engine/replies/links.ts';
import { REPLY_STATES } from '../mocks/engine/replies/model.ts';
import { approvalToken, TOKEN_PATTERN } from '../mocks/engine/replies/tokens.ts';
import type { ApplyEntry } from '../mocks/engine/store/types.ts';
import { admin, at, get, list } from './data-support.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const ORG = 'org_help';
const KEY = 'help_reporting_key';
const ACTION = '9007199254740993001';
const QUIET = '000123';

/** Every state of the reply model: a data file may hold a request in any of them. */
const STATES = REPLY_STATES;

function file(replies: readonly DataFileReplyRequest[]): DataFile {
  const base = scenario()
    .organization(ORG)
    .key({ key: KEY, profile: 'reporting' })
    .action({ actionId: ACTION, messages: [userSays('Is it fixed?', '-2d'), agentSays('Looking', '-47h')] })
    .action({ actionId: QUIET, messages: [userSays('Anyone there?', '-1d')] })
    .build();
  return { ...base, replyRequests: replies };
}

/** A UUID from a short name (request ids are UUIDs, as prepare_reply takes them). */
const id = (name: string): string =>
  `00000000-0000-4000-8000-${Buffer.from(name).toString('hex').padStart(12, '0').slice(-12)}`;

const reply = (
  requestId: string,
  state: DataFileReplyRequest['state'],
  more: Partial<DataFileReplyRequest> = {},
) =>
  ({
    organizationId: ORG,
    requestId: id(requestId),
    actionId: QUIET,
    text: `Reply ${requestId}`,
    state,
    createdAt: '-3h',
    updatedAt: '-2h',
    ...more,
  }) satisfies DataFileReplyRequest;

const engineOf = (data: DataFile): Engine =>
  createEngine({ data, clock: new MockClock({ start: START }), selfCheck: true });

function contextOf(engine: Engine): AgentContext {
  return {
    engine,
    identity: { organizationId: ORG, keyName: 'agent key', profile: 'read_write', scopes: ['read', 'write'] },
    publicOrigin: 'http://127.0.0.1:4010',
    signal: new AbortController().signal,
  };
}

async function tool(engine: Engine, name: string, args: Record<string, unknown>): Promise<Outcome<unknown>> {
  const found = replyTools.find((t) => t.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found.handle(contextOf(engine), args);
}

/**
 * One command log in memory that engines share as replicas share a Redis Stream: each applies it in
 * order, a write after everything before it, and `catchUp` applies what the others appended.
 */
function sharedLog() {
  const log: LoggedCommand[] = [];
  return {
    log,
    async join(engine: Engine): Promise<void> {
      let applied = 0;
      let apply: ApplyEntry = () => ({ ok: true, value: null });
      const upTo = (end: number): void => {
        for (; applied < end; applied++) apply(log[applied] as LoggedCommand);
      };
      await engine.useStore((entry) => {
        apply = entry;
        upTo(log.length);
        return {
          kind: 'memory',
          synchronous: true,
          write(command) {
            log.push(command);
            upTo(log.length - 1);
            applied++;
            return apply(command);
          },
          catchUp() {
            upTo(log.length);
            return undefined;
          },
          health: () => ({
            store: 'memory',
            location: null,
            position: applied,
            logLength: log.length,
            lag: log.length - applied,
            connected: true,
            lastError: null,
          }),
          close: async () => undefined,
        };
      });
    },
  };
}

const agentMessages = (detail: unknown): unknown[] =>
  list(detail, 'messages').filter((m) => at(m, 'authorType') === 'AGENT');

describe('data files: reply requests', () => {
  it('loads a request in every state; open_reply shows each one as loaded', async () => {
    // Updated now: the queued and delivering ones are not due yet (a frozen clock).
    const engine = engineOf(file(STATES.map((s, i) => reply(`req-${i}`, s, { updatedAt: 'now' }))));
    for (const [i, state] of STATES.entries()) {
      const open = await tool(engine, 'open_reply', { requestId: id(`req-${i}`) });
      if (!open.ok) throw new Error(JSON.stringify(open.failure));
      expect(at(open.value, 'state')).toBe(state);
      expect(at(open.value, 'actionId')).toBe(QUIET);
    }
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('a delivered request is an AGENT message through REST, counted and responded, like a live delivery', async () => {
    const before = engineOf(file([]));
    const quietBefore = await get(before, `/v0/action/${QUIET}`, KEY);
    expect(agentMessages(quietBefore.body)).toHaveLength(0);

    const engine = engineOf(file([reply('req-d', 'delivered', { preparedBy: 'Support bot' })]));
    const detail = await get(engine, `/v0/action/${QUIET}`, KEY);
    const agent = agentMessages(detail.body);
    expect(agent).toHaveLength(1);
    expect(at(agent[0], 'message')).toBe('Reply req-d');
    expect(at(agent[0], 'author')).toBe('Support bot');
    expect(at(agent[0], 'id')).toBe(`reply-${id('req-d')}`);
    expect(at(detail.body, 'totalAgentMessages')).toBe(1);
    const responded = await get(engine, '/v0/action/list?responded=true&limit=50', KEY);
    expect(list(responded.body, 'data').map((a) => at(a, 'actionId'))).toContain(QUIET);
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('scenario().replyRequest() answers the last action with defaults; the builder states only what matters', async () => {
    const data = scenario()
      .organization(ORG)
      .key({ key: KEY, profile: 'reporting' })
      .action({ actionId: QUIET, messages: [userSays('Anyone there?', '-1d')] })
      .replyRequest({ state: 'delivered', text: 'Here now', updatedAt: '-1h' })
      .replyRequest({ state: 'draft' })
      .build();
    expect(checkDataFile(data, NOTHING_EXISTS, START).ok).toBe(true);
    const engine = engineOf(data);
    const detail = await get(engine, `/v0/action/${QUIET}`, KEY);
    expect(agentMessages(detail.body).map((m) => at(m, 'message'))).toEqual(['Here now']);
    expect(data.replyRequests?.map((r) => r.actionId)).toEqual([QUIET, QUIET]);
    expect(() => scenario().organization(ORG).replyRequest({ state: 'draft' })).toThrow(/needs an actionId/);
  });

  it('a loaded request awaiting approval gets its confirmation link at review_reply; approved, it is delivered', async () => {
    const engine = engineOf(file([reply('req-a', 'awaiting_approval')]));
    const review = await tool(engine, 'review_reply', { requestId: id('req-a') });
    expect(review.ok).toBe(false);
    const failure = review.ok ? {} : review.failure;
    expect(at(failure, 'code')).toBe('APPROVAL_REQUIRED');
    const url = String(at(failure, 'approvalUrl'));
    const token = url.slice(url.lastIndexOf('/') + 1);
    expect(token).toMatch(TOKEN_PATTERN);
    expect(engine.state.replies.byToken.get(token)?.requestId).toBe(id('req-a'));
    // A second review gives the same link.
    const again = await tool(engine, 'review_reply', { requestId: id('req-a') });
    expect(at(again.ok ? {} : again.failure, 'approvalUrl')).toBe(url);

    const viewed = await admin(engine, 'GET', `/__mock/replies/${ORG}/${id('req-a')}`);
    expect(at(viewed.body, 'reply', 'approvalPath')).toBe(`/agent/replies/${token}`);
    expect((await admin(engine, 'POST', `/__mock/replies/${ORG}/${id('req-a')}/approve`)).status).toBe(200);
    engine.clock.advance(3_000);
    const detail = await get(engine, `/v0/action/${QUIET}`, KEY);
    expect(agentMessages(detail.body).map((m) => at(m, 'message'))).toEqual(['Reply req-a']);
  });

  it('the admin list shows the page path of a loaded request awaiting approval (issued at that read)', async () => {
    const engine = engineOf(file([reply('req-l', 'awaiting_approval')]));
    const listed = await admin(engine, 'GET', '/__mock/replies');
    const path = String(at(list(listed.body, 'replies')[0], 'approvalPath'));
    expect(path).toMatch(/^\/agent\/replies\/[A-Za-z0-9_-]{43}$/);
    // review_reply gives the same link afterwards.
    const review = await tool(engine, 'review_reply', { requestId: id('req-l') });
    expect(String(at(review.ok ? {} : review.failure, 'approvalUrl')).endsWith(path)).toBe(true);
  });

  it("a loaded request's link is a logged reply.review: engines sharing the log know it, the first one issued stays, a replay gives the same links", async () => {
    const data = file([reply('req-x', 'awaiting_approval'), reply('req-y', 'awaiting_approval')]);
    const shared = sharedLog();
    const [a, b] = [engineOf(data), engineOf(data)] as const;
    await shared.join(a);
    await shared.join(b);

    // An admin read on A issues the link of the request it shows, one command; B has it without a read.
    const viewed = await admin(a, 'GET', `/__mock/replies/${ORG}/${id('req-x')}`);
    const path = String(at(viewed.body, 'reply', 'approvalPath'));
    expect(path).toMatch(/^\/agent\/replies\/[A-Za-z0-9_-]{43}$/);
    expect(shared.log.map((e) => e.command.type)).toEqual(['reply.review']);
    b.catchUp();
    const page = await replyPages(new Request(`http://replica-b.test${path}`), b);
    expect(page?.status).toBe(200);
    const review = await tool(b, 'review_reply', { requestId: id('req-x') });
    expect(String(at(review.ok ? {} : review.failure, 'approvalUrl')).endsWith(path)).toBe(true);
    // A link issued is never issued again: reads and reviews on either engine add nothing to the log.
    await admin(b, 'GET', '/__mock/replies');
    expect(shared.log).toHaveLength(2); // req-y's link, issued by that list
    await admin(a, 'GET', '/__mock/replies');
    await tool(a, 'review_reply', { requestId: id('req-y') });
    expect(shared.log).toHaveLength(2);

    // Two engines signing a link for one request at once (different serials): the first in the log stays.
    const fresh = engineOf(data);
    await sharedLog().join(fresh);
    const request = fresh.state.replies.byOrganization.get(ORG)?.get(id('req-x'));
    if (request === undefined) throw new Error('req-x not loaded');
    const first = await reviewCommand(fresh.state.replies, request);
    const serial = first.serial + 1;
    const second = {
      ...first,
      serial,
      token: await approvalToken(fresh.state.replies.signer, serial, ORG, id('req-x')),
    };
    expect(second.token).not.toBe(first.token);
    expect(await fresh.execute(first)).toBe(request);
    expect(await fresh.execute(second)).toBe(request);
    expect(request.approvalToken).toBe(first.token);
    expect(fresh.state.replies.byToken.has(second.token)).toBe(false);
    expect(request.state).toBe('awaiting_approval');
    expect(request.history.map((h) => h.to)).toEqual(['draft', 'awaiting_approval']);

    // The same log replayed by a new engine gives the same links.
    const replayed = engineOf(data);
    await shared.join(replayed);
    const links = async (engine: Engine) =>
      list((await admin(engine, 'GET', `/__mock/replies?organizationId=${ORG}`)).body, 'replies').map((r) =>
        at(r, 'approvalPath'),
      );
    expect(await links(replayed)).toEqual(await links(a));
    expect([...replayed.state.replies.byToken.keys()]).toEqual([...a.state.replies.byToken.keys()]);
    expect(shared.log).toHaveLength(2);
  });

  it("an engine without the agent's writes (a page's MSW engine) lists a loaded request awaiting approval, with no page path", async () => {
    const page = createEngineWith(
      { adminRoutes: adminRoutesPart, dataFiles: dataFilesPart },
      { data: file([reply('req-p', 'awaiting_approval')]), clock: new MockClock({ start: START }) },
    );
    const listed = await admin(page, 'GET', '/__mock/replies');
    expect(listed.status).toBe(200);
    expect(list(listed.body, 'replies')[0]).toMatchObject({ state: 'awaiting_approval', approvalPath: null });
    expect((await admin(page, 'GET', `/__mock/replies/${ORG}/${id('req-p')}`)).status).toBe(200);
  });

  it('a queued request moves on with the clock from its updatedAt: delivered at the first read', async () => {
    const engine = engineOf(file([reply('req-q', 'queued', { updatedAt: '-1m' })]));
    const detail = await get(engine, `/v0/action/${QUIET}`, KEY);
    expect(agentMessages(detail.body)).toHaveLength(1);
    const open = await tool(engine, 'open_reply', { requestId: id('req-q') });
    expect(at(open.ok ? open.value : {}, 'state')).toBe('delivered');

    const failing = engineOf(
      file([reply('req-f', 'delivering', { updatedAt: '-1m', plannedOutcome: 'failed' })]),
    );
    expect(agentMessages((await get(failing, `/v0/action/${QUIET}`, KEY)).body)).toHaveLength(0);
    const failed = await tool(failing, 'open_reply', { requestId: id('req-f') });
    expect(at(failed.ok ? failed.value : {}, 'state')).toBe('failed');
  });

  it('export, load again: the same export and the same reads; a delivered message is not doubled', async () => {
    const first = engineOf(file(STATES.map((s, i) => reply(`req-${i}`, s))));
    // A live delivery too, through the tools and the admin approval.
    await tool(first, 'prepare_reply', { actionId: ACTION, text: 'Fixed now', requestId: id('live-1') });
    await tool(first, 'review_reply', { requestId: id('live-1') });
    await admin(first, 'POST', `/__mock/replies/${ORG}/${id('live-1')}/approve`);
    first.clock.advance(3_000);
    const detail = (await get(first, `/v0/action/${ACTION}`, KEY)).body;
    expect(agentMessages(detail).map((m) => at(m, 'message'))).toEqual(['Looking', 'Fixed now']);

    const exported = exportDataFile(first.state);
    expect(exported.replyRequests).toHaveLength(STATES.length + 1);
    const second = createEngine({
      data: exported,
      clock: new MockClock({ start: first.clock.now() }),
      selfCheck: true,
    });
    expect(exportDataFile(second.state)).toEqual(exported);
    for (const id of [ACTION, QUIET])
      expect((await get(second, `/v0/action/${id}`, KEY)).body).toEqual(
        (await get(first, `/v0/action/${id}`, KEY)).body,
      );
    expect([...first.selfCheckFailures, ...second.selfCheckFailures]).toEqual([]);
  });

  it('the JSON Schema (compiled strictly) refuses an unknown state and a requestId that is not a UUID', () => {
    const bad = file([reply('r1', 'draft')]);
    const broken = {
      ...bad,
      replyRequests: [
        { ...bad.replyRequests?.[0], state: 'sent' },
        { ...bad.replyRequests?.[0], requestId: 'r-1' },
      ],
    };
    const pointers = schemaProblems(broken).map((p) => p.pointer);
    expect(pointers).toContain('/replyRequests/0/state');
    expect(pointers).toContain('/replyRequests/1/requestId');
  });

  it('refuses a request for an unknown action, a duplicate id, a planned outcome on a settled one', () => {
    const check = checkDataFile(
      file([
        reply('r1', 'draft', { actionId: 'no-such-action' }),
        reply('r2', 'draft'),
        reply('r2', 'queued'),
        reply('r3', 'delivered', { plannedOutcome: 'failed' }),
        reply('r4', 'draft', { createdAt: '-1h', updatedAt: '-2h' }),
      ]),
      NOTHING_EXISTS,
      START,
    );
    expect(check.ok).toBe(false);
    const pointers = check.ok ? [] : check.problems.map((p) => p.pointer);
    expect(pointers).toEqual([
      '/replyRequests/0/actionId',
      '/replyRequests/2/requestId',
      '/replyRequests/3/plannedOutcome',
      '/replyRequests/4/updatedAt',
    ]);
  });
});
