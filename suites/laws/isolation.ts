/**
 * Organization isolation (sections 1 and 5.3) on every read route, in both directions: what one
 * organization's key answers never returns nor counts what the other's key answers as its own. Ids are
 * unique per organization only, so an id both answer is not a leak by itself: a leak is the same
 * RECORD (same id and same content) answered to both, or an id of one resolved for the other although
 * the other's own answers (its lists, its detail) show it does not have it.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { moderationSubmission } from '../../src/arbitraries/index.ts';
import type { Auth } from '../../src/client/types.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { historyWindow, settledAnchor } from './discover.ts';
import { arr, call, expectConforming, type Json, num, obj, str } from './support.ts';

type Side = 'read' | 'otherOrgRead';
const OTHER: Readonly<Record<Side, Side>> = { read: 'otherOrgRead', otherOrgRead: 'read' };
const NAME: Readonly<Record<Side, string>> = {
  read: 'this organization',
  otherOrgRead: 'the other organization',
};

/** The analytics routes (the contract's tag Analytics), each read with the same settled window by both keys. */
const analyticsOperations = (ctx: LawContext): string[] =>
  [...ctx.contract.operations.values()]
    .filter((op) => op.tags.includes('Analytics'))
    .map((op) => op.operationId);

/** What a record is, beyond its id: two organizations' records under one id differ in these. */
function fingerprint(record: Json): string {
  const user = obj(record['user']);
  return JSON.stringify([
    record['actionTitle'],
    record['createdAt'],
    record['userId'] ?? user['userId'],
    record['rootMessageText'],
  ]);
}

/** True when an answer carries a figure: some number other than 0, or a non-empty string in a row. */
function carriesFigures(value: unknown): boolean {
  if (typeof value === 'number') return value !== 0;
  if (Array.isArray(value)) return value.some(carriesFigures);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(carriesFigures);
  return false;
}

interface Answers {
  /** Action summaries by id, from the list (history window) and from search (first page). */
  readonly actions: ReadonlyMap<string, Json>;
  readonly agents: ReadonlyMap<string, Json>;
  readonly queues: readonly Json[];
  readonly analytics: ReadonlyMap<string, unknown>;
}

async function answersOf(ctx: LawContext, auth: Side): Promise<Answers> {
  const window = historyWindow(ctx);
  const settled = { from: window.from, to: new Date(settledAnchor(ctx)).toISOString() };
  const actions = new Map<string, Json>();
  const list = await call(ctx, 'listActions', { auth, query: { ...window, pageSize: 500 } });
  const search = await call(ctx, 'searchConversations', { auth, query: { pageSize: 100 } });
  for (const [op, res] of [
    ['listActions', list],
    ['searchConversations', search],
  ] as const) {
    const ok = expectConforming(ctx, op, res, { status: 200, what: `${op} with ${NAME[auth]}'s key` });
    for (const item of arr(obj(ok.parsed)['data'])) {
      const id = str(obj(item)['actionId']);
      if (id !== undefined && !actions.has(id)) actions.set(id, obj(item));
    }
  }
  const agentsRes = await call(ctx, 'listAgents', { auth, query: settled });
  const agents = new Map<string, Json>();
  for (const entry of arr(
    obj(expectConforming(ctx, 'listAgents', agentsRes, { status: 200 }).parsed)['data'],
  )) {
    const id = str(obj(entry)['agentId']);
    if (id !== undefined) agents.set(id, obj(entry));
  }
  const queuesRes = await call(ctx, 'listQueues', { auth, query: settled });
  const queues = arr(obj(expectConforming(ctx, 'listQueues', queuesRes, { status: 200 }).parsed)['data']).map(
    obj,
  );
  const analytics = new Map<string, unknown>();
  for (const op of analyticsOperations(ctx)) {
    const res = await call(ctx, op, { auth, query: settled });
    analytics.set(op, obj(expectConforming(ctx, op, res, { status: 200 }).parsed)['data']);
  }
  return { actions, agents, queues, analytics };
}

