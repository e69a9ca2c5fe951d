/**
 * The benchmarked routes and their request bodies. The same request mix goes to every server; only
 * the moderation case varies per request (a unique externalId each, so cca-kit accepts every one).
 */
import type { AutocannonRequest } from 'autocannon';
import { contractDocument } from '../../src/contract/index.ts';
import type { WrkRequest } from './wrk.ts';

export type RouteName =
  | 'list'
  | 'detail'
  | 'search'
  | 'tags'
  | 'tagVolume'
  | 'sentiment'
  | 'engagement'
  | 'agents'
  | 'queues'
  | 'ingest'
  | 'moderation'
  | 'customFields';

export interface BenchKeys {
  /** Read scope, organization in ad_policy mode. */
  readonly read: string;
  /** Write scope (moderation). */
  readonly write: string;
  /** Ingest scope. */
  readonly ingest: string;
}

export interface BenchRoute {
  readonly name: RouteName;
  readonly label: string;
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly isGet: boolean;
  /** The autocannon request list for this route. */
  requests(keys: BenchKeys): AutocannonRequest[];
  /** The same for wrk; `tag` keeps unique bodies unique across runs. */
  wrk(keys: BenchKeys, tag: string): WrkRequest;
  /** One request, for recording what cca-kit answers. */
  sample(keys: BenchKeys): { method: string; path: string; headers: Record<string, string>; body?: string };
}

/** The contract's `accepted` moderation example, read from the contract so the two cannot drift. */
const ACCEPTED_SUBMISSION = acceptedExample();

function acceptedExample(): Record<string, unknown> {
  type Body = {
    content: { 'application/json': { examples: { accepted: { value: Record<string, unknown> } } } };
  };
  const body = contractDocument.paths?.['/v0/moderation/cases']?.post?.requestBody as Body | undefined;
  if (body === undefined) throw new Error('the contract has no body for POST /v0/moderation/cases');
  return body.content['application/json'].examples.accepted.value;
}

/** The contract's `updated` custom-fields example (a PATCH body that the seeded catalog accepts). */
const UPDATED_FIELDS = updatedFieldsExample();

function updatedFieldsExample(): Record<string, unknown> {
  type Body = {
    content: { 'application/json': { examples: { updated: { value: Record<string, unknown> } } } };
  };
  const body = contractDocument.paths?.['/v0/actions/{actionId}/custom-fields']?.patch?.requestBody as
    | Body
    | undefined;
  if (body === undefined) throw new Error('the contract has no body for PATCH custom fields');
  return body.content['application/json'].examples.updated.value;
}

/** A valid moderation submission (the contract's `accepted` example, with a chosen externalId). */
export function moderationSubmission(externalId: string): Record<string, unknown> {
  return { ...ACCEPTED_SUBMISSION, externalId };
}

/** A valid ingestion batch of `size` records; `prefix` makes the externalIds distinct between batches. */
export function ingestionBatch(size: number, prefix = 'bench'): Record<string, unknown> {
  const records = [];
  for (let i = 0; i < size; i++) {
    records.push({
      externalId: `${prefix}-${i}`,
      threadExternalId: `${prefix}-thread-${Math.floor(i / 10)}`,
      authorId: `author-${i % 17}`,
      authorName: `Author ${i % 17}`,
      title: `Record ${i}`,
      body: `Body of record ${i}: the zipper on my jacket broke after two days.`,
      score: i % 6,
      createdAt: '2026-11-20T08:00:00.000Z',
      url: `https://discord.example/channels/srv/${prefix}/${i}`,
      recordType: 'MESSAGE',
    });
  }
  return {
    platform: 'DISCORD',
    serverId: 'bench-server',
    serverName: 'Bench Community',
    channelId: 'bench-channel',
    channelName: 'support',
    processingLevel: 'INSIGHTS',
    source: { system: 'bench', sourceId: 'bench-run' },
    records,
  };
}

const json = { 'content-type': 'application/json' };

