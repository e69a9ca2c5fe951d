import { ingestionBatch } from '../../src/arbitraries/index.ts';
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { hardExternalIds } from './hard-ids.ts';
import { arr, call, expectConforming, obj } from './support.ts';

export const ingestionAccepted: Law = {
  id: 'ingestion.accepted',
  group: 'ingestion',
  title:
    'a valid batch, its record ids in every hard shape, gets 202 {status: accepted, accepted: number of records}',
  ruleIds: [
    'ING-202-ACCEPTED',
    'ING-ACCEPTED-COUNT',
    'ING-202-ACCEPTANCE-NOT-COMPLETION',
    'SCHEMA-INGESTION-ACCEPTED',
    'AUTH-IMPORT-KEY-INGEST',
    'SCOPE-INGEST-PERMISSION',
    'ING-STATUSES-DECLARED',
    'ID-STRING-PRESERVED',
  ],
  needs: { keys: ['ingest'], writes: true },
  run: (ctx) =>
    runProperty(ctx, ingestionBatch({ externalIdPrefix: ctx.prefix, maxRecords: 8 }), async (generated) => {
      // Record ids in the hard shapes of section 2 (digits above 2^53, leading zeros, whitespace,
      // non-ASCII, a composed and a decomposed form, the longest): each is a record of its own.
      const hard = Object.values(hardExternalIds(ctx));
      const batch = {
        ...generated,
        records: arr(generated['records']).map((r, i) => ({
          ...obj(r),
          externalId: hard[i % hard.length] ?? ctx.unique('ing'),
        })),
      };
      const res = await call(ctx, 'ingestRecords', { auth: 'ingest', json: batch });
      expectConforming(ctx, 'ingestRecords', res, {
        status: 202,
        statusRule: 'ING-202-ACCEPTED',
        before: (parsed) => {
          const p = obj(parsed);
          if (p['status'] !== 'accepted')
            violate(
              'ING-202-ACCEPTED',
              `status:${String(p['status'])}`,
              `ingestion answered status ${JSON.stringify(p['status'])}`,
            );
          if (p['accepted'] !== batch.records.length)
            violate(
              'ING-ACCEPTED-COUNT',
              'accepted-count',
              `ingestion accepted ${JSON.stringify(p['accepted'])} of ${batch.records.length} records`,
            );
        },
      });
    }),
};

export const ingestionLaws: readonly Law[] = [ingestionAccepted];