/** Lists and aggregates: no record of one side is answered to the other, no aggregate is the other's. */
function compareAnswers(mine: Answers, theirs: Answers): number {
  let checks = 0;
  for (const [id, record] of mine.actions) {
    const other = theirs.actions.get(id);
    checks += 1;
    if (other !== undefined && fingerprint(other) === fingerprint(record))
      violate(
        'ORG-DATA-SCOPED',
        'same-action-both-organizations',
        `action ${JSON.stringify(id)} is listed (action list or search) with the same title, creation time and customer to the keys of both organizations`,
        { actionId: id },
      );
  }
  for (const [id, entry] of mine.agents) {
    const other = theirs.agents.get(id);
    checks += 1;
    if (
      other !== undefined &&
      (num(obj(entry['metrics'])['totalActions']) ?? 0) > 0 &&
      isDeepStrictEqual(other, entry)
    )
      violate(
        'ORG-DATA-SCOPED',
        'same-agent-both-organizations',
        `agent ${JSON.stringify(id)} is listed with the same metrics and workload (over the same window) to the keys of both organizations`,
        { agentId: id },
      );
  }
  for (const entry of mine.queues) {
    checks += 1;
    if (
      (num(obj(entry['metrics'])['totalActions']) ?? 0) > 0 &&
      theirs.queues.some((other) => isDeepStrictEqual(other, entry))
    )
      violate(
        'ORG-DATA-SCOPED',
        'same-queue-both-organizations',
        `queue ${JSON.stringify(entry['queueId'])} is listed with the same metrics and workload (over the same window) to the keys of both organizations`,
      );
  }
  // The two organizations hold different actions (proven from their lists): the same non-empty
  // analysis over the same window for both is one organization's figures answered to the other.
  const differ = [...mine.actions.keys()].some((id) => !theirs.actions.has(id));
  for (const [op, a] of mine.analytics) {
    checks += 1;
    if (differ && carriesFigures(a) && isDeepStrictEqual(a, theirs.analytics.get(op)))
      violate(
        'ORG-DATA-SCOPED',
        `same-analytics:${op}`,
        `${op} over the same window answers the same figures to the keys of both organizations, although their action lists differ`,
      );
  }
  return checks;
}

/** Detail and custom fields of one side's ids through the other side's key. */
async function crossDetails(ctx: LawContext, owner: Side, mine: Answers, theirs: Answers): Promise<number> {
  const reader: Auth = OTHER[owner];
  let checks = 0;
  const ids = [...mine.actions.keys()].filter((id) => !theirs.actions.has(id)).slice(0, 4);
  for (const id of ids) {
    const record = mine.actions.get(id) ?? {};
    const what = `action ${JSON.stringify(id)} of ${NAME[owner]} (absent from ${NAME[reader as Side]}'s list and search)`;
    const res = await call(ctx, 'getAction', { auth: reader, path: { id } });
    const detail = expectConforming(ctx, 'getAction', res, {
      status: [200, 403, 404],
      statusRule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED',
      what: `getAction of ${what} with ${NAME[reader as Side]}'s key`,
    });
    checks += 1;
    const resolved = detail.status === 200;
    // A 200 with another record is the reader's own action under the same id, beyond its list: not a leak.
    if (resolved && fingerprint(obj(detail.parsed)) === fingerprint(record))
      violate(
        'ORG-OTHER-ORG-ID-NOT-RESOLVED',
        'detail-of-other-organization',
        `getAction of ${what} with ${NAME[reader as Side]}'s key answers that action (same title, creation time and customer)`,
        { actionId: id },
      );
    if (resolved) continue;
    // The reader's own detail says it has no such action: its custom fields cannot resolve either.
    const cf = await call(ctx, 'getCustomFields', { auth: reader, path: { actionId: id } });
    expectConforming(ctx, 'getCustomFields', cf, {
      status: [403, 404],
      statusRule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED',
      what: `getCustomFields of ${what}, whose detail that key answers ${detail.status}`,
    });
    checks += 1;
  }
  const window = { from: historyWindow(ctx).from, to: new Date(settledAnchor(ctx)).toISOString() };
  const agentIds = [...mine.agents.keys()].filter((id) => !theirs.agents.has(id)).slice(0, 3);
  for (const id of agentIds) {
    const own = await call(ctx, 'getAgent', { auth: owner, path: { id }, query: window });
    const ownDetail = expectConforming(ctx, 'getAgent', own, { status: 200 });
    const res = await call(ctx, 'getAgent', { auth: reader, path: { id }, query: window });
    const detail = expectConforming(ctx, 'getAgent', res, {
      status: [200, 403, 404],
      statusRule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED',
      what: `getAgent ${JSON.stringify(id)} of ${NAME[owner]} with ${NAME[reader as Side]}'s key`,
    });
    checks += 1;
    const mineData = obj(obj(ownDetail.parsed)['data']);
    if (
      detail.status === 200 &&
      (num(obj(mineData['aggregatedMetrics'])['totalActions']) ?? 0) > 0 &&
      isDeepStrictEqual(obj(obj(detail.parsed)['data']), mineData)
    )
      violate(
        'ORG-OTHER-ORG-ID-NOT-RESOLVED',
        'agent-of-other-organization',
        `getAgent ${JSON.stringify(id)} (listed only by ${NAME[owner]}) answers ${NAME[reader as Side]}'s key the same metrics, workload and queues over the same window`,
        { agentId: id },
      );
  }
  return checks;
}

