import { ingestionBatch } from '../../src/arbitraries/index.ts';
import { runProperty, violate } from '../../src/conformance/check.ts';
import type { Law } from '../../src/conformance/law.ts';
import { arr, call, expectConforming, obj } from './support.ts';

export const ingestionAccepted: Law = {
  id: 'ingestion.accepted',
  group: 'ingestion',
  title: 'a valid batch gets 202 {status: accepted, accepted: number of records}',
  ruleIds: [
    'ING-202-ACCEPTED',
    'ING-ACCEPTED-COUNT',
    'ING-202-ACCEPTANCE-NOT-COMPLETION',
    'SCHEMA-INGESTION-ACCEPTED',
    'AUTH-IMPORT-KEY-INGEST',
    'SCOPE-INGEST-PERMISSION',
    'ING-STATUSES-DECLARED',
  ],
  needs: { keys: ['ingest'], writes: true },
  run: (ctx) =>
    runProperty(ctx, ingestionBatch({ externalIdPrefix: ctx.prefix, maxRecords: 8 }), async (generated) => {
      const batch = {
        ...generated,
        records: arr(generated['records']).map((r) => ({ ...obj(r), externalId: ctx.unique('ing') })),
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
