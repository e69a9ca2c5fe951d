import fc from 'fast-check';
import { bigIdString, leadingZeroId, moderationSubmission, unicodeId } from '../../src/arbitraries/index.ts';
import { runExamples, runProperty, violate } from '../../src/conformance/check.ts';
import type { Law } from '../../src/conformance/law.ts';
import { historyWindow, sampleActions, sampleAgentIds } from './discover.ts';
import { jsonMediaType } from './media-type.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

const UNKNOWN_RULE: Readonly<Record<string, string>> = {
  getAction: 'DETAIL-UNKNOWN-ID-404',
  getCustomFields: 'CF-GET-UNKNOWN-ACTION-404',
  getAgent: 'AGENT-DETAIL-UNKNOWN-404',
  getModerationCase: 'MOD-GET-UNKNOWN-404',
};

export const unknownIds: Law = {
  id: 'status.unknown-ids',
  group: 'status',
  title: 'unknown ids (big numbers, leading zeros, Unicode) get 404 with the error body',
  ruleIds: [...Object.values(UNKNOWN_RULE), 'ERR-GENERAL-BODY', 'ERR-STATUS-IN-DECLARED-SET'],
  needs: { keys: ['read'] },
  run: (ctx) => {
    const id = fc
      .oneof(
        bigIdString,
        leadingZeroId,
        unicodeId,
        fc.stringMatching(/^[a-z0-9]{4,12}$/).map((s) => `${ctx.prefix}missing-${s}`),
      )
      .filter((s) => !/^\.+$/.test(s) && s.trim() === s && s.length > 0);
    // Every operation for every generated id: an unknown id is unknown everywhere.
    return runProperty(ctx, id, async (unknown) => {
      for (const op of Object.keys(UNKNOWN_RULE)) {
        const name = ctx.contract.getOperation(op).pathParamNames[0] ?? 'id';
        const res = await call(ctx, op, { auth: 'read', path: { [name]: unknown } });
        expectConforming(ctx, op, res, {
          status: 404,
          statusRule: UNKNOWN_RULE[op] ?? 'ERR-STATUS-IN-DECLARED-SET',
          what: `${op} of unknown id ${JSON.stringify(unknown)}`,
        });
      }
    });
  },
};

export const otherOrganization: Law = {
  id: 'status.other-organization',
  group: 'status',
  title: "another organization's key never resolves this organization's ids nor lists its actions",
  ruleIds: ['ORG-OTHER-ORG-ID-NOT-RESOLVED', 'ORG-DATA-SCOPED', 'ORG-KEY-ONE-ORGANIZATION'],
  needs: { keys: ['read', 'otherOrgRead'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const actions = (await sampleActions(ctx)).slice(0, 5);
      const agentIds = (await sampleAgentIds(ctx)).slice(0, 3);
      // The other organization's own ids: an id both organizations have (ids are unique per
      // organization only) is theirs to read, so only an id absent from their own list is checked.
      const theirs = await call(ctx, 'listActions', {
        auth: 'otherOrgRead',
        query: { ...historyWindow(ctx), pageSize: 500 },
      });
      const theirList = expectConforming(ctx, 'listActions', theirs, { status: 200 });
      const theirActions = new Set(arr(obj(theirList.parsed)['data']).map((a) => str(obj(a)['actionId'])));
      const theirAgentsRes = await call(ctx, 'listAgents', {
        auth: 'otherOrgRead',
        query: historyWindow(ctx),
      });
      const theirAgentList = expectConforming(ctx, 'listAgents', theirAgentsRes, { status: 200 });
      const theirAgents = new Set(arr(obj(theirAgentList.parsed)['data']).map((a) => str(obj(a)['agentId'])));
      let checks = 0;
      for (const action of actions) {
        const id = str(action['actionId']) ?? '';
        if (theirActions.has(id)) continue;
        for (const op of ['getAction', 'getCustomFields'] as const) {
          const name = op === 'getAction' ? 'id' : 'actionId';
          const res = await call(ctx, op, { auth: 'otherOrgRead', path: { [name]: id } });
          // A detail that is not ours (another title or creation time) is their own record under
          // the same id, beyond the page of their list we read: not a leak.
          const detail = res.kind === 'network' ? {} : obj(res.ok ? res.body : undefined);
          if (
            op === 'getAction' &&
            res.status === 200 &&
            (detail['actionTitle'] !== action['actionTitle'] || detail['createdAt'] !== action['createdAt'])
          )
            break;
          expectConforming(ctx, op, res, {
            status: [403, 404],
            statusRule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED',
            what: `${op} of this organization's action ${id} (absent from the other organization's list) with another organization's key`,
          });
          checks += 1;
        }
      }
      for (const id of agentIds) {
        if (theirAgents.has(id)) continue;
        const res = await call(ctx, 'getAgent', { auth: 'otherOrgRead', path: { id } });
        expectConforming(ctx, 'getAgent', res, {
          status: [403, 404],
          statusRule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED',
          what: `getAgent ${id} (absent from the other organization's list) with another organization's key`,
        });
        checks += 1;
      }
      const mine = new Set(actions.map((a) => str(a['actionId'])));
      for (const item of arr(obj(theirList.parsed)['data'])) {
        const listed = obj(item);
        const id = str(listed['actionId']);
        const ours = actions.find((a) => a['actionId'] === id);
        // The same id with our title and creation time is our record in their list.
        if (
          id !== undefined &&
          mine.has(id) &&
          ours?.['actionTitle'] === listed['actionTitle'] &&
          ours?.['createdAt'] === listed['createdAt']
        )
          violate(
            'ORG-DATA-SCOPED',
            'foreign-action-listed',
            `another organization's key lists action ${id} with this organization's title and creation time`,
          );
      }
      return checks + 1;
    }),
};

