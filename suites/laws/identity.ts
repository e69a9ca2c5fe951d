import fc from 'fast-check';
import { moderationSubmission } from '../../src/arbitraries/index.ts';
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { sampleActions, sampleAgentIds } from './discover.ts';
import { hardIdSuffix, idVariants, moderationHardIds } from './hard-ids.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

export const actionRoundTrip: Law = {
  id: 'identity.action-round-trip',
  group: 'identity',
  title:
    'a listed actionId reads back byte-identical through detail and custom fields, with the same user and assignee ids',
  ruleIds: [
    'DETAIL-RETURNS-REQUESTED-ACTION',
    'DETAIL-CONSISTENT-WITH-LIST',
    'CF-GET-ACTIONID-MATCHES-PATH',
    'ID-ACTIONID-STABLE',
    'ID-STRING-PRESERVED',
    'ID-JSON-STRING-IN-RAW-BODY',
  ],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const actions = await sampleActions(ctx);
    if (actions.length === 0)
      return { kind: 'not-run', ruleIds: actionRoundTrip.ruleIds, reason: 'no action in the last 90 days' };
    return runProperty(ctx, fc.constantFrom(...actions), async (summary) => {
      const id = str(summary['actionId']) ?? '';
      const detail = await call(ctx, 'getAction', { auth: 'read', path: { id } });
      expectConforming(ctx, 'getAction', detail, {
        status: 200,
        statusRule: 'DETAIL-CONSISTENT-WITH-LIST',
        before: (parsed) => {
          const d = obj(parsed);
          if (d['actionId'] !== id)
            violate(
              'DETAIL-RETURNS-REQUESTED-ACTION',
              'detail-id',
              `GET /v0/action/${id} answered actionId ${JSON.stringify(d['actionId'])}`,
            );
          if (
            detail.raw.indexOf(`"actionId":${JSON.stringify(id)}`) === -1 &&
            detail.raw.indexOf(`"actionId": ${JSON.stringify(id)}`) === -1
          ) {
            violate(
              'ID-STRING-PRESERVED',
              'detail-id-bytes',
              `detail of ${id} does not carry the actionId bytes ${JSON.stringify(id)}`,
            );
          }
          if (obj(d['user'])['userId'] !== summary['userId']) {
            violate(
              'ID-STRING-PRESERVED',
              'user-id',
              `action ${id}: list userId ${JSON.stringify(summary['userId'])} but detail user.userId ${JSON.stringify(obj(d['user'])['userId'])}`,
            );
          }
          if (obj(d['assignee'])['userId'] !== summary['assigneeUserId']) {
            violate(
              'ID-STRING-PRESERVED',
              'assignee-id',
              `action ${id}: list assigneeUserId ${JSON.stringify(summary['assigneeUserId'])} but detail assignee.userId ${JSON.stringify(obj(d['assignee'])['userId'])}`,
            );
          }
        },
      });
      const cf = await call(ctx, 'getCustomFields', { auth: 'read', path: { actionId: id } });
      expectConforming(ctx, 'getCustomFields', cf, {
        status: 200,
        statusRule: 'ID-ACTIONID-STABLE',
        before: (parsed) => {
          if (obj(parsed)['actionId'] !== id)
            violate(
              'CF-GET-ACTIONID-MATCHES-PATH',
              'cf-id',
              `custom fields of ${id} answered actionId ${JSON.stringify(obj(parsed)['actionId'])}`,
            );
        },
      });
    });
  },
};

