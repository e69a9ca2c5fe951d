import { aimedQueryCases } from '../../src/arbitraries/index.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { historyWindow } from './discover.ts';
import { resolverOf } from './paths.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/** Inputs of the read operations: every query constraint, filters that must be refused or ignored. */

const LIST_PARAM_RULE: Readonly<Record<string, string>> = {
  pageSize: 'LIST-PAGESIZE-RANGE',
  sortBy: 'LIST-SORTBY-VALUES',
  from: 'LIST-FROM-ISO-8601',
  to: 'LIST-FROM-ISO-8601',
  fullFilter: 'LIST-FULLFILTER-MAX-LENGTH',
  includeFullConversation: 'LIST-INCLUDEFULLCONVERSATION-DEFAULT-FALSE',
};
const SEARCH_PARAM_RULE: Readonly<Record<string, string>> = {
  page: 'SEARCH-PAGE-RANGE',
  pageSize: 'SEARCH-PAGESIZE-RANGE',
};

/**
 * The DSL the suite itself sends: only what the spec shows or implies (4.13: `key=value` terms joined
 * with `+`, all of which must hold; `status=OPEN`; platform, queue and status, the keys 4.1 implies
 * fullFilter can filter on). A deployment may refuse any other key with 400 (the mock's choice
 * unknownFilterKey), so the suite never sends one.
 */
export const SAMPLE_FILTER = 'status=OPEN';

/** A fullFilter of exactly `n` characters in the spec's form (a queue no deployment has: matches nothing). */
const fullFilterOfLength = (n: number): string => `queue=${'x'.repeat(Math.max(0, n - 6))}`;

function queryLaw(
  operationId: 'listActions' | 'searchConversations',
  rules: Readonly<Record<string, string>>,
): Law {
  return {
    id: `inputs.${operationId}-query`,
    group: 'inputs',
    title: `${operationId}: every query constraint, just inside (200) and just outside (400 with the error body)`,
    ruleIds: [...new Set(Object.values(rules)), 'ERR-GENERAL-BODY', 'MOCK-QUERY-INVALID-400'],
    needs: { keys: ['read'] },
    run: (ctx) => {
      const resolve = resolverOf(ctx);
      const params = ctx.contract
        .getOperation(operationId)
        .parameters.filter((p) => p.in === 'query' && rules[p.name] !== undefined);
      const cases = params.flatMap((p) =>
        aimedQueryCases(
          p.name,
          p.schema,
          resolve,
          p.name === 'fullFilter' ? fullFilterOfLength : undefined,
        ).map((c) => ({ ...c, rule: rules[p.name] ?? 'ERR-GENERAL-BODY' })),
      );
      return runExamples(ctx, async () => {
        const base = operationId === 'listActions' ? { ...historyWindow(ctx), pageSize: 5 } : { pageSize: 5 };
        for (const c of cases) {
          const name = String(c.path[0]);
          const query = { ...base, [name]: c.value as string };
          const res = await call(ctx, operationId, { auth: 'read', query });
          expectConforming(ctx, operationId, res, {
            status: c.valid ? 200 : 400,
            statusRule: c.rule,
            what: `${operationId} with ${c.description}`,
          });
        }
        return cases.length;
      });
    },
  };
}

export const listQuery = queryLaw('listActions', LIST_PARAM_RULE);
export const searchQuery = queryLaw('searchConversations', SEARCH_PARAM_RULE);

export const fullFilterCombos: Law = {
  id: 'inputs.list-fullfilter-combos',
  group: 'inputs',
  title: 'fullFilter combined with filter or filterJson is a 400',
  ruleIds: ['LIST-FULLFILTER-WITH-FILTER-400', 'ERR-GENERAL-BODY'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      // The control is the spec's own sample form; the legacy parameters carry the responded flag they read.
      const base = { ...historyWindow(ctx), pageSize: 5, fullFilter: SAMPLE_FILTER };
      const alone = await call(ctx, 'listActions', { auth: 'read', query: base });
      expectConforming(ctx, 'listActions', alone, {
        status: 200,
        statusRule: 'LIST-FULLFILTER-WITH-FILTER-400',
        what: 'listActions with fullFilter alone',
      });
      for (const extra of [{ filter: 'responded=true' }, { filterJson: '{"responded":true}' }]) {
        const res = await call(ctx, 'listActions', { auth: 'read', query: { ...base, ...extra } });
        expectConforming(ctx, 'listActions', res, {
          status: 400,
          statusRule: 'LIST-FULLFILTER-WITH-FILTER-400',
          what: `listActions with fullFilter and ${Object.keys(extra)[0]}`,
        });
      }
      return 3;
    }),
};