function getRoute(name: RouteName, label: string, path: string): BenchRoute {
  return {
    name,
    label,
    method: 'GET',
    path,
    isGet: true,
    requests: (keys) => [{ method: 'GET', path, headers: { 'x-api-key': keys.read } }],
    wrk: (keys) => ({ method: 'GET', path, headers: { 'x-api-key': keys.read } }),
    sample: (keys) => ({ method: 'GET', path, headers: { 'x-api-key': keys.read } }),
  };
}

/** A write that sends the same body every time. */
function bodyRoute(
  name: RouteName,
  label: string,
  method: 'POST' | 'PATCH',
  path: string,
  body: string,
  scope: 'write' | 'ingest',
): BenchRoute {
  const request = (keys: BenchKeys) => ({
    method,
    path,
    headers: { ...json, 'x-api-key': keys[scope] },
    body,
  });
  return {
    name,
    label,
    method,
    path,
    isGet: false,
    requests: (keys) => [request(keys)],
    wrk: (keys) => request(keys),
    sample: (keys) => request(keys),
  };
}

/**
 * The routes. `detailId` is an action id of the seeded data (read from the list first); `runTag` keeps
 * moderation externalIds unique across the rounds of one run and across runs against one server.
 */
export function benchRoutes(detailId: string, runTag: string): readonly BenchRoute[] {
  const ingestBody = JSON.stringify(ingestionBatch(100));
  let counter = 0;
  const nextModerationBody = () => JSON.stringify(moderationSubmission(`bench-${runTag}-${++counter}`));
  return [
    getRoute('list', 'GET action list (pageSize 50)', '/v0/action/list?pageSize=50'),
    getRoute('detail', 'GET action detail', `/v0/action/${encodeURIComponent(detailId)}`),
    getRoute('search', 'GET conversation search', '/v0/conversations/search?pageSize=50'),
    getRoute('tags', 'GET tag analytics', '/v0/analytics/tags'),
    getRoute('tagVolume', 'GET tag volume', '/v0/analytics/tags/volume'),
    getRoute('sentiment', 'GET sentiment by day', '/v0/analytics/sentiment'),
    getRoute('engagement', 'GET engagement', '/v0/analytics/engagement'),
    getRoute('agents', 'GET agents', '/v0/agents'),
    getRoute('queues', 'GET queues', '/v0/queues'),
    {
      name: 'ingest',
      label: 'POST ingestion (100 records, the same batch each time)',
      method: 'POST',
      path: '/v0/ingest/records',
      isGet: false,
      requests: (keys) => [
        {
          method: 'POST',
          path: '/v0/ingest/records',
          headers: { ...json, 'x-api-key': keys.ingest },
          body: ingestBody,
        },
      ],
      wrk: (keys) => ({
        method: 'POST',
        path: '/v0/ingest/records',
        headers: { ...json, 'x-api-key': keys.ingest },
        body: ingestBody,
      }),
      sample: (keys) => ({
        method: 'POST',
        path: '/v0/ingest/records',
        headers: { ...json, 'x-api-key': keys.ingest },
        body: ingestBody,
      }),
    },
    {
      name: 'moderation',
      label: 'POST moderation case (unique externalId)',
      method: 'POST',
      path: '/v0/moderation/cases',
      isGet: false,
      requests: (keys) => [
        {
          method: 'POST',
          path: '/v0/moderation/cases',
          headers: { ...json, 'x-api-key': keys.write },
          setupRequest: (request) => ({ ...request, body: nextModerationBody() }),
        },
      ],
      wrk: (keys, tag) => {
        const [prefix = '', suffix = ''] = JSON.stringify(moderationSubmission('@@ID@@')).split('@@ID@@');
        return {
          method: 'POST',
          path: '/v0/moderation/cases',
          headers: { ...json, 'x-api-key': keys.write },
          unique: { prefix, suffix, tag: `bench-${runTag}-${tag}` },
        };
      },
      sample: (keys) => ({
        method: 'POST',
        path: '/v0/moderation/cases',
        headers: { ...json, 'x-api-key': keys.write },
        body: nextModerationBody(),
      }),
    },
    bodyRoute(
      'customFields',
      'PATCH custom fields (one field, the same value each time)',
      'PATCH',
      `/v0/actions/${encodeURIComponent(detailId)}/custom-fields`,
      JSON.stringify(UPDATED_FIELDS),
      'write',
    ),
  ];
}
