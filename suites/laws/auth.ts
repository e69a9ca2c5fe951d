import fc from 'fast-check';
import { moderationSubmission } from '../../src/arbitraries/index.ts';
import type { Auth, KeyRole } from '../../src/client/types.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import type { Contract } from '../../src/contract/contract.ts';
import { operationsWithScope, scopeRuleOf, scopeRulesOf } from './catalog-lookup.ts';
import { sampleActionIds, sampleAgentIds } from './discover.ts';
import { expiredKey, revokedKey } from './keys-inactive.ts';
import { apiOperations, arr, type CallInput, call, expectConforming, obj, str } from './support.ts';

async function currentField(
  ctx: LawContext,
  actionId: string,
): Promise<{ fieldName: string; value: unknown } | undefined> {
  const res = await call(ctx, 'getCustomFields', { auth: 'read', path: { actionId } });
  if (!res.ok) return undefined;
  // A field holding a value: writing it back changes nothing, and no null is ever written.
  const field = arr(obj(res.body)['fields'])
    .map(obj)
    .find((f) => f['value'] !== null && f['value'] !== undefined);
  const fieldName = str(field?.['fieldName']);
  return fieldName === undefined ? undefined : { fieldName, value: field?.['value'] };
}

/** A request for `operationId` that is well-formed apart from the key: real ids when known, valid bodies. */
async function probe(ctx: LawContext, operationId: string, auth: Auth, realIds: boolean): Promise<CallInput> {
  const op = ctx.contract.getOperation(operationId);
  const path: Record<string, string> = {};
  for (const name of op.pathParamNames) {
    let id = `${ctx.prefix}probe`;
    if (realIds && operationId === 'getAgent') id = (await sampleAgentIds(ctx))[0] ?? id;
    else if (realIds && name !== 'caseId') id = (await sampleActionIds(ctx))[0] ?? id;
    path[name] = id;
  }
  const submission = () =>
    fc.sample(moderationSubmission({ externalIdPrefix: `${ctx.prefix}scope-` }), {
      seed: ctx.seed,
      numRuns: 1,
    })[0];
  let json: unknown;
  if (operationId === 'submitModerationCase') json = { ...submission(), externalId: ctx.unique('scope') };
  else if (operationId === 'submitModerationBatch')
    json = { cases: [{ ...submission(), externalId: ctx.unique('scope') }] };
  else if (operationId === 'updateCustomFields') {
    // Write back a field's current value: harmless even on a server that wrongly accepts the key.
    const current = realIds ? await currentField(ctx, path['actionId'] ?? '') : undefined;
    json = { fields: [current ?? { fieldName: 'cca_conform_probe', value: 'x' }] };
  } else if (operationId === 'ingestRecords') {
    json = {
      platform: 'CUSTOM_FORM',
      serverId: `${ctx.prefix}server`,
      serverName: 'cca conform',
      records: [
        {
          externalId: ctx.unique('rec'),
          authorId: '1',
          authorName: 'a',
          body: 'b',
          createdAt: new Date(ctx.now()).toISOString(),
          recordType: 'message',
        },
      ],
    };
  }
  return { auth, path, ...(json === undefined ? {} : { json }) };
}

export const missingKey: Law = {
  id: 'auth.missing-key',
  group: 'auth',
  title: 'every /v0 operation answers 401 with the error body when X-API-Key is absent',
  ruleIds: ['AUTH-MISSING-KEY-401', 'ERR-GENERAL-BODY', 'MOCK-AUTH-CHECKED-FIRST'],
  needs: { keys: [] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const ops = apiOperations(ctx);
      for (const op of ops) {
        const res = await call(ctx, op, await probe(ctx, op, 'none', false));
        expectConforming(ctx, op, res, {
          status: 401,
          statusRule: 'AUTH-MISSING-KEY-401',
          what: `${op} without a key`,
        });
      }
      return ops.length;
    }),
};

export const invalidKey: Law = {
  id: 'auth.invalid-key',
  group: 'auth',
  title: 'every /v0 operation answers 401 for a malformed or unknown key',
  ruleIds: ['AUTH-INVALID-KEY-401', 'ERR-GENERAL-BODY', 'AUTH-HEADER-X-API-KEY'],
  needs: { keys: [] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const keys = ['not a key', 'x', `cca_conform_unknown_${ctx.runId}_0123456789abcdef0123456789abcdef`];
      let checks = 0;
      for (const op of apiOperations(ctx)) {
        for (const literal of keys) {
          const res = await call(ctx, op, await probe(ctx, op, { literal }, false));
          expectConforming(ctx, op, res, {
            status: 401,
            statusRule: 'AUTH-INVALID-KEY-401',
            what: `${op} with key ${JSON.stringify(literal)}`,
          });
          checks += 1;
        }
      }
      return checks;
    }),
};

interface ScopeCase {
  readonly op: string;
  readonly key: KeyRole;
  readonly rule: string;
}

