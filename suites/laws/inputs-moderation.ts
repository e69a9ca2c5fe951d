import fc from 'fast-check';
import {
  type AimedCase,
  aimedCases,
  arbitraryFromSchema,
  moderationSubmission,
} from '../../src/arbitraries/index.ts';
import { runExamples, runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { component, humanPath, namesField, prefixedOfLength, resolverOf } from './paths.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/** Moderation bodies: every constraint of a submission, schema-generated submissions, batch sizes. */

const MOD_LENGTH_RULES: Readonly<Record<string, string>> = {
  externalId: 'MOD-EXTERNALID-LENGTH',
  sourceSystem: 'MOD-SOURCESYSTEM-LENGTH',
  sourcePlatform: 'MOD-SOURCEPLATFORM-LENGTH',
  sourceAdId: 'MOD-SOURCEADID-LENGTH',
  advertiserId: 'MOD-ADVERTISERID-LENGTH',
  advertiserName: 'MOD-ADVERTISERNAME-LENGTH',
  campaignId: 'MOD-CAMPAIGNID-LENGTH',
  market: 'MOD-MARKET-LENGTH',
  placement: 'MOD-PLACEMENT-LENGTH',
  language: 'MOD-LANGUAGE-LENGTH',
  title: 'MOD-TITLE-LENGTH',
  headline: 'MOD-HEADLINE-LENGTH',
  brandName: 'MOD-BRANDNAME-LENGTH',
  publicProfile: 'MOD-PUBLICPROFILE-SHAPE',
  copy: 'MOD-COPY-LENGTH',
  callToAction: 'MOD-CALLTOACTION-ENUM',
  attachment: 'MOD-ATTACHMENT-SHAPE',
};

/** The catalog rule an aimed moderation case exercises. */
export function moderationRule(c: Pick<AimedCase, 'path' | 'constraint'>): string {
  const [head, second] = c.path;
  if (head === undefined) return 'MOD-REQUIRED-FIELDS';
  if (c.constraint === 'required' && c.path.length === 1) return 'MOD-REQUIRED-FIELDS';
  if (head === 'media')
    return c.path.length === 1 && c.constraint !== 'type' ? 'MOD-MEDIA-COUNT' : 'MOD-MEDIA-ITEM';
  if (head === 'targeting') {
    if (second === 'geos') return 'MOD-TARGETING-GEOS-RANGE';
    if (second === 'languages') return 'MOD-TARGETING-LANGUAGES-RANGE';
    return 'MOD-TARGETING-AGE';
  }
  return MOD_LENGTH_RULES[String(head)] ?? 'MOD-OPTIONAL-TYPES';
}

/** Fresh externalId and coherent media positions unless the case aims at them. */
function normalizeSubmission(ctx: LawContext, c: AimedCase): unknown {
  if (c.path.length === 0) return c.value;
  const value = { ...obj(c.value) };
  if (c.path[0] !== 'externalId' && !(c.constraint === 'required' && c.path.length === 0))
    value['externalId'] = ctx.unique('in');
  const aimsAtPosition = c.path.includes('position');
  if (Array.isArray(value['media']) && !aimsAtPosition && c.path[0] !== 'media') {
    value['media'] = value['media'].map((m, i) =>
      typeof m === 'object' && m !== null ? { ...m, position: (i % 20) + 1 } : m,
    );
  }
  if (Array.isArray(value['media']) && c.path[0] === 'media' && c.path.length === 1 && !aimsAtPosition) {
    value['media'] = value['media'].map((m, i) =>
      typeof m === 'object' && m !== null ? { ...m, position: Math.min(i + 1, 20) } : m,
    );
  }
  return value;
}

export const MODERATION_INPUT_RULES = [
  ...new Set([
    ...Object.values(MOD_LENGTH_RULES),
    'MOD-REQUIRED-FIELDS',
    'MOD-MEDIA-COUNT',
    'MOD-MEDIA-ITEM',
    'MOD-TARGETING-AGE',
    'MOD-TARGETING-GEOS-RANGE',
    'MOD-TARGETING-LANGUAGES-RANGE',
    'MOD-OPTIONAL-TYPES',
  ]),
];

/** Checks a refusal's moderation error body names the case's field with the right code. */
export function checkModerationRefusal(
  body: unknown,
  c: AimedCase,
  ruleForBody = 'ERR-MODERATION-BODY',
): void {
  const b = obj(body);
  const missing = c.constraint === 'required';
  const code = str(b['code']);
  if (c.path.length === 0) return;
  // A field missing inside a present item (`media[0].url`) is incomplete input or an invalid item:
  // the spec does not say which, so either code (and either field list) is accepted there.
  const nestedMissing = missing && c.path.length > 1;
  const codes = nestedMissing
    ? ['MODERATION_INPUT_INCOMPLETE', 'MODERATION_INPUT_INVALID']
    : [missing ? 'MODERATION_INPUT_INCOMPLETE' : 'MODERATION_INPUT_INVALID'];
  if (code !== undefined && !codes.includes(code)) {
    // Which code a kind of fault gets is a reading (level should), not the body's shape.
    violate(
      'ERR-MODERATION-CODE-KIND',
      `code:${missing ? 'missing' : 'invalid'}:${code}`,
      `${c.description}: refusal code ${code}, expected ${codes.join(' or ')}`,
    );
  }
  const list = nestedMissing
    ? [...arr(b['missingFields']), ...arr(b['invalidFields'])]
    : arr(b[missing ? 'missingFields' : 'invalidFields']);
  const any = arr(b['missingFields']).length + arr(b['invalidFields']).length > 0;
  if (any && c.path.length > 0 && !namesField(list, c)) {
    violate(
      ruleForBody,
      `fields:${missing ? 'missing' : 'invalid'}`,
      `${c.description}: ${nestedMissing ? 'missingFields and invalidFields' : missing ? 'missingFields' : 'invalidFields'} ${JSON.stringify(list)} do not name ${humanPath(c.path)}`,
    );
  }
}

/** One valid submission of the run's seed, external id under the run's prefix: the base of aimed cases. */
function sampleSubmission(ctx: LawContext) {
  return fc.sample(moderationSubmission({ externalIdPrefix: ctx.prefix }), { seed: ctx.seed, numRuns: 1 })[0];
}

export function moderationCases(ctx: LawContext, base: unknown): AimedCase[] {
  return aimedCases(component('ModerationSubmission'), base, {
    resolve: resolverOf(ctx),
    stringOfLength: (path, n) =>
      path.length === 1 && path[0] === 'externalId' ? prefixedOfLength(ctx, 'len', n) : 'a'.repeat(n),
    skip: ['providerMetadata'],
  }).filter((c) => !(c.valid && c.path[0] === 'externalId' && c.constraint === 'minLength'));
}

export const moderationSingleInputs: Law = {
  id: 'inputs.moderation-single',
  group: 'inputs',
  title:
    'moderation submission: every constraint just inside (202) and just outside (400/422 with the moderation error body)',
  ruleIds: [
    ...MODERATION_INPUT_RULES,
    'ERR-MODERATION-BODY',
    'ERR-MODERATION-CODE-KIND',
    'MOCK-MODERATION-INCOMPLETE-400',
    'MOCK-MODERATION-INVALID-422',
    'AUTH-WRITE-KEY-WRITE-ROUTES',
  ],
  needs: { keys: ['write'], writes: true },
  run: (ctx) => {
    const base = sampleSubmission(ctx);
    const cases = moderationCases(ctx, base);
    return runExamples(ctx, async () => {
      for (const c of cases) {
        const rule = moderationRule(c);
        const body = normalizeSubmission(ctx, c);
        const res = await call(ctx, 'submitModerationCase', { auth: 'write', json: body });
        expectConforming(ctx, 'submitModerationCase', res, {
          status: c.valid ? 202 : [400, 422],
          statusRule: rule,
          what: `submitModerationCase with ${c.description}`,
          before: (parsed) => {
            if (!c.valid) checkModerationRefusal(parsed, c);
            else if (obj(parsed)['status'] !== 'accepted')
              violate(
                rule,
                'valid-not-accepted',
                `${c.description}: status ${String(obj(parsed)['status'])}, expected accepted`,
              );
          },
        });
      }
      return cases.length;
    });
  },
};

export const moderationGenerated: Law = {
  id: 'inputs.moderation-generated',
  group: 'inputs',
  title: 'moderation submissions generated from the contract schema are accepted (202)',
  ruleIds: ['MOD-SUBMIT-202', 'MOD-OPTIONAL-TYPES', 'MOD-REQUIRED-FIELDS', 'SCHEMA-MODERATION-ACK'],
  needs: { keys: ['write'], writes: true },
  run: (ctx) => {
    const arb = arbitraryFromSchema(component('ModerationSubmission'), { resolve: resolverOf(ctx) });
    return runProperty(ctx, arb, async (generated) => {
      const body = { ...plausibleAges(obj(generated)), externalId: ctx.unique('gen') };
      const res = await call(ctx, 'submitModerationCase', { auth: 'write', json: body });
      expectConforming(ctx, 'submitModerationCase', res, {
        status: 202,
        statusRule: 'MOD-SUBMIT-202',
        what: 'submitModerationCase with a schema-generated submission',
      });
    });
  },
};

/**
 * The spec types `targeting.ageMin`/`ageMax` as integer or null and bounds neither, so the schema
 * generates ages such as -1, or a maximum below the minimum. A deployment may well refuse an age no
 * audience has: the spec does not say it must take one, so the generated case keeps the ages of people
 * (0..120, the maximum not below the minimum) and judges everything else the schema allows.
 */
function plausibleAges(body: Record<string, unknown>): Record<string, unknown> {
  const targeting = body['targeting'];
  if (typeof targeting !== 'object' || targeting === null || Array.isArray(targeting)) return body;
  const age = (value: unknown): unknown =>
    typeof value === 'number' ? Math.min(120, Math.max(0, Math.trunc(value))) : value;
  const next: Record<string, unknown> = { ...targeting };
  if ('ageMin' in next) next['ageMin'] = age(next['ageMin']);
  if ('ageMax' in next) next['ageMax'] = age(next['ageMax']);
  const min = next['ageMin'];
  const max = next['ageMax'];
  if (typeof min === 'number' && typeof max === 'number' && max < min) next['ageMax'] = min;
  // Geos and languages are "array of string" with no rule for an item: a deployment may read them as
  // codes and refuse a blank one, so a blank item is given a code (the item counts stay as generated).
  for (const [key, code] of [
    ['geos', 'US'],
    ['languages', 'en'],
  ] as const) {
    const items = next[key];
    if (Array.isArray(items))
      next[key] = items.map((item: unknown) =>
        typeof item === 'string' && item.trim() === '' ? code : item,
      );
  }
  return { ...body, targeting: next };
}

export const moderationBatchSize: Law = {
  id: 'inputs.moderation-batch-size',
  group: 'inputs',
  title: 'moderation batch: 1 and 100 cases accepted, 0, 101 and a missing cases array refused with 400',
  ruleIds: ['MOD-BATCH-SIZE-RANGE', 'ERR-MODERATION-BODY'],
  needs: { keys: ['write'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const base = sampleSubmission(ctx);
      const many = (n: number) =>
        Array.from({ length: n }, () => ({ ...base, externalId: ctx.unique('bs') }));
      const cases: readonly [string, unknown, number][] = [
        ['1 case', { cases: many(1) }, 202],
        ['100 cases', { cases: many(100) }, 202],
        ['0 cases', { cases: [] }, 400],
        ['101 cases', { cases: many(101) }, 400],
        ['no cases key', {}, 400],
      ];
      for (const [label, json, status] of cases) {
        const res = await call(ctx, 'submitModerationBatch', { auth: 'write', json });
        expectConforming(ctx, 'submitModerationBatch', res, {
          status,
          statusRule: 'MOD-BATCH-SIZE-RANGE',
          what: `submitModerationBatch with ${label}`,
        });
      }
      return cases.length;
    }),
};

/**
 * The batch judges each case as the single route does (spec 4.15: a rejected item may carry `code`,
 * `missingFields` and `invalidFields`, the names section 7 gives the single route's refusal): every
 * aimed case just outside a constraint, sent as an item of a batch, is `rejected`, and when it says
 * why, its code and field lists fit the kind of fault. The cases aimed at `externalId` stay out: the
 * result of an item without a usable externalId names nothing to check against.
 */
export const moderationBatchItemInputs: Law = {
  id: 'inputs.moderation-batch-items',
  group: 'inputs',
  title:
    'moderation batch: every case just outside a constraint is a rejected item whose code and field lists fit the fault',
  ruleIds: [
    'MOD-BATCH-REJECTED-DETAILS',
    'ERR-MODERATION-CODE-KIND',
    'MOD-BATCH-ITEM-ISOLATION',
    'AUTH-WRITE-KEY-WRITE-ROUTES',
  ],
  needs: { keys: ['write'], writes: true },
  run: (ctx) => {
    const base = sampleSubmission(ctx);
    const cases = moderationCases(ctx, base).filter(
      (c) => !c.valid && c.path.length > 0 && c.path[0] !== 'externalId',
    );
    return runExamples(ctx, async () => {
      for (let start = 0; start < cases.length; start += 100) {
        const chunk = cases.slice(start, start + 100);
        const res = await call(ctx, 'submitModerationBatch', {
          auth: 'write',
          json: { cases: chunk.map((c) => normalizeSubmission(ctx, c)) },
        });
        expectConforming(ctx, 'submitModerationBatch', res, {
          status: 202,
          statusRule: 'MOD-BATCH-ITEM-ISOLATION',
          what: `submitModerationBatch with ${chunk.length} invalid cases`,
          before: (parsed) => {
            const results = arr(obj(parsed)['results']).map(obj);
            chunk.forEach((c, i) => {
              const r = results[i];
              if (r === undefined) return;
              if (r['status'] !== 'rejected')
                violate(
                  'MOD-BATCH-REJECTED-DETAILS',
                  `aimed-item:${String(r['status'])}`,
                  `batch item ${i} with ${c.description} was ${JSON.stringify(r['status'])}, expected rejected`,
                );
              else checkModerationRefusal(r, c, 'MOD-BATCH-REJECTED-DETAILS');
            });
          },
        });
      }
      return cases.length;
    });
  },
};
