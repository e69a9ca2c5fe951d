import fc from 'fast-check';
import { bigIdString, leadingZeroId, moderationSubmission, unicodeId } from '../../src/arbitraries/index.ts';
import { runExamples, runProperty, violate } from '../../src/conformance/check.ts';
import type { Law } from '../../src/conformance/law.ts';
import { historyWindow, sampleActionIds, sampleAgentIds } from './discover.ts';
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
      const actionIds = (await sampleActionIds(ctx)).slice(0, 5);
      const agentIds = (await sampleAgentIds(ctx)).slice(0, 3);
      let checks = 0;
      for (const id of actionIds) {
        for (const op of ['getAction', 'getCustomFields'] as const) {
          const name = op === 'getAction' ? 'id' : 'actionId';
          const res = await call(ctx, op, { auth: 'otherOrgRead', path: { [name]: id } });
          expectConforming(ctx, op, res, {
            status: [403, 404],
            statusRule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED',
            what: `${op} of this organization's action ${id} with another organization's key`,
          });
          checks += 1;
        }
      }
      for (const id of agentIds) {
        const res = await call(ctx, 'getAgent', { auth: 'otherOrgRead', path: { id } });
        expectConforming(ctx, 'getAgent', res, {
          status: [403, 404],
          statusRule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED',
          what: `getAgent ${id} with another organization's key`,
        });
        checks += 1;
      }
      const res = await call(ctx, 'listActions', {
        auth: 'otherOrgRead',
        query: { ...historyWindow(ctx), pageSize: 500 },
      });
      const ok = expectConforming(ctx, 'listActions', res, { status: 200 });
      const mine = new Set(actionIds);
      for (const item of arr(obj(ok.parsed)['data'])) {
        const id = str(obj(item)['actionId']);
        if (id !== undefined && mine.has(id))
          violate(
            'ORG-DATA-SCOPED',
            'foreign-action-listed',
            `another organization's key lists action ${id}`,
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
      const r1 = await call(ctx, 'submitModerationCase', { auth: 'noModerationWrite', json: single });
      expectConforming(ctx, 'submitModerationCase', r1, {
        status: 403,
        statusRule: 'MOD-AD-POLICY-MODE-REQUIRED',
        before: checkBody,
      });
      const r2 = await call(ctx, 'submitModerationBatch', {
        auth: 'noModerationWrite',
        json: { cases: [{ ...single, externalId: ctx.unique('noadp') }] },
      });
      expectConforming(ctx, 'submitModerationBatch', r2, {
        status: 403,
        statusRule: 'MOD-AD-POLICY-MODE-REQUIRED',
        before: checkBody,
      });
      return 2;
    }),
};

export const statusLaws: readonly Law[] = [unknownIds, otherOrganization, noAdPolicy, jsonMediaType];