function scopeLaw(
  id: string,
  title: string,
  key: KeyRole,
  cases: (ctx: LawContext) => readonly ScopeCase[],
  ruleIds: readonly string[],
  writes: boolean,
): Law {
  return {
    id,
    group: 'auth',
    title,
    ruleIds: [...ruleIds, 'ERR-GENERAL-BODY'],
    needs: { keys: key === 'ingest' ? ['ingest'] : [key], writes },
    run: (ctx) =>
      runExamples(ctx, async () => {
        const list = cases(ctx);
        const realIds = ctx.client.hasKey('read');
        let checks = 0;
        for (const c of list) {
          const res = await call(ctx, c.op, await probe(ctx, c.op, c.key, realIds));
          expectConforming(ctx, c.op, res, {
            status: 403,
            statusRule: c.rule,
            what: `${c.op} with the ${c.key} key`,
          });
          checks += 1;
          // The refusal is the key's, whatever the id names: a route that looks the id up first and
          // answers 404 for one it lacks tells a key without the scope which ids exist. No fact about
          // the id is needed, so none is established: 403 is owed whether it exists or not.
          if (!realIds || ctx.contract.getOperation(c.op).pathParamNames.length === 0) continue;
          const unknown = await call(ctx, c.op, await probe(ctx, c.op, c.key, false));
          expectConforming(ctx, c.op, unknown, {
            status: 403,
            statusRule: c.rule,
            what: `${c.op} with the ${c.key} key on an id the run made up`,
          });
          checks += 1;
        }
        return checks;
      }),
  };
}

/** A key's refusals: on every operation whose `x-required-scope` it lacks, with the rule each breaks. */
export function scopeCases(
  from: Pick<Contract, 'operations'>,
  key: 'read' | 'write' | 'ingest',
): readonly ScopeCase[] {
  if (key === 'read')
    return [
      ...operationsWithScope('write', from).map((op) => ({ op, key, rule: 'AUTH-READ-KEY-WRITE-ROUTE-403' })),
      ...operationsWithScope('ingest', from).map((op) => ({
        op,
        key,
        rule: 'AUTH-REPORTING-KEY-NO-INGEST-403',
      })),
    ];
  if (key === 'write')
    return operationsWithScope('ingest', from).map((op) => ({
      op,
      key,
      rule: 'AUTH-WRITE-KEY-NO-INGEST-403',
    }));
  // The operation's own scope rule where the catalog has one, else the general one.
  return operationsWithScope('read', from).map((op) => ({
    op,
    key,
    rule: scopeRuleOf(op) ?? 'AUTH-IMPORT-KEY-NO-REPORTING-403',
  }));
}

export const readKeyOnWriteRoutes = scopeLaw(
  'auth.read-key-write-routes',
  'a read-only key is refused (403) on every write route and on ingestion',
  'read',
  (ctx) => scopeCases(ctx.contract, 'read'),
  ['AUTH-READ-KEY-WRITE-ROUTE-403', 'AUTH-REPORTING-KEY-NO-INGEST-403', ...scopeRulesOf('write')],
  true,
);

export const writeKeyNoIngest = scopeLaw(
  'auth.write-key-no-ingest',
  'a write key cannot ingest (403)',
  'write',
  (ctx) => scopeCases(ctx.contract, 'write'),
  ['AUTH-WRITE-KEY-NO-INGEST-403', ...scopeRulesOf('ingest')],
  true,
);

export const ingestKeyNoReporting = scopeLaw(
  'auth.ingest-key-no-reporting',
  'an import (ingest) key cannot read reporting data (403 on every read route)',
  'ingest',
  (ctx) => scopeCases(ctx.contract, 'ingest'),
  ['AUTH-IMPORT-KEY-NO-REPORTING-403', ...scopeRulesOf('read'), 'MOCK-SCOPE-403-ALL-ROUTES'],
  false,
);

/**
 * Whether the write key reads is the deployment's to say (the Write profile's row lists no `read`,
 * but the key handed to the suite may be of the read-and-write profile), so the law reads it from
 * the target: a write key refused 403 on one read-scoped route lacks `read`, and a scope is the key's,
 * not the route's, so every read-scoped route must refuse it too (spec 4.3: "Requires a read-scoped
 * key"; 5.4). A key every read route answers is a read-and-write key: nothing to check. Only routes
 * with a scope rule of their own are judged: the spec declares no 403 for the action list and
 * detail, and says of no key but the import one that it cannot read them.
 */
