/**
 * The reply tools through direct calls of their handlers (an AgentContext over an in-process engine,
 * self-check on): input checks naming the field, idempotent retries and conflicts, requestIds per
 * organization, approval_required never a success, and what a delivered, failed or unknown reply does
 * to the action through REST (messages, counts, the responded list, analytics).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TEXT_CODE_POINTS } from '../mocks/agent/replies/index.ts';
import { upsertIngestedAction } from '../mocks/engine/records/index.ts';
import {
  failureOf,
  ORG,
  ORIGIN,
  OTHER_ORG,
  type ReplyHarness,
  replyHarness,
  successOf,
  uuidOf,
} from './support/reply-harness.ts';

/** An ingested action's creation time: a day before the harness clock. */
const REPLY_CREATED = '2026-11-19T12:00:00.000Z';

let h: ReplyHarness;
const fresh = (options: Parameters<typeof replyHarness>[0] = {}) => {
  h = replyHarness(options);
  return h;
};
afterEach(() => {
  expect(h.engine.selfCheckFailures).toEqual([]);
  expect(h.engine.unexpectedErrors).toEqual([]);
});

const detailOf = async (actionId: string) => {
  const answer = await h.rest(`/v0/action/${encodeURIComponent(actionId)}`);
  expect(answer.status).toBe(200);
  return (answer.body['data'] ?? answer.body) as Record<string, unknown> & {
    messages: { id: string; authorType: string; message: string; timestamp: string }[];
  };
};

const listedIds = async (query = '') => {
  const answer = await h.rest(`/v0/action/list?pageSize=500${query}`);
  expect(answer.status).toBe(200);
  return (answer.body['data'] as { actionId: string }[]).map((a) => a.actionId);
};

/** Prepares and reviews a reply; returns the approval link. */
async function toApproval(
  actionId: string,
  requestId: string,
  text = 'Thanks for waiting: it is fixed now.',
) {
  successOf(await h.call('prepare_reply', { actionId, text, requestId }));
  const review = failureOf(await h.call('review_reply', { requestId }));
  expect(review['kind']).toBe('approval_required');
  return String(review['approvalUrl']);
}