export const searchIdsReadable: Law = {
  id: 'identity.search-ids-readable',
  group: 'identity',
  title: 'every actionId returned by conversation search can be read with GET /v0/action/{id}',
  ruleIds: ['DETAIL-CONSISTENT-WITH-LIST', 'ID-ACTIONID-STABLE'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runProperty(
      ctx,
      fc.integer({ min: 1, max: 5 }),
      async (page) => {
        const res = await call(ctx, 'searchConversations', { auth: 'read', query: { page, pageSize: 5 } });
        const ok = expectConforming(ctx, 'searchConversations', res, { status: 200 });
        for (const item of arr(obj(ok.parsed)['data']).map(obj)) {
          const id = str(item['actionId']) ?? '';
          const detail = await call(ctx, 'getAction', { auth: 'read', path: { id } });
          expectConforming(ctx, 'getAction', detail, {
            status: 200,
            statusRule: 'DETAIL-CONSISTENT-WITH-LIST',
            before: (parsed) => {
              if (obj(parsed)['actionId'] !== id)
                violate(
                  'ID-ACTIONID-STABLE',
                  'search-detail-id',
                  `search actionId ${id} reads back as ${JSON.stringify(obj(parsed)['actionId'])}`,
                );
            },
          });
        }
      },
      { runs: Math.min(ctx.runs, 5) },
    ),
};

export const agentRoundTrip: Law = {
  id: 'identity.agent-round-trip',
  group: 'identity',
  title: 'every agentId of the agent list can be read with GET /v0/agents/{id}',
  ruleIds: ['AGENT-DETAIL-ID-FROM-LIST', 'ID-STRING-PRESERVED'],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const ids = await sampleAgentIds(ctx);
    if (ids.length === 0)
      return { kind: 'not-run', ruleIds: agentRoundTrip.ruleIds, reason: 'the agent list is empty' };
    return runProperty(
      ctx,
      fc.constantFrom(...ids),
      async (id) => {
        const res = await call(ctx, 'getAgent', { auth: 'read', path: { id } });
        expectConforming(ctx, 'getAgent', res, { status: 200, statusRule: 'AGENT-DETAIL-ID-FROM-LIST' });
      },
      { runs: Math.min(ctx.runs, ids.length * 2) },
    );
  },
};

export const moderationEcho: Law = {
  id: 'identity.moderation-echo',
  group: 'identity',
  title:
    'tricky externalIds (above 2^53, leading zeros, whitespace, Unicode, either normal form) are echoed exactly by the acknowledgement and the status read',
  ruleIds: [
    'MOD-ACK-EXTERNALID-ECHO',
    'MOD-GET-CASE-FROM-ACK',
    'ID-STRING-PRESERVED',
    'ID-JSON-STRING-IN-RAW-BODY',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  run: (ctx) => {
    const arb = fc.record({
      suffix: hardIdSuffix,
      submission: moderationSubmission({ externalIdPrefix: ctx.prefix }),
    });
    return runProperty(
      ctx,
      arb,
      async ({ suffix, submission }) => {
        const externalId = `${ctx.unique('echo')}-${suffix}`;
        const ack = await call(ctx, 'submitModerationCase', {
          auth: 'write',
          json: { ...submission, externalId },
        });
        const a = expectConforming(ctx, 'submitModerationCase', ack, {
          status: 202,
          statusRule: 'MOD-SUBMIT-202',
          before: (parsed) => {
            if (obj(parsed)['externalId'] !== externalId)
              violate(
                'MOD-ACK-EXTERNALID-ECHO',
                'ack-external-id',
                `acknowledgement externalId ${JSON.stringify(obj(parsed)['externalId'])}, sent ${JSON.stringify(externalId)}`,
              );
          },
        });
        const caseId = str(obj(a.parsed)['caseId']) ?? '';
        const read = await call(ctx, 'getModerationCase', { auth: 'read', path: { caseId } });
        expectConforming(ctx, 'getModerationCase', read, {
          status: 200,
          statusRule: 'MOD-GET-CASE-FROM-ACK',
          before: (parsed) => {
            const p = obj(parsed);
            if (p['caseId'] !== caseId || p['externalId'] !== externalId) {
              violate(
                'MOD-GET-CASE-FROM-ACK',
                'read-ids',
                `case ${caseId} reads back caseId ${JSON.stringify(p['caseId'])}, externalId ${JSON.stringify(p['externalId'])} (sent ${JSON.stringify(externalId)})`,
              );
            }
          },
        });
      },
      { runs: Math.min(ctx.runs, 10) },
    );
  },
};

export const identityLaws: readonly Law[] = [
  actionRoundTrip,
  searchIdsReadable,
  agentRoundTrip,
  moderationEcho,
  idVariants,
  moderationHardIds,
];
