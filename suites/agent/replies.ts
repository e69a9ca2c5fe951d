/**
 * Replies (4.18, section 3): writes that the suite NEVER approves. `prepare_reply` gives a draft, not
 * a delivery; the same `requestId` and input answers the same request; a changed input under it is
 * refused; a non-UUID `requestId` is invalid input naming it; `review_reply` is approval required,
 * never success; `open_reply` and REST show no delivery without a person; a plain `GET` of the link
 * approves nothing. On a live service every request the suite prepares stays unapproved.
 */
import { randomUUID } from 'node:crypto';
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { dataOf, type McpSession, type ToolAnswer, textOf } from '../../src/conformance/kit/mcp/session.ts';
import { call } from '../laws/support.ts';
import { Absent, agentExamples, isObj, requireTool, withSession } from './support.ts';
import { failureText } from './tools.ts';

const GROUP = 'agent';
/** Shown in every reply law's title and in the docs: the suite never approves a reply. */
export const NEVER_APPROVES = 'the suite never approves a reply';

/** The first `state` (or `status`) string in a reply answer. */
export function stateOf(value: unknown, depth = 0): string | undefined {
  if (!isObj(value) || depth > 3) return undefined;
  for (const key of ['state', 'status']) if (typeof value[key] === 'string') return value[key] as string;
  for (const v of Object.values(value)) {
    const found = stateOf(v, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A state a request may only reach after a person approved (names are not shown: read by meaning). */
export function looksApproved(state: string | undefined): boolean {
  return state !== undefined && /(^|[_\s-])(approved|queued|delivering|delivered|sent|posted)$/i.test(state);
}

const succeeded = (a: ToolAnswer): boolean => a.kind === 'result' && !a.isError;

/** An action of the read key's organization, through REST (the reply target). */
async function someAction(ctx: LawContext): Promise<string> {
  return ctx.memo('agent:reply-action', async () => {
    const from = new Date(ctx.now() - 365 * 86_400_000).toISOString();
    const res = await call(ctx, 'listActions', { auth: 'read', query: { pageSize: 5, from } });
    const data = res.ok && isObj(res.body) && Array.isArray(res.body['data']) ? res.body['data'] : [];
    const first = data.find(isObj);
    if (first === undefined || typeof first['actionId'] !== 'string')
      throw new Absent('no action in the last year to prepare a reply to');
    return first['actionId'];
  });
}

/** Agent messages on the action whose text is `text` (a delivered reply), through REST. */
async function deliveredCopies(ctx: LawContext, actionId: string, text: string): Promise<number> {
  const res = await call(ctx, 'getAction', { auth: 'read', path: { id: actionId } });
  const messages =
    res.ok && isObj(res.body) && Array.isArray(res.body['messages']) ? res.body['messages'] : [];
  return messages.filter((m) => isObj(m) && m['authorType'] === 'AGENT' && m['message'] === text).length;
}

interface Prepared {
  readonly session: McpSession;
  readonly actionId: string;
  readonly text: string;
  readonly requestId: string;
  readonly answer: ToolAnswer;
}

async function prepare(ctx: LawContext, session: McpSession): Promise<Prepared> {
  const actionId = await someAction(ctx);
  const text = `${ctx.unique('reply')}: a conformance check; this reply must never be sent`;
  const requestId = randomUUID();
  const answer = await session.callTool('prepare_reply', { actionId, text, requestId });
  if (!succeeded(answer))
    violate(
      'AGENT-MCP-REPLY-HUMAN-MUST-CONFIRM',
      'prepare-failed',
      `prepare_reply failed: ${failureText(answer).slice(0, 300)}`,
      { actionId, requestId },
    );
  exactDraft(answer, text, { actionId, requestId });
  if (looksApproved(stateOf(dataOf(answer))))
    violate(
      'AGENT-MCP-REPLY-HUMAN-MUST-CONFIRM',
      'prepare-delivers',
      `prepare_reply answered state ${stateOf(dataOf(answer))}: a draft, not a delivery`,
      { actionId, requestId },
    );
  return { session, actionId, text, requestId, answer };
}

/** The first `text` string in a reply answer (the draft, where the deployment shows it). */
function draftTextOf(value: unknown, depth = 0): string | undefined {
  if (!isObj(value) || depth > 3) return undefined;
  if (typeof value['text'] === 'string') return value['text'];
  for (const v of Object.values(value)) {
    const found = draftTextOf(v, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** "prepare one exact reply draft": a draft the answer shows is the text given, byte for byte. */
function exactDraft(answer: ToolAnswer, text: string, example: unknown): void {
  const shown = draftTextOf(dataOf(answer));
  if (shown !== undefined && shown !== text)
    violate(
      'AGENT-MCP-PREPARE-EXACT-DRAFT',
      'draft-changed',
      `the draft shows ${JSON.stringify(shown.slice(0, 200))}, not the exact text given ${JSON.stringify(text)}`,
      example,
    );
}

async function replyLaw(ctx: LawContext, body: (session: McpSession) => Promise<number>): Promise<number> {
  await requireTool(ctx, 'write', 'prepare_reply');
  return withSession(ctx, 'write', body);
}

const idempotent: Law = {
  id: 'agent.replies.prepare-idempotent',
  group: GROUP,
  title: `prepare_reply: a draft; same requestId and input = same request; changed input refused; non-UUID requestId invalid (${NEVER_APPROVES})`,
  ruleIds: [
    'AGENT-MCP-WRITE-TIMEOUT-CHECK-EXISTING',
    'AGENT-MCP-OPEN-REPLY-READS-EXISTING',
    'AGENT-MCP-PREPARE-REQUESTID-UUID',
    'AGENT-MCP-PREPARE-EXACT-DRAFT',
  ],
  needs: { keys: ['read', 'write'], writes: true },
  run: (ctx) =>
    agentExamples(ctx, () =>
      replyLaw(ctx, async (session) => {
        const p = await prepare(ctx, session);
        const args = { actionId: p.actionId, text: p.text, requestId: p.requestId };
        const again = await session.callTool('prepare_reply', args);
        if (!succeeded(again))
          violate(
            'AGENT-MCP-WRITE-TIMEOUT-CHECK-EXISTING',
            'retry-refused',
            `the same prepare_reply again (a retry after a time-out) was refused: ${failureText(again).slice(0, 300)}`,
            args,
          );
        const firstId = JSON.stringify(dataOf(p.answer)).includes(p.requestId);
        if (firstId && !JSON.stringify(dataOf(again)).includes(p.requestId))
          violate(
            'AGENT-MCP-WRITE-TIMEOUT-CHECK-EXISTING',
            'retry-new-request',
            'the retry answered another request than the first',
            args,
          );
        const changed = await session.callTool('prepare_reply', { ...args, text: `${p.text} (changed)` });
        if (succeeded(changed))
          violate(
            'AGENT-MCP-WRITE-TIMEOUT-CHECK-EXISTING',
            'changed-accepted',
            'prepare_reply with the same requestId and another text was accepted',
            args,
          );
        const open = await session.callTool('open_reply', { requestId: p.requestId });
        if (!succeeded(open) || !JSON.stringify(dataOf(open)).includes(p.actionId))
          violate(
            'AGENT-MCP-OPEN-REPLY-READS-EXISTING',
            'open-failed',
            `open_reply of the prepared request did not read it: ${failureText(open).slice(0, 300)}`,
            args,
          );
        exactDraft(open, p.text, args);
        const bad = await session.callTool('prepare_reply', {
          ...args,
          requestId: `not-a-uuid-${p.requestId.slice(0, 8)}`,
        });
        if (!succeeded(bad) && !failureText(bad).includes('requestId'))
          violate(
            'AGENT-MCP-PREPARE-REQUESTID-UUID',
            'unnamed',
            `a non-UUID requestId was refused without naming requestId: ${failureText(bad).slice(0, 300)}`,
            args,
          );
        if (succeeded(bad))
          throw new Absent(
            'the deployment accepts a requestId that is not a UUID; the spec asks clients for a fresh UUID (mock-only rule)',
          );
        return 5;
      }),
    ),
};

const reviewNeedsPerson: Law = {
  id: 'agent.replies.review-needs-a-person',
  group: GROUP,
  title: `review_reply is approval required, never success; open_reply and REST show no delivery without a person (${NEVER_APPROVES})`,
  ruleIds: [
    'AGENT-MCP-APPROVAL-REQUIRED-NOT-SUCCESS',
    'AGENT-MCP-NEVER-APPROVED-ON-USER-BEHALF',
    'AGENT-MCP-REPLY-HUMAN-MUST-CONFIRM',
    'AGENT-MCP-REPLY-STATES-SEPARATE',
  ],
  needs: { keys: ['read', 'write'], writes: true },
  run: (ctx) =>
    agentExamples(ctx, () =>
      replyLaw(ctx, async (session) => {
        const p = await prepare(ctx, session);
        const draft = stateOf(dataOf(await session.callTool('open_reply', { requestId: p.requestId })));
        const review = await session.callTool('review_reply', { requestId: p.requestId });
        const said = `${failureText(review)}`;
        if (succeeded(review) && !/approval/i.test(said))
          violate(
            'AGENT-MCP-APPROVAL-REQUIRED-NOT-SUCCESS',
            'review-success',
            `review_reply answered a success without approval required: ${said.slice(0, 300)}`,
            { requestId: p.requestId },
          );
        if (/\b(sent|delivered|posted)\b/i.test(textOf(review)) && !/not|never|nothing/i.test(textOf(review)))
          violate(
            'AGENT-MCP-APPROVAL-REQUIRED-NOT-SUCCESS',
            'review-sent',
            `review_reply reports the reply as sent: ${textOf(review).slice(0, 300)}`,
            { requestId: p.requestId },
          );
        await checkNotDelivered(ctx, p, 'AGENT-MCP-NEVER-APPROVED-ON-USER-BEHALF', 'after review_reply');
        // Without approving (never), the suite can only see the states before approval: each named,
        // neither a delivery state. A delivered request's state is left to the mock's own tests.
        const awaiting = stateOf(dataOf(await session.callTool('open_reply', { requestId: p.requestId })));
        if (draft === undefined || awaiting === undefined)
          violate(
            'AGENT-MCP-REPLY-STATES-SEPARATE',
            'no-state',
            `open_reply reports no state (draft: ${draft}, after review: ${awaiting})`,
            { requestId: p.requestId },
          );
        return 4;
      }),
    ),
};

/** open_reply not past approval, and no AGENT message with the text through REST, over a few polls. */
async function checkNotDelivered(ctx: LawContext, p: Prepared, rule: string, when: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const open = await p.session.callTool('open_reply', { requestId: p.requestId });
    const state = stateOf(dataOf(open));
    if (looksApproved(state))
      violate(
        rule,
        'approved-without-person',
        `${when}, without any person, open_reply reports state ${state}`,
        { requestId: p.requestId },
      );
    if ((await deliveredCopies(ctx, p.actionId, p.text)) > 0)
      violate(
        'AGENT-MCP-REPLY-HUMAN-MUST-CONFIRM',
        'delivered-without-person',
        `${when}, without any person, the reply shows as an AGENT message on action ${p.actionId} through REST`,
        { requestId: p.requestId },
      );
    await ctx.poll();
  }
}

/** The first http(s) URL in an answer (the confirmation link), if any. */
function linkIn(answer: ToolAnswer): string | undefined {
  const data = dataOf(answer);
  if (isObj(data) && typeof data['approvalUrl'] === 'string') return data['approvalUrl'];
  return /https?:\/\/[^\s"'<>]+/.exec(failureText(answer))?.[0];
}

const linkGet: Law = {
  id: 'agent.replies.link-get-approves-nothing',
  group: GROUP,
  title: `the review link answers a page; a plain GET of it (a link previewer) approves nothing (${NEVER_APPROVES})`,
  ruleIds: ['AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS'],
  needs: { keys: ['read', 'write'], writes: true },
  run: (ctx) =>
    agentExamples(ctx, () =>
      replyLaw(ctx, async (session) => {
        const p = await prepare(ctx, session);
        const review = await session.callTool('review_reply', { requestId: p.requestId });
        const link = linkIn(review);
        if (link === undefined)
          throw new Absent('review_reply returned no link (4.18 rule 4 applies only if it does)');
        const url = new URL(link);
        // A link on the agent endpoint's origin goes through the recorded client (it shows in the
        // reproduction); a link elsewhere is fetched as a previewer would, keyless.
        const status =
          url.origin === new URL(ctx.mcp.url).origin
            ? (
                await ctx.mcp.client.request({
                  method: 'GET',
                  path: url.pathname + url.search,
                  auth: 'none',
                  headers: { accept: 'text/html' },
                })
              ).status
            : (
                await fetch(url, {
                  headers: { accept: 'text/html' },
                  redirect: 'manual',
                  signal: AbortSignal.timeout(15_000),
                })
              ).status;
        if (status !== 200)
          violate(
            'AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS',
            'link-status',
            `GET of the review link answered ${status}, not a page`,
            { link },
          );
        await checkNotDelivered(
          ctx,
          p,
          'AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS',
          'after a plain GET of the review link',
        );
        return 2;
      }),
    ),
};

export const replyLaws: readonly Law[] = [idempotent, reviewNeedsPerson, linkGet];