describe('prepare_reply input', () => {
  it('AGENT-MCP-PREPARE-REQUESTID-UUID: a requestId that is not a UUID is invalid input naming requestId', async () => {
    const [actionId] = fresh().unresponded();
    for (const requestId of [
      '',
      'not-a-uuid',
      '123',
      `${uuidOf(1)} `,
      `{${uuidOf(1)}}`,
      uuidOf(1).replace(/-/g, ''),
    ]) {
      const failure = failureOf(await h.call('prepare_reply', { actionId, text: 'hi', requestId }));
      expect(failure).toMatchObject({ kind: 'invalid_input', code: 'INVALID_INPUT', field: '/requestId' });
    }
    for (const requestId of [7, null, undefined]) {
      const failure = failureOf(await h.call('prepare_reply', { actionId, text: 'hi', requestId }));
      expect(failure['field']).toBe('/requestId');
    }
    expect(h.engine.state.replies.byOrganization.get(ORG)?.size ?? 0).toBe(0);
  });

  it('an unknown action, or another organization’s, is not_found naming actionId (ids byte for byte)', async () => {
    const [actionId = ''] = fresh().unresponded();
    const [foreign = ''] = h.unresponded(OTHER_ORG);
    for (const id of [
      '999',
      `${actionId} `,
      ` ${actionId}`,
      `0${actionId}`,
      actionId.slice(0, -1),
      foreign,
    ]) {
      const failure = failureOf(
        await h.call('prepare_reply', { actionId: id, text: 'hi', requestId: uuidOf(2) }),
      );
      expect(failure).toMatchObject({ kind: 'not_found', code: 'NOT_FOUND', field: '/actionId' });
    }
    const prepared = successOf(await h.call('prepare_reply', { actionId, text: 'hi', requestId: uuidOf(2) }));
    expect(prepared['actionId']).toBe(actionId);
    expect(typeof prepared['actionId']).toBe('string');
  });

  it('text: empty, only spaces or over the limit is invalid input naming text; the limit counts code points', async () => {
    const [actionId] = fresh().unresponded();
    for (const text of ['', '   \n\t', 'x'.repeat(MAX_TEXT_CODE_POINTS + 1), 42]) {
      const failure = failureOf(await h.call('prepare_reply', { actionId, text, requestId: uuidOf(3) }));
      expect(failure).toMatchObject({ kind: 'invalid_input', field: '/text' });
    }
    // 4000 emoji are 8000 UTF-16 units but 4000 characters: accepted, kept exactly.
    const emoji = '🙂'.repeat(MAX_TEXT_CODE_POINTS);
    const prepared = successOf(
      await h.call('prepare_reply', { actionId, text: emoji, requestId: uuidOf(3) }),
    );
    expect(prepared['text']).toBe(emoji);
  });

  it('serverId, isPublicReply and unknown arguments are checked, each naming the field', async () => {
    const [actionId] = fresh().unresponded();
    const cases: [Record<string, unknown>, string][] = [
      [{ serverId: '' }, '/serverId'],
      [{ serverId: 12 }, '/serverId'],
      [{ isPublicReply: 'yes' }, '/isPublicReply'],
      [{ sendNow: true }, '/sendNow'],
    ];
    for (const [extra, field] of cases) {
      const failure = failureOf(
        await h.call('prepare_reply', { actionId, text: 'hi', requestId: uuidOf(4), ...extra }),
      );
      expect(failure).toMatchObject({ kind: 'invalid_input', field });
    }
  });

  it('a public reply to a private action is refused naming isPublicReply; absent, the reply is as public as the action', async () => {
    fresh();
    const details = await Promise.all(h.unresponded().slice(0, 40).map(detailOf));
    const privateOne = details.find((d) => d['isPublicPost'] === false);
    const publicOne = details.find((d) => d['isPublicPost'] === true);
    if (privateOne === undefined || publicOne === undefined)
      throw new Error('the seed has no private/public pair');
    const failure = failureOf(
      await h.call('prepare_reply', {
        actionId: privateOne['actionId'],
        text: 'hi',
        requestId: uuidOf(5),
        isPublicReply: true,
      }),
    );
    expect(failure).toMatchObject({ kind: 'invalid_input', field: '/isPublicReply' });
    const priv = successOf(
      await h.call('prepare_reply', { actionId: privateOne['actionId'], text: 'hi', requestId: uuidOf(6) }),
    );
    expect(priv['destination']).toMatchObject({ visibility: 'private', platform: privateOne['platform'] });
    const pub = successOf(
      await h.call('prepare_reply', {
        actionId: publicOne['actionId'],
        text: 'hi',
        requestId: uuidOf(7),
        serverId: '000123',
      }),
    );
    expect(pub['destination']).toMatchObject({
      visibility: 'public',
      serverId: '000123',
      serverName: publicOne['serverName'],
      channelName: publicOne['channelName'],
    });
  });
});

