import fc from 'fast-check';
import { bigIdString, leadingZeroId, moderationSubmission, unicodeId } from '../../src/arbitraries/index.ts';
import { runExamples, runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { provenUnknown } from './assume.ts';
import { readsById, unknownIdRuleOf } from './catalog-lookup.ts';
import { isolationLaws } from './isolation.ts';
import { jsonMediaType } from './media-type.ts';
import { arr, call, expectConforming, obj } from './support.ts';

/** Each read by id of the contract and the catalog's rule for an id it does not know. */
export const UNKNOWN_RULE: Readonly<Record<string, string>> = Object.fromEntries(
  readsById().flatMap((op) => {
    const rule = unknownIdRuleOf(op);
    return rule === undefined ? [] : [[op, rule]];
  }),
);

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
        // The id must be unknown to the target by its own answers, not by our guess.
        if (!(await provenUnknown(ctx, op, unknown))) continue;
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

export const statusLaws: readonly Law[] = [unknownIds, ...isolationLaws, noAdPolicy, jsonMediaType];
