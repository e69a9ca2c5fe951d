import fc from 'fast-check';
import { type AimedCase, aimedCases, ingestionBatch } from '../../src/arbitraries/index.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { component, prefixedOfLength, resolverOf } from './paths.ts';
import { arr, call, expectConforming, num, obj } from './support.ts';

/** Ingestion bodies: every constraint of a batch, just inside (202) and just outside (422). */

const ING_RULES: Readonly<Record<string, string>> = {
  platform: 'ING-PLATFORM-ENUM',
  serverId: 'ING-SERVERID-REQUIRED',
  serverName: 'ING-SERVERNAME-REQUIRED',
  channelId: 'ING-CHANNEL-OPTIONAL-STRINGS',
  channelName: 'ING-CHANNEL-OPTIONAL-STRINGS',
  processingLevel: 'ING-PROCESSING-LEVEL-ENUM',
  source: 'ING-SOURCE-SYSTEM-REQUIRED',
  externalId: 'ING-RECORD-EXTERNALID-REQUIRED',
  authorId: 'ING-RECORD-AUTHORID-REQUIRED',
  authorName: 'ING-RECORD-AUTHORNAME-REQUIRED',
  body: 'ING-RECORD-BODY-REQUIRED',
  createdAt: 'ING-RECORD-CREATEDAT-REQUIRED',
  recordType: 'ING-RECORD-RECORDTYPE-REQUIRED',
  score: 'ING-RECORD-SCORE-RANGE',
  url: 'ING-RECORD-URL-ABSOLUTE',
};

export function ingestionRule(c: Pick<AimedCase, 'path'>): string {
  const [head, , field] = c.path;
  if (head === 'records')
    return field === undefined
      ? 'ING-RECORDS-RANGE'
      : (ING_RULES[String(field)] ?? 'ING-RECORD-OPTIONAL-FIELDS');
  if (head === undefined) return 'ING-RECORDS-RANGE';
  return ING_RULES[String(head)] ?? 'ING-RECORD-OPTIONAL-FIELDS';
}

function normalizeBatch(ctx: LawContext, c: AimedCase): unknown {
  if (c.path.length === 0) return c.value;
  const value = { ...obj(c.value) };
  const aimsAtRecordId = c.path[0] === 'records' && c.path[2] === 'externalId';
  if (Array.isArray(value['records']) && !aimsAtRecordId) {
    value['records'] = value['records'].map((r) =>
      typeof r === 'object' && r !== null && !Array.isArray(r) ? { ...r, externalId: ctx.unique('rec') } : r,
    );
  }
  return value;
}

export const INGESTION_INPUT_RULES = [
  ...new Set([...Object.values(ING_RULES), 'ING-RECORDS-RANGE', 'ING-RECORD-OPTIONAL-FIELDS']),
];

export const ingestionInputs: Law = {
  id: 'inputs.ingestion',
  group: 'inputs',
  title:
    'ingestion batch: every constraint just inside (202, accepted = records) and just outside (422 with the error body)',
  ruleIds: [...INGESTION_INPUT_RULES, 'ING-ACCEPTED-COUNT', 'ERR-GENERAL-BODY', 'AUTH-IMPORT-KEY-INGEST'],
  needs: { keys: ['ingest'], writes: true },
  run: (ctx) => {
    // Two records: a case aimed at one record always has a valid one beside it, so a deployment that
    // accepts a batch in part (202, the invalid record not counted) is told apart from one that
    // counts or keeps the invalid record.
    const [base] = fc.sample(ingestionBatch({ externalIdPrefix: ctx.prefix, minRecords: 2, maxRecords: 2 }), {
      seed: ctx.seed,
      numRuns: 1,
    });
    const cases = aimedCases(component('IngestionBatch'), base, {
      resolve: resolverOf(ctx),
      stringOfLength: (path, n) =>
        path.at(-1) === 'externalId' || path[0] === 'serverId'
          ? prefixedOfLength(ctx, 'len', n)
          : 'a'.repeat(n),
      skip: ['records.0.customFields'],
    }).filter(
      (c) =>
        !(
          c.valid &&
          c.constraint === 'minLength' &&
          (c.path.at(-1) === 'externalId' || c.path[0] === 'serverId')
        ),
    );
    return runExamples(ctx, async () => {
      for (const c of cases) {
        const rule = ingestionRule(c);
        const body = normalizeBatch(ctx, c);
        const res = await call(ctx, 'ingestRecords', { auth: 'ingest', json: body });
        // A value out of bounds in one record: the batch refused whole, or accepted without that record
        // (4.17: `accepted` is the "count of accepted records", which a batch accepted in part makes
        // smaller than the records sent; whether a batch is refused whole or in part is not shown).
        const inOneRecord = !c.valid && c.path[0] === 'records' && typeof c.path[1] === 'number';
        expectConforming(ctx, 'ingestRecords', res, {
          // 400 or 422 for a refused body (section 7: the condition is not shown; choice validationStatus).
          status: c.valid ? 202 : inOneRecord ? [202, 400, 422] : [400, 422],
          statusRule: rule,
          what: `ingestRecords with ${c.description}`,
          before: (parsed) => {
            const sent = arr(obj(body)['records']).length;
            const accepted = num(obj(parsed)['accepted']);
            // A refusal has no count: its status is what fails, not a count of undefined.
            if (res.kind !== 'http' || res.status !== 202 || accepted === undefined) return;
            if (c.valid && accepted !== sent) {
              violate(
                'ING-ACCEPTED-COUNT',
                'accepted-count',
                `${c.description}: accepted ${accepted}, sent ${sent} records`,
              );
            }
            if (inOneRecord && accepted >= sent)
              violate(
                rule,
                'invalid-record-accepted',
                `ingestRecords with ${c.description}: 202 with accepted ${accepted} of ${sent} records, so the invalid record was accepted (or counted as accepted)`,
              );
            else if (inOneRecord && accepted !== sent - 1)
              violate(
                'ING-ACCEPTED-COUNT',
                'accepted-count-partial',
                `${c.description}: accepted ${accepted}, sent ${sent} records of which one is invalid (the others are valid)`,
              );
          },
        });
      }
      return cases.length;
    });
  },
};