export const noAdPolicy: Law = {
  id: 'status.no-ad-policy',
  group: 'status',
  title:
    'an organization without ad_policy mode is refused on moderation routes with the moderation error body',
  ruleIds: ['MOD-AD-POLICY-MODE-REQUIRED', 'MOCK-NO-AD-POLICY-403', 'ERR-MODERATION-BODY'],
  needs: { keys: ['noModerationWrite'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const [sample] = fc.sample(moderationSubmission({ externalIdPrefix: ctx.prefix }), {
        seed: ctx.seed,
        numRuns: 1,
      });
      const single = { ...sample, externalId: ctx.unique('noadp') };
      const checkBody = (body: unknown): void => {
        const supported = arr(obj(body)['supported']);
        if (supported.length > 0 && !supported.includes('ad_policy')) {
          violate(
            'ERR-MODERATION-BODY',
            'supported-missing-ad-policy',
            `refusal lists supported modes ${JSON.stringify(supported)} without ad_policy`,
          );
        }
      };
      // The refusal status is not stated (section 7: "the request is refused"): any 4xx the operation
      // declares but 401 (the key is valid) refuses; `supported` may come with any of them. 413 and 415
      // are the contract's own additions for bodies, not statuses of section 7's table.
      const refusals = (operationId: string): number[] =>
        [...ctx.contract.getOperation(operationId).responses.keys()]
          .map(Number)
          .filter((s) => s >= 400 && s < 500 && ![401, 413, 415].includes(s));
      const r1 = await call(ctx, 'submitModerationCase', { auth: 'noModerationWrite', json: single });
      expectConforming(ctx, 'submitModerationCase', r1, {
        status: refusals('submitModerationCase'),
        statusRule: 'MOD-AD-POLICY-MODE-REQUIRED',
        before: checkBody,
      });
      const r2 = await call(ctx, 'submitModerationBatch', {
        auth: 'noModerationWrite',
        json: { cases: [{ ...single, externalId: ctx.unique('noadp') }] },
      });
      expectConforming(ctx, 'submitModerationBatch', r2, {
        status: refusals('submitModerationBatch'),
        statusRule: 'MOD-AD-POLICY-MODE-REQUIRED',
        before: checkBody,
      });
      return 2;
    }),
};

export const statusLaws: readonly Law[] = [unknownIds, otherOrganization, noAdPolicy, jsonMediaType];