describe('idempotency and conflicts', () => {
  it('AGENT-MCP-WRITE-TIMEOUT-CHECK-EXISTING: the same requestId and input answers the existing request, never a second one', async () => {
    const [actionId] = fresh().unresponded();
    const input = { actionId, text: 'Same text', requestId: uuidOf(10), isPublicReply: false };
    const first = successOf(await h.call('prepare_reply', input));
    const again = successOf(await h.call('prepare_reply', { ...input }));
    expect(again).toEqual(first);
    expect(h.engine.state.replies.byOrganization.get(ORG)?.size).toBe(1);
    // After review, a retried prepare answers the request as it is now (awaiting approval), not a new draft.
    await h.call('review_reply', { requestId: uuidOf(10) });
    expect(successOf(await h.call('prepare_reply', input))['state']).toBe('awaiting_approval');
  });

  it('the same requestId with a different input is a conflict naming requestId, and changes nothing', async () => {
    const [actionId = '', otherAction = ''] = fresh().unresponded();
    const requestId = uuidOf(11);
    const first = successOf(await h.call('prepare_reply', { actionId, text: 'One', requestId }));
    const variants: Record<string, unknown>[] = [
      { actionId, text: 'Two', requestId },
      { actionId, text: 'One ', requestId },
      { actionId: otherAction, text: 'One', requestId },
      { actionId, text: 'One', requestId, serverId: 's' },
      { actionId, text: 'One', requestId, isPublicReply: false },
    ];
    for (const variant of variants) {
      const failure = failureOf(await h.call('prepare_reply', variant));
      expect(failure).toMatchObject({ kind: 'conflict', code: 'CONFLICT', field: '/requestId' });
    }
    expect(successOf(await h.call('open_reply', { requestId }))).toEqual(first);
  });

  it('AGENT-MCP-WRITE-TIMEOUT-CHECK-EXISTING (property): with one requestId, a second prepare succeeds with the same answer exactly when its input is the same; otherwise a conflict; one request either way', async () => {
    const [a = '', b = ''] = fresh().unresponded();
    const input = fc.record(
      {
        actionId: fc.constantFrom(a, b),
        text: fc.constantFrom('Hello', 'Hello ', 'hello', 'Héllo', 'He\u0301llo', '🙂'),
        serverId: fc.constantFrom('s1', 's2', '0s1'),
        isPublicReply: fc.constant(false),
      },
      { requiredKeys: ['actionId', 'text'] },
    );
    let n = 100;
    await fc.assert(
      fc.asyncProperty(input, input, async (first, second) => {
        const requestId = uuidOf(n++);
        const one = successOf(await h.call('prepare_reply', { ...first, requestId }));
        const two = await h.call('prepare_reply', { ...second, requestId });
        const same =
          JSON.stringify(Object.entries(first).sort()) === JSON.stringify(Object.entries(second).sort());
        if (same) expect(successOf(two)).toEqual(one);
        else expect(failureOf(two)).toMatchObject({ kind: 'conflict', field: '/requestId' });
        expect(successOf(await h.call('open_reply', { requestId }))).toEqual(one);
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('AGENT-MCP-IDS-STRINGS-PRESERVED (property): an actionId differing from a real one in any byte (spaces, zeros, Unicode forms) is not found', async () => {
    const [actionId = ''] = fresh().unresponded();
    const variant = fc.oneof(
      fc
        .constantFrom(' ', '\u00a0', '\t', '0', '\u200b', '\u0301')
        .chain((extra) => fc.constantFrom(`${extra}${actionId}`, `${actionId}${extra}`)),
      fc.nat(actionId.length - 1).map((i) => `${actionId.slice(0, i)}${actionId.slice(i + 1)}`),
      fc
        .nat(actionId.length - 1)
        .map(
          (i) =>
            `${actionId.slice(0, i)}${'０１２３４５６７８９'[Number.parseInt(actionId[i] ?? '0', 10)] ?? 'x'}${actionId.slice(i + 1)}`,
        ),
    );
    await fc.assert(
      fc.asyncProperty(variant, async (id) => {
        fc.pre(id !== actionId);
        const failure = failureOf(
          await h.call('prepare_reply', { actionId: id, text: 'hi', requestId: uuidOf(500) }),
        );
        expect(failure).toMatchObject({ kind: 'not_found', field: '/actionId' });
      }),
      { numRuns: 100, seed: 8 },
    );
    const prepared = successOf(
      await h.call('prepare_reply', { actionId, text: 'hi', requestId: uuidOf(500) }),
    );
    expect(prepared['actionId']).toBe(actionId);
  });

  it('requestIds are per organization: another organization neither sees nor collides with it', async () => {
    const [actionId] = fresh().unresponded();
    const [foreignAction] = h.unresponded(OTHER_ORG);
    const requestId = uuidOf(12);
    await toApproval(actionId ?? '', requestId);
    const other = failureOf(await h.call('open_reply', { requestId }, OTHER_ORG));
    expect(other).toMatchObject({ kind: 'not_found', field: '/requestId' });
    expect(failureOf(await h.call('review_reply', { requestId }, OTHER_ORG))['kind']).toBe('not_found');
    const theirs = successOf(
      await h.call('prepare_reply', { actionId: foreignAction, text: 'Theirs', requestId }, OTHER_ORG),
    );
    expect(theirs['state']).toBe('draft');
    expect(successOf(await h.call('open_reply', { requestId }))['state']).toBe('awaiting_approval');
  });
});

describe('review and approval', () => {
  it('AGENT-MCP-APPROVAL-REQUIRED-NOT-SUCCESS: review_reply answers approval_required with a link on the mock origin, again the same', async () => {
    const [actionId = ''] = fresh().unresponded();
    const requestId = uuidOf(20);
    successOf(await h.call('prepare_reply', { actionId, text: 'Hello', requestId }));
    const first = await h.call('review_reply', { requestId });
    expect(first.ok).toBe(false);
    const failure = failureOf(first);
    expect(failure).toMatchObject({ kind: 'approval_required', code: 'APPROVAL_REQUIRED', requestId });
    expect(String(failure['approvalUrl'])).toMatch(new RegExp(`^${ORIGIN}/agent/replies/[A-Za-z0-9_-]{43}$`));
    expect(failureOf(await h.call('review_reply', { requestId }))).toEqual(failure);
    const opened = successOf(await h.call('open_reply', { requestId }));
    expect(opened).toMatchObject({
      state: 'awaiting_approval',
      phase: 'approval',
      approvalUrl: failure['approvalUrl'],
      delivery: { outcome: null, messageId: null },
    });
  });

  it('in process (no origin) the link is null, and the request still awaits approval', async () => {
    const [actionId = ''] = fresh({ origin: null }).unresponded();
    const requestId = uuidOf(21);
    successOf(await h.call('prepare_reply', { actionId, text: 'Hello', requestId }));
    expect(failureOf(await h.call('review_reply', { requestId }))).toMatchObject({
      kind: 'approval_required',
      approvalUrl: null,
    });
  });

  it('review or open of an unknown request is not_found naming requestId; a bad id is invalid input', async () => {
    fresh();
    expect(failureOf(await h.call('review_reply', { requestId: uuidOf(99) }))).toMatchObject({
      kind: 'not_found',
      field: '/requestId',
    });
    expect(failureOf(await h.call('open_reply', { requestId: 'x' }))).toMatchObject({
      kind: 'invalid_input',
      field: '/requestId',
    });
    expect(failureOf(await h.call('open_reply', { requestId: uuidOf(1), extra: 1 }))).toMatchObject({
      kind: 'invalid_input',
      field: '/extra',
    });
  });

  it('AGENT-MCP-NEVER-APPROVED-ON-USER-BEHALF: no tool call, however repeated or late, moves a request past approval', async () => {
    const [actionId = ''] = fresh().unresponded();
    const requestId = uuidOf(22);
    await toApproval(actionId, requestId);
    for (let round = 0; round < 5; round++) {
      await h.call('prepare_reply', { actionId, text: 'Thanks for waiting: it is fixed now.', requestId });
      await h.call('review_reply', { requestId });
      await h.call('open_reply', { requestId });
      h.engine.clock.advance(60_000);
    }
    expect(successOf(await h.call('open_reply', { requestId }))['state']).toBe('awaiting_approval');
    expect((await detailOf(actionId)).messages.some((m) => m.message.includes('fixed now'))).toBe(false);
  });
});

describe('delivery through the engine clock, seen through REST', () => {
  it('AGENT-MCP-REPLY-STATES-SEPARATE: approved → queued → delivering → delivered on the clock; an AGENT message, counts, responded list and analytics follow', async () => {
    const [actionId = ''] = fresh().unresponded();
    const requestId = uuidOf(30);
    const text = 'Hi <b>Ana</b> & team: "fixed" 🙂\nSecond line';
    const before = await detailOf(actionId);
    expect(before['totalAgentMessages']).toBe(0);
    expect(await listedIds()).not.toContain(actionId);
    const tagsBefore = await h.rest('/v0/analytics/tags?pageSize=100');
    await toApproval(actionId, requestId, text);

    const approved = await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/approve`);
    expect(approved.status).toBe(200);
    const states: string[] = [];
    for (const step of [0, 999, 1, 1999, 1]) {
      h.engine.clock.advance(step);
      states.push(String(successOf(await h.call('open_reply', { requestId }))['state']));
    }
    expect(states).toEqual(['queued', 'queued', 'delivering', 'delivering', 'delivered']);
    const opened = successOf(await h.call('open_reply', { requestId }));
    expect(opened).toMatchObject({ phase: 'delivery', terminal: true, delivery: { outcome: 'delivered' } });
    expect((opened['history'] as { by: string }[]).map((m) => m.by)).toEqual([
      'agent',
      'agent',
      'admin',
      'clock',
      'clock',
    ]);

    const after = await detailOf(actionId);
    const reply = after.messages.at(-1);
    expect(reply).toMatchObject({ authorType: 'AGENT', message: text, id: `reply-${requestId}` });
    expect(after.messages.slice(0, -1)).toEqual(before.messages);
    expect(after['totalAgentMessages']).toBe(1);
    expect(after['totalMessages']).toBe(Number(before['totalMessages']) + 1);
    expect(after['initialResponseTime']).toBe(reply?.timestamp);
    expect(after['firstResponseTime']).not.toBeNull();
    expect(after['updatedAt']).toBe(reply?.timestamp);
    // The default list (responded only, past 7 days) now shows it; a conversation read shows the reply.
    expect(await listedIds()).toContain(actionId);
    const withConversation = await h.rest('/v0/action/list?pageSize=500&includeFullConversation=true');
    const row = (withConversation.body['data'] as { actionId: string; conversationJson: string }[]).find(
      (a) => a.actionId === actionId,
    );
    expect(JSON.parse(row?.conversationJson ?? '[]').at(-1)).toMatchObject({
      authorType: 'AGENT',
      message: text,
    });
    // Analytics: the responded count of the action's tags grew (the answer cache was invalidated).
    const tagsAfter = await h.rest('/v0/analytics/tags?pageSize=100');
    const responded = (body: Record<string, unknown>) =>
      ((body['data'] as { volumeByTag?: { tagId: string; responded: number }[] }).volumeByTag ?? []).reduce(
        (sum, t) => sum + t.responded,
        0,
      );
    const tagged = (after['tags'] as unknown[]).length > 0;
    expect(responded(tagsAfter.body)).toBe(
      responded(tagsBefore.body) + (tagged ? (after['tags'] as unknown[]).length : 0),
    );
  });

  it('a person’s rejection sends nothing; later reviews are a conflict naming requestId', async () => {
    const [actionId = ''] = fresh().unresponded();
    const requestId = uuidOf(31);
    await toApproval(actionId, requestId);
    expect((await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/reject`)).status).toBe(200);
    h.engine.clock.advance(60_000);
    expect(successOf(await h.call('open_reply', { requestId }))).toMatchObject({
      state: 'rejected',
      terminal: true,
    });
    expect(failureOf(await h.call('review_reply', { requestId }))).toMatchObject({
      kind: 'conflict',
      field: '/requestId',
    });
    expect((await detailOf(actionId))['totalAgentMessages']).toBe(0);
  });

  it('AGENT-MCP-UNCERTAIN-DELIVERY-NOT-RETRIED: after an unknown outcome nothing sends the reply twice; open_reply reports unknown_delivery_state', async () => {
    const [actionId = ''] = fresh().unresponded();
    const requestId = uuidOf(32);
    const input = { actionId, text: 'Uncertain', requestId };
    await toApproval(actionId, requestId, input.text);
    await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/approve`);
    const forced = await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/outcome`, {
      outcome: 'unknown',
    });
    expect(forced.status).toBe(200);
    h.engine.clock.advance(3000);
    const opened = successOf(await h.call('open_reply', { requestId }));
    expect(opened).toMatchObject({
      state: 'unknown',
      terminal: true,
      delivery: {
        outcome: 'unknown',
        messageId: null,
        failure: { kind: 'unknown_delivery_state', requestId },
      },
    });
    // Every retry an agent might try answers unknown_delivery_state, and nothing is sent or re-queued.
    for (let round = 0; round < 3; round++) {
      expect(failureOf(await h.call('prepare_reply', input))['kind']).toBe('unknown_delivery_state');
      expect(failureOf(await h.call('review_reply', { requestId }))['kind']).toBe('unknown_delivery_state');
      h.engine.clock.advance(10_000);
    }
    expect((await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/advance`)).status).toBe(409);
    expect((await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/approve`)).status).toBe(409);
    expect(successOf(await h.call('open_reply', { requestId }))['state']).toBe('unknown');
    const detail = await detailOf(actionId);
    expect(detail.messages.filter((m) => m.message === 'Uncertain')).toEqual([]);
    expect(detail['totalAgentMessages']).toBe(0);
  });

  it('a failed delivery adds no message and is never retried', async () => {
    const [actionId = ''] = fresh().unresponded();
    const requestId = uuidOf(33);
    await toApproval(actionId, requestId);
    await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/approve`);
    await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/advance`);
    const failed = await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/outcome`, {
      outcome: 'failed',
    });
    expect(failed.body['reply']).toMatchObject({ state: 'failed' });
    h.engine.clock.advance(60_000);
    expect(successOf(await h.call('open_reply', { requestId }))['delivery']).toMatchObject({
      outcome: 'failed',
    });
    expect((await detailOf(actionId))['totalAgentMessages']).toBe(0);
  });

  it('two replies to one action: both messages, in order, counted once each', async () => {
    const [actionId = ''] = fresh().unresponded();
    for (const [n, text] of [
      [40, 'First'],
      [41, 'Second'],
    ] as const) {
      await toApproval(actionId, uuidOf(n), text);
      await h.admin('POST', `/__mock/replies/${ORG}/${uuidOf(n)}/approve`);
      h.engine.clock.advance(5000);
    }
    const detail = await detailOf(actionId);
    expect(detail.messages.slice(-2).map((m) => m.message)).toEqual(['First', 'Second']);
    expect(detail['totalAgentMessages']).toBe(2);
    const list = await h.admin('GET', `/__mock/replies?organizationId=${ORG}`);
    expect((list.body['replies'] as { state: string }[]).map((r) => r.state)).toEqual([
      'delivered',
      'delivered',
    ]);
  });

  it('AGENT-MCP-IDS-STRINGS-PRESERVED: an ingested action with an id beyond 2^53 and leading zeros gets the reply; a grown thread keeps it', async () => {
    fresh();
    const actionId = '000900719925474099312345';
    const input = {
      actionId,
      platform: 'DISCORD' as const,
      serverId: '0042',
      serverName: 'Guild',
      channelName: '#help',
      recordType: 'message',
      title: 'Ingested question',
      summary: 'A question',
      isPublicPost: true,
      sourceURL: 'https://discord.example/0042/1',
      createdAt: REPLY_CREATED,
      user: { name: 'Zoë', username: 'zoe', userId: '00017', email: null, followerCount: null },
      messages: [
        {
          id: 'm1',
          timestamp: REPLY_CREATED,
          author: 'Zoë',
          authorId: '00017',
          authorType: 'USER' as const,
          message: 'Help?',
        },
      ],
    };
    upsertIngestedAction(h.engine.state.data, ORG, input);
    const requestId = uuidOf(45);
    const prepared = successOf(await h.call('prepare_reply', { actionId, text: 'On it', requestId }));
    expect(prepared['actionId']).toBe(actionId);
    await toApproval(actionId, requestId, 'On it');
    await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/approve`);
    h.engine.clock.advance(5000);
    const delivered = await detailOf(actionId);
    expect(delivered.messages.map((m) => m.authorType)).toEqual(['USER', 'AGENT']);
    expect(delivered['totalAgentMessages']).toBe(1);
    // The ingested thread grows (a new customer message): the reply still shows and counts.
    upsertIngestedAction(h.engine.state.data, ORG, {
      ...input,
      messages: [
        ...input.messages,
        {
          id: 'm2',
          timestamp: Date.parse(REPLY_CREATED) + 60_000,
          author: 'Zoë',
          authorId: '00017',
          authorType: 'USER' as const,
          message: 'Thanks!',
        },
      ],
    });
    const grown = await detailOf(actionId);
    expect(grown.messages.map((m) => m.message)).toEqual(['Help?', 'Thanks!', 'On it']);
    expect(grown['totalAgentMessages']).toBe(1);
    expect(grown['totalMessages']).toBe(3);
    expect(grown['initialResponseTime']).not.toBeNull();
  });

  it('deliveries due together are applied earliest first: messages stay in time order', async () => {
    const [actionId = ''] = fresh().unresponded();
    await toApproval(actionId, uuidOf(42), 'Approved first, delivered second');
    await toApproval(actionId, uuidOf(43), 'Approved second, delivered first');
    await h.admin('POST', `/__mock/replies/${ORG}/${uuidOf(42)}/approve`);
    h.engine.clock.advance(500);
    await h.admin('POST', `/__mock/replies/${ORG}/${uuidOf(43)}/approve`);
    h.engine.clock.advance(100);
    // The second one skips the rest of its queue review: it is delivered 2 s from now, before the first.
    await h.admin('POST', `/__mock/replies/${ORG}/${uuidOf(43)}/advance`);
    h.engine.clock.advance(10_000);
    const messages = (await detailOf(actionId)).messages.slice(-2);
    expect(messages.map((m) => m.message)).toEqual([
      'Approved second, delivered first',
      'Approved first, delivered second',
    ]);
    expect(Date.parse(messages[0]?.timestamp ?? '')).toBeLessThan(Date.parse(messages[1]?.timestamp ?? ''));
  });

  it('reset forgets every request and every delivered reply', async () => {
    const [actionId = ''] = fresh().unresponded();
    await toApproval(actionId, uuidOf(50));
    await h.admin('POST', `/__mock/replies/${ORG}/${uuidOf(50)}/approve`);
    h.engine.clock.advance(5000);
    expect((await detailOf(actionId))['totalAgentMessages']).toBe(1);
    h.engine.admin.reset();
    expect((await detailOf(actionId))['totalAgentMessages']).toBe(0);
    expect(failureOf(await h.call('open_reply', { requestId: uuidOf(50) }))['kind']).toBe('not_found');
  });
});

describe('admin routes (test tooling)', () => {
  it('refuse what the lifecycle does not allow, with 400/404/409 naming the problem', async () => {
    const [actionId = ''] = fresh().unresponded();
    const requestId = uuidOf(60);
    successOf(await h.call('prepare_reply', { actionId, text: 'draft only', requestId }));
    // A draft was never sent to review: approving it would approve on the user's behalf.
    const early = await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/approve`);
    expect(early.status).toBe(409);
    expect(String(early.body['error'])).toContain('review_reply');
    expect((await h.admin('POST', `/__mock/replies/${ORG}/${uuidOf(61)}/approve`)).status).toBe(404);
    expect((await h.admin('POST', `/__mock/replies/${OTHER_ORG}/${requestId}/reject`)).status).toBe(404);
    expect(
      (await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/outcome`, { outcome: 'lost' })).status,
    ).toBe(400);
    expect((await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/outcome`, [1])).status).toBe(400);
    expect((await h.admin('POST', `/__mock/replies/${ORG}/${requestId}/advance`)).status).toBe(409);
    const one = await h.admin('GET', `/__mock/replies/${ORG}/${requestId}`);
    expect(one.body['reply']).toMatchObject({ state: 'draft', organizationId: ORG, approvalPath: null });
  });
});