export const writeKeyReadRoutesAgree: Law = {
  id: 'auth.write-key-read-routes-agree',
  group: 'auth',
  title: 'a write key refused (403) on one read-scoped route is refused on every read-scoped route',
  ruleIds: scopeRulesOf('read'),
  needs: { keys: ['write'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const realIds = ctx.client.hasKey('read');
      const answers: { op: string; status: number; rule: string }[] = [];
      for (const op of operationsWithScope('read', ctx.contract)) {
        const rule = scopeRuleOf(op);
        if (rule === undefined) continue;
        const res = await call(ctx, op, await probe(ctx, op, 'write', realIds));
        answers.push({ op, status: res.status, rule });
      }
      const refused = answers.filter((a) => a.status === 403);
      if (refused.length === 0) return answers.length;
      const answered = answers.find((a) => a.status >= 200 && a.status < 300);
      if (answered !== undefined)
        violate(
          answered.rule,
          `write-key-read-scope:${answered.op}`,
          `the write key is refused 403 on ${refused.map((a) => a.op).join(', ')} (it lacks the read scope) but ${answered.op} answers it ${answered.status}: a read-scoped route must refuse a key without read`,
        );
      return answers.length;
    }),
};

export const noRateLimit: Law = {
  id: 'auth.no-rate-limit',
  group: 'auth',
  title: 'a moderate burst with one key is never answered 429',
  ruleIds: ['AUTH-NO-RATE-LIMITING'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const burst = 20;
      const results = await Promise.all(
        Array.from({ length: burst }, () => call(ctx, 'listAgents', { auth: 'read' })),
      );
      for (const res of results)
        expectConforming(ctx, 'listAgents', res, {
          status: 200,
          statusRule: 'AUTH-NO-RATE-LIMITING',
          what: 'burst of 20 agent-list reads',
        });
      return burst;
    }),
};

/**
 * Headers a browser or a proxy adds to every request, named as long as `X-API-Key` (`sec-ch-ua`,
 * Chromium's) and `Content-Type` (`x-request-id`): a server that looked a header up by anything less
 * than its whole name would read them as the key or the body's media type.
 */
const ADDED_HEADERS: Readonly<Record<string, string>> = {
  'sec-ch-ua': '"Chromium";v="130", "Not?A_Brand";v="99"',
  'x-request-id': '3f1c2a9e-5b7d-4e8f-9a0b-1c2d3e4f5a6b',
  'x-forwarded-for': '203.0.113.7',
};

export const otherHeaders: Law = {
  id: 'auth.other-headers',
  group: 'auth',
  title:
    'headers browsers and proxies add change nothing: a valid key still authenticates, a JSON body is still read as JSON; an absolute-form target is served',
  ruleIds: ['AUTH-HEADER-X-API-KEY', 'MOD-SUBMIT-STATUSES-DECLARED', 'HTTP-ABSOLUTE-FORM-TARGET'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const read = await call(ctx, 'listAgents', { auth: 'read', headers: ADDED_HEADERS });
      expectConforming(ctx, 'listAgents', read, {
        status: 200,
        statusRule: 'AUTH-HEADER-X-API-KEY',
        what: `the agent list with a read key and ${Object.keys(ADDED_HEADERS).join(', ')}`,
      });
      // RFC 9112 3.2.2: a server must accept the absolute form (GET http://host/v0/agents HTTP/1.1),
      // which clients configured for a proxy send.
      const absolute = await call(ctx, 'listAgents', { auth: 'read', absoluteTarget: true });
      if (absolute.status !== read.status)
        violate(
          'HTTP-ABSOLUTE-FORM-TARGET',
          `absolute-form:${absolute.status}`,
          `the agent list answers ${read.status} in origin form (GET /v0/agents) but ${absolute.status} with an absolute-form target (GET http://host/v0/agents HTTP/1.1)`,
        );
      if (!ctx.client.hasKey('write')) return 2;
      // A submission with no field at all is refused by any deployment (400 or 422; 403 where the
      // organization has no moderation mode) and creates nothing; with the added headers it is
      // refused the same way, never taken for a body of another media type (415 is not declared).
      const plain = await call(ctx, 'submitModerationCase', { auth: 'write', json: {} });
      const added = await call(ctx, 'submitModerationCase', {
        auth: 'write',
        json: {},
        headers: ADDED_HEADERS,
      });
      for (const [res, what] of [
        [plain, 'an empty submission'],
        [added, `an empty submission with ${Object.keys(ADDED_HEADERS).join(', ')}`],
      ] as const)
        expectConforming(ctx, 'submitModerationCase', res, {
          status: [400, 403, 422],
          statusRule: 'MOD-SUBMIT-STATUSES-DECLARED',
          what,
        });
      if (plain.status !== added.status)
        violate(
          'MOD-SUBMIT-STATUSES-DECLARED',
          'added-headers',
          `an empty submission is answered ${plain.status}, but ${added.status} with the headers ${Object.keys(ADDED_HEADERS).join(', ')}`,
        );
      return 4;
    }),
};

export const authLaws: readonly Law[] = [
  missingKey,
  invalidKey,
  readKeyOnWriteRoutes,
  writeKeyNoIngest,
  ingestKeyNoReporting,
  writeKeyReadRoutesAgree,
  noRateLimit,
  otherHeaders,
  expiredKey,
  revokedKey,
];
