/** Record ingestion (section 4.17). */
import { bodyTransportErrors, err, type Located, unreadable } from './shared.ts';

export const ingestionOperations: readonly Located[] = [
  {
    method: 'post',
    path: '/v0/ingest/records',
    operationId: 'ingestRecords',
    summary: 'Ingest normalized records',
    description:
      'Accepts 1..500 records (asynchronous: 202 acknowledges acceptance; processing continues). Record identity is organization, platform, serverId and externalId: a retry with the same externalId updates, never duplicates.',
    tag: 'Ingestion',
    scope: 'ingest',
    body: {
      schema: 'IngestionBatch',
      description: 'The batch.',
      examples: {
        accepted: {
          platform: 'DISCORD',
          serverId: '000981234567890123456789',
          serverName: 'Northwind Community',
          channelId: '1180000000000000042',
          channelName: 'support',
          processingLevel: 'INSIGHTS',
          source: { system: 'community-export', sourceId: 'export-2026-11-20' },
          records: [
            {
              externalId: '1234567890123456789012345',
              threadExternalId: '1234567890123456789012345',
              authorId: '000733',
              authorName: 'Sam Rivera',
              title: 'Jacket zipper broke',
              body: 'The zipper on my winter jacket broke after two days.',
              score: 1,
              createdAt: '2026-11-20T08:00:00.000Z',
              url: 'https://discord.example/channels/000981234567890123456789/1180000000000000042/1234567890123456789012345',
              recordType: 'MESSAGE',
              customFields: { order_number: 'A-200001' },
            },
            {
              externalId: '1234567890123456789012346',
              threadExternalId: '1234567890123456789012345',
              parentExternalId: '1234567890123456789012345',
              authorId: '9007199254740993001',
              authorName: 'Northwind Support',
              body: 'Sorry to hear that, Sam! Please send us your order number.',
              createdAt: '2026-11-20T08:05:00.000Z',
              recordType: 'MESSAGE',
            },
          ],
        },
      },
      invalidExamples: {
        scoreOutOfRange: {
          platform: 'DISCORD',
          serverId: '000981234567890123456789',
          serverName: 'Northwind Community',
          records: [
            {
              externalId: '1234567890123456789012347',
              authorId: '000733',
              authorName: 'Sam Rivera',
              body: 'Five stars!',
              score: 7,
              createdAt: '2026-11-20T08:10:00.000Z',
              recordType: 'REVIEW',
            },
          ],
        },
      },
    },
    success: {
      status: 202,
      description: 'Accepted; processing continues asynchronously.',
      schema: 'IngestionAccepted',
      examples: { accepted: { status: 'accepted', accepted: 2 } },
    },
    errors: {
      400: unreadable('ErrorBody', true),
      422: {
        description: 'Validation failed; the message names the field.',
        schema: 'ErrorBody',
        examples: { scoreOutOfRange: err('records[0].score must be <= 5 (got 7)') },
      },
      ...bodyTransportErrors('ErrorBody'),
    },
  },
];