/** filterJson values that are JSON but not an object, so carry no responded flag. */
const NOT_AN_OBJECT: readonly string[] = ['null', '[]', '[{"responded":true}]', '5', '"responded"'];

export const legacyFilters: Law = {
  id: 'inputs.list-legacy-filters',
  group: 'inputs',
  title:
    'legacy filter/filterJson read only the responded flag (a platform term changes nothing; JSON that is no object is the default or a 400)',
  ruleIds: ['LIST-LEGACY-FILTER-ONLY-RESPONDED', 'LIST-LEGACY-FILTERJSON-ONLY-RESPONDED'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const base = { ...historyWindow(ctx), pageSize: 100 };
      const ids = async (query: Record<string, string | number>, rule: string): Promise<string> => {
        const res = await call(ctx, 'listActions', { auth: 'read', query });
        const ok = expectConforming(ctx, 'listActions', res, { status: 200, statusRule: rule });
        return arr(obj(ok.parsed)['data'])
          .map((a) => str(obj(a)['actionId']))
          .join(',');
      };
      const plain = await ids(base, 'LIST-LEGACY-FILTER-ONLY-RESPONDED');
      // The responded flag set as the default already sets it: the same list, whether the deployment
      // reads this spelling of the flag or reads nothing it does not know.
      if ((await ids({ ...base, filter: 'responded=true' }, 'LIST-LEGACY-FILTER-ONLY-RESPONDED')) !== plain)
        violate(
          'LIST-LEGACY-FILTER-ONLY-RESPONDED',
          'responded-flag-default',
          'legacy filter=responded=true changed the result: responded actions are already the default',
        );
      if (
        (await ids(
          { ...base, filterJson: JSON.stringify({ responded: true }) },
          'LIST-LEGACY-FILTERJSON-ONLY-RESPONDED',
        )) !== plain
      )
        violate(
          'LIST-LEGACY-FILTERJSON-ONLY-RESPONDED',
          'responded-flag-default',
          'legacy filterJson {"responded":true} changed the result: responded actions are already the default',
        );
      for (const platform of ['DISCORD', 'ZENDESK']) {
        if (
          (await ids({ ...base, filter: `platform=${platform}` }, 'LIST-LEGACY-FILTER-ONLY-RESPONDED')) !==
          plain
        ) {
          violate(
            'LIST-LEGACY-FILTER-ONLY-RESPONDED',
            'platform-applied',
            `legacy filter=platform=${platform} changed the result: only the responded flag may be read`,
          );
        }
        if (
          (await ids(
            { ...base, filterJson: JSON.stringify({ platform }) },
            'LIST-LEGACY-FILTERJSON-ONLY-RESPONDED',
          )) !== plain
        ) {
          violate(
            'LIST-LEGACY-FILTERJSON-ONLY-RESPONDED',
            'platform-applied',
            `legacy filterJson {"platform":"${platform}"} changed the result: only the responded flag may be read`,
          );
        }
      }
      // JSON that holds no responded flag because it is no object: the flag is absent (the same list as
      // without filterJson) or the value is refused (400); the spec allows either, never a server error.
      for (const filterJson of NOT_AN_OBJECT) {
        const res = await call(ctx, 'listActions', { auth: 'read', query: { ...base, filterJson } });
        const ok = expectConforming(ctx, 'listActions', res, {
          status: [200, 400],
          statusRule: 'LIST-LEGACY-FILTERJSON-ONLY-RESPONDED',
          what: `listActions with filterJson ${filterJson} (JSON, not an object)`,
        });
        if (ok.status !== 200) continue;
        const got = arr(obj(ok.parsed)['data'])
          .map((a) => str(obj(a)['actionId']))
          .join(',');
        if (got !== plain)
          violate(
            'LIST-LEGACY-FILTERJSON-ONLY-RESPONDED',
            'not-an-object-applied',
            `legacy filterJson ${filterJson} holds no responded flag, yet the list differs from the one without it`,
          );
      }
      return 7 + NOT_AN_OBJECT.length;
    }),
};