export const organizationIsolation: Law = {
  id: 'isolation.read-routes',
  group: 'status',
  title:
    "neither organization's key lists, resolves or counts the other's actions, agents, queues or analytics (every read route, both ways)",
  ruleIds: ['ORG-DATA-SCOPED', 'ORG-OTHER-ORG-ID-NOT-RESOLVED', 'ORG-KEY-ONE-ORGANIZATION'],
  needs: { keys: ['read', 'otherOrgRead'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const mine = await answersOf(ctx, 'read');
      const theirs = await answersOf(ctx, 'otherOrgRead');
      let checks = compareAnswers(mine, theirs);
      checks += await crossDetails(ctx, 'read', mine, theirs);
      checks += await crossDetails(ctx, 'otherOrgRead', theirs, mine);
      return checks;
    }),
};

export const moderationCaseIsolation: Law = {
  id: 'isolation.moderation-case',
  group: 'status',
  title:
    "a moderation case submitted with one organization's key is not read with another organization's key",
  ruleIds: ['ORG-OTHER-ORG-ID-NOT-RESOLVED', 'ORG-WRITES-SCOPED'],
  needs: { keys: ['write', 'read', 'otherOrgRead'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const [sample] = fc.sample(moderationSubmission({ externalIdPrefix: ctx.prefix }), {
        seed: ctx.seed,
        numRuns: 1,
      });
      const res = await call(ctx, 'submitModerationCase', {
        auth: 'write',
        json: { ...sample, externalId: ctx.unique('iso') },
      });
      const ack = expectConforming(ctx, 'submitModerationCase', res, { status: 202 });
      const caseId = str(obj(ack.parsed)['caseId']) ?? '';
      // The owner reads it first: the case exists (the assumption the check rests on).
      const own = await call(ctx, 'getModerationCase', { auth: 'read', path: { caseId } });
      expectConforming(ctx, 'getModerationCase', own, { status: 200 });
      const other = await call(ctx, 'getModerationCase', { auth: 'otherOrgRead', path: { caseId } });
      expectConforming(ctx, 'getModerationCase', other, {
        status: [403, 404],
        statusRule: 'ORG-WRITES-SCOPED',
        what: `getModerationCase ${JSON.stringify(caseId)} (just submitted by this organization, which reads it) with another organization's key`,
      });
      return 2;
    }),
};

export const isolationLaws: readonly Law[] = [organizationIsolation, moderationCaseIsolation];
