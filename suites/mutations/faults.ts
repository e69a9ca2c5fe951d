/**
 * Deliberately faulty deployments: our mock with one injected fault each, of the kind a real service
 * could ship, and the rule the suite must name when it finds it. Controls are changes that are NOT
 * faults (the suite must pass them).
 */
import type { Keys } from '../../src/client/types.ts';
import { getOperation, operationsWithScope } from '../../src/contract/index.ts';
import { readsById } from '../laws/catalog-lookup.ts';
import {
  compose,
  type Hook,
  operationOf,
  respond,
  rewriteJson,
  rewriteRequest,
  rewriteText,
  withRequest,
} from './hook.ts';

export interface Mutant {
  readonly id: string;
  readonly description: string;
  /** Rules the suite may name for this fault (the first is the one it should name). Empty for controls. */
  readonly expect: readonly string[];
  readonly control?: true;
  hook(keys: Keys): Hook;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObj(v) ? v : {});
const mapData = (body: unknown, f: (item: Json) => Json): unknown =>
  isObj(body) && Array.isArray(body['data'])
    ? { ...body, data: body['data'].map((i) => (isObj(i) ? f(i) : i)) }
    : body;

/** Rewrites the JSON request body of some operations before the engine sees it. */
function rewriteBody(operationIds: readonly string[], edit: (body: unknown) => unknown): Hook {
  return rewriteRequest(operationIds, async (request) => {
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new Request(request.url, { method: request.method, headers: request.headers, body: text });
    }
    const headers = new Headers(request.headers);
    headers.delete('content-length');
    return new Request(request.url, { method: request.method, headers, body: JSON.stringify(edit(body)) });
  });
}

function setQuery(request: Request, edit: (q: URLSearchParams) => void): Promise<Request> {
  const url = new URL(request.url);
  edit(url.searchParams);
  return withRequest(request, { url: url.toString() });
}

/** A request without its from/to: the deployment answers its default window. */
const dropWindow = (q: URLSearchParams): void => {
  q.delete('from');
  q.delete('to');
};

function swapKey(from: string | undefined, to: string | undefined, ops: readonly string[]): Hook {
  return rewriteRequest(ops, (request) => {
    if (from === undefined || to === undefined || request.headers.get('x-api-key') !== from) return request;
    const headers = new Headers(request.headers);
    headers.set('x-api-key', to);
    return withRequest(request, { headers });
  });
}

// Which operations need which scope comes from the contract's x-required-scope.
const WRITE_OPS = operationsWithScope('write');
const READ_OPS = operationsWithScope('read');
const ALL_OPS = [...READ_OPS, ...WRITE_OPS, ...operationsWithScope('ingest')];

const FAKE_DECISION = {
  disposition: 'approve',
  confidence: 'high',
  title: null,
  reason: 'looks fine',
  hits: [],
  advertiserAssessment: { polarity: 'POSITIVE', reasoning: 'ok' },
  landingAssessment: { polarity: 'POSITIVE', reasoning: 'ok' },
  decisionSource: 'model',
  failureCode: null,
  failureMessage: null,
};

export const MUTANTS: readonly Mutant[] = [
  {
    id: 'ids-as-json-numbers',
    description: 'action ids are written as JSON numbers (precision lost above 2^53)',
    expect: ['ID-JSON-STRING-IN-RAW-BODY'],
    hook: () =>
      rewriteText(['listActions', 'getAction', 'searchConversations'], (t) =>
        t.replace(/"actionId":"(\d+)"/g, '"actionId":$1'),
      ),
  },
  {
    id: 'moderation-200-not-202',
    description: 'a moderation submission is answered 200 instead of 202',
    expect: ['MOD-SUBMIT-202', 'MOD-EXACT-RESUBMIT-DUPLICATE'],
    hook: () => rewriteText(['submitModerationCase'], (t, s) => ({ body: t, status: s === 202 ? 200 : s })),
  },
  {
    id: 'page-size-501-accepted',
    description: 'pageSize above 500 is accepted (clamped) instead of refused',
    expect: ['LIST-PAGESIZE-RANGE'],
    hook: () =>
      rewriteRequest(['listActions'], (r) =>
        setQuery(r, (q) => {
          const n = Number.parseInt(q.get('pageSize') ?? '', 10);
          if (n > 500) q.set('pageSize', '500');
        }),
      ),
  },
  {
    id: 'decision-while-pending',
    description: 'the status read shows a decision while the case is pending or running',
    expect: ['MOD-DECISION-ONLY-WHEN-COMPLETED'],
    hook: () =>
      rewriteJson(['getModerationCase'], (b, s) =>
        s === 200 && isObj(b) && (b['analysisStatus'] === 'pending' || b['analysisStatus'] === 'running')
          ? { ...b, decision: FAKE_DECISION }
          : b,
      ),
  },
  {
    id: 'read-key-can-write',
    description: 'a read-only key is allowed to write (it is treated as a write key)',
    expect: ['AUTH-READ-KEY-WRITE-ROUTE-403'],
    hook: (keys) => swapKey(keys.read, keys.write, WRITE_OPS),
  },
  {
    id: 'has-more-wrong',
    description: 'tag analytics pagination.hasMore is inverted',
    // The spec gives hasMore only as a boolean; what it means is the should rule's reading of the name.
    expect: ['TAGS-HAS-MORE-NEXT-PAGE', 'SCHEMA-PAGINATION'],
    hook: () =>
      rewriteJson(['getTagAnalytics'], (b) => {
        if (!isObj(b) || !isObj(b['data']) || !isObj(b['data']['pagination'])) return b;
        const p = b['data']['pagination'];
        return { ...b, data: { ...b['data'], pagination: { ...p, hasMore: p['hasMore'] !== true } } };
      }),
  },
  {
    id: 'queue-sentiment-nulls-as-marker',
    description:
      "a queue's averageSentimentScore averages a marker for a missing score (-32.768) in with the stored scores",
    expect: ['QUEUE-AVG-SENTIMENT-MEAN'],
    hook: () =>
      rewriteJson(['listQueues'], (b) => {
        if (!isObj(b) || !Array.isArray(b['data'])) return b;
        const data = b['data'].map((e) => {
          if (!isObj(e) || !isObj(e['metrics'])) return e;
          const m = e['metrics'];
          const avg = typeof m['averageSentimentScore'] === 'number' ? m['averageSentimentScore'] : 0;
          return { ...e, metrics: { ...m, averageSentimentScore: Math.round((avg - 1.5) * 100) / 100 } };
        });
        return { ...b, data };
      }),
  },
  {
    id: 'tag-sentiment-unscaled',
    description: 'volumeByTag avgSentiment is reported in thousandths (the stored unit), not as a score',
    expect: ['TAGS-VOLUME-AVG-SENTIMENT-MEAN'],
    hook: () =>
      rewriteJson(['getTagAnalytics'], (b) => {
        if (!isObj(b) || !isObj(b['data']) || !Array.isArray(b['data']['volumeByTag'])) return b;
        const volumeByTag = b['data']['volumeByTag'].map((r) =>
          isObj(r) && typeof r['avgSentiment'] === 'number'
            ? { ...r, avgSentiment: Math.round(r['avgSentiment'] * 1000) }
            : r,
        );
        return { ...b, data: { ...b['data'], volumeByTag } };
      }),
  },
  {
    id: 'engagement-seeded-users-uncounted',
    description:
      'engagement leaves out the users it has no key for: percentile rows vanish and growth rows count no users',
    expect: ['ENG-COUNTS-ACTION-USERS'],
    hook: () =>
      rewriteJson(['getEngagement'], (b) => {
        if (!isObj(b) || !isObj(b['data'])) return b;
        const growthTrends = Array.isArray(b['data']['growthTrends'])
          ? b['data']['growthTrends'].map((r) =>
              isObj(r) ? { ...r, currentWeekUsers: 0, previousWeekUsers: 0, growthPercentage: 0 } : r,
            )
          : b['data']['growthTrends'];
        return { ...b, data: { ...b['data'], engagementPercentiles: [], growthTrends } };
      }),
  },
  {
    id: 'duplicate-answered-accepted',
    description: 'an exact resubmission is acknowledged as accepted instead of duplicate',
    expect: ['MOD-EXACT-RESUBMIT-DUPLICATE'],
    hook: () =>
      rewriteJson(['submitModerationCase'], (b) =>
        isObj(b) && b['status'] === 'duplicate' ? { ...b, status: 'accepted' } : b,
      ),
  },
  {
    id: 'batch-results-reordered',
    description: 'batch results come back in reverse order',
    expect: ['MOD-BATCH-ORDER'],
    hook: () =>
      rewriteJson(['submitModerationBatch'], (b) =>
        isObj(b) && Array.isArray(b['results']) ? { ...b, results: [...b['results']].reverse() } : b,
      ),
  },
  {
    id: 'date-only-to-end-of-day',
    description: 'a date-only to is read as the end of that day',
    expect: ['LIST-TO-DATE-ONLY-MIDNIGHT'],
    hook: () =>
      rewriteRequest(['listActions'], (r) =>
        setQuery(r, (q) => {
          const to = q.get('to');
          if (to !== null && /^\d{4}-\d{2}-\d{2}$/.test(to)) q.set('to', `${to}T23:59:59.999Z`);
        }),
      ),
  },
  {
    id: 'required-field-missing',
    description: 'action summaries lack the required userName key',
    expect: ['SCHEMA-ACTION-SUMMARY-REQUIRED-KEYS'],
    hook: () =>
      rewriteJson(['listActions'], (b) =>
        mapData(b, (i) => {
          const { userName: _drop, ...rest } = i;
          return rest;
        }),
      ),
  },
  {
    id: 'missing-key-accepted',
    description: 'a request without X-API-Key is served (as the read key)',
    expect: ['AUTH-MISSING-KEY-401'],
    hook: (keys) =>
      rewriteRequest(READ_OPS, (r) => {
        if (r.headers.has('x-api-key') || keys.read === undefined) return r;
        const headers = new Headers(r.headers);
        headers.set('x-api-key', keys.read);
        return withRequest(r, { headers });
      }),
  },
  {
    id: 'error-401-without-success',
    description: '401 bodies lack success:false',
    expect: ['ERR-GENERAL-BODY'],
    hook: () => rewriteJson('all', (b, s) => (s === 401 && isObj(b) ? { error: b['error'] } : b)),
  },
  {
    id: 'ingest-count-off-by-one',
    description: 'ingestion reports one record fewer than it accepted',
    expect: ['ING-ACCEPTED-COUNT'],
    hook: () =>
      rewriteJson(['ingestRecords'], (b, s) =>
        s === 202 && isObj(b) && typeof b['accepted'] === 'number'
          ? { ...b, accepted: b['accepted'] - 1 }
          : b,
      ),
  },
  {
    id: 'conflict-answered-202',
    description: 'changed content under an existing externalId is acknowledged instead of 409',
    expect: ['MOD-CHANGED-CONTENT-409'],
    hook: () =>
      rewriteText(['submitModerationCase'], (t, s) =>
        s !== 409
          ? t
          : {
              status: 202,
              body: JSON.stringify({
                caseId: 'case_conflict',
                externalId: 'x',
                status: 'accepted',
                analysisStatus: 'pending',
                evaluationId: 'ev',
                idempotency: { key: 'k', replayed: false },
              }),
            },
      ),
  },
  {
    id: 'search-ignores-page',
    description: 'conversation search always serves page 1 (but echoes the page asked for)',
    expect: ['SEARCH-PAGE-ECHO', 'SEARCH-TOTAL-CAPPED'],
    hook: () =>
      compose(
        rewriteJson(['searchConversations'], (b, _s, r) => {
          const page = new URL(r.url).searchParams.get('page');
          return isObj(b) && page !== null ? { ...b, currentPage: Number.parseInt(page, 10) } : b;
        }),
        rewriteRequest(['searchConversations'], (r) =>
          setQuery(r, (q) => q.has('page') && q.set('page', '1')),
        ),
      ),
  },
  {
    id: 'oldest-first',
    description: 'the action list is sorted oldest first',
    expect: ['LIST-SORTBY-NEWEST-FIRST'],
    hook: () =>
      rewriteJson(['listActions'], (b) =>
        isObj(b) && Array.isArray(b['data']) ? { ...b, data: [...b['data']].reverse() } : b,
      ),
  },
  {
    id: 'default-page-size-20',
    description: 'the action list defaults to 20 records per page',
    expect: ['LIST-PAGESIZE-DEFAULT-50'],
    hook: () =>
      rewriteRequest(['listActions'], (r) =>
        setQuery(r, (q) => !q.has('pageSize') && q.set('pageSize', '20')),
      ),
  },
  {
    id: 'unknown-action-500',
    description: 'an unknown action id gives 500 instead of 404',
    expect: ['DETAIL-UNKNOWN-ID-404'],
    hook: () =>
      rewriteText(['getAction'], (t, s) =>
        s === 404
          ? { status: 500, body: JSON.stringify({ success: false, error: 'Internal server error' }) }
          : t,
      ),
  },
  {
    id: 'external-id-not-echoed',
    description: 'the acknowledgement trims the externalId',
    expect: ['MOD-ACK-EXTERNALID-ECHO'],
    hook: () =>
      rewriteJson(['submitModerationCase'], (b) =>
        isObj(b) && typeof b['externalId'] === 'string'
          ? { ...b, externalId: b['externalId'].slice(0, -1) }
          : b,
      ),
  },
  {
    id: 'conversation-json-always',
    description: 'conversationJson is filled although includeFullConversation was not requested',
    expect: ['LIST-CONVERSATIONJSON-ONLY-WHEN-REQUESTED'],
    hook: () =>
      rewriteJson(['listActions'], (b) =>
        mapData(b, (i) => ({ ...i, conversationJson: i['conversationJson'] ?? '[]' })),
      ),
  },
  {
    id: 'bad-item-blocks-batch',
    description: 'one rejected batch item makes every item rejected',
    expect: ['MOD-BATCH-ITEM-ISOLATION'],
    hook: () =>
      rewriteJson(['submitModerationBatch'], (b) => {
        if (!isObj(b) || !Array.isArray(b['results'])) return b;
        const results = b['results'] as Json[];
        if (!results.some((r) => r['status'] === 'rejected')) return b;
        return {
          ...b,
          results: results.map((r) => ({ ...r, status: 'rejected', code: 'MODERATION_INPUT_INVALID' })),
        };
      }),
  },
  {
    id: 'fullfilter-with-filter-accepted',
    description: 'fullFilter combined with filter is accepted (filter dropped)',
    expect: ['LIST-FULLFILTER-WITH-FILTER-400'],
    hook: () =>
      rewriteRequest(['listActions'], (r) =>
        setQuery(r, (q) => {
          if (q.has('fullFilter')) {
            q.delete('filter');
            q.delete('filterJson');
          }
        }),
      ),
  },
  {
    id: 'ingest-key-reads-reports',
    description: 'an import key can read reporting data',
    expect: [
      'AUTH-IMPORT-KEY-NO-REPORTING-403',
      'SCOPE-ANALYTICS-403',
      'SCOPE-CUSTOM-FIELDS-READ',
      'SCOPE-MODERATION-READ',
    ],
    hook: (keys) => swapKey(keys.ingest, keys.read, READ_OPS),
  },
  {
    id: 'patch-not-persisted',
    description: 'a custom-field PATCH is acknowledged but not stored',
    expect: ['CF-PATCH-PERSISTS'],
    hook: (keys) => (handle) => async (request, context) => {
      if (request.method !== 'PATCH' || keys.read === undefined) return handle(request, context);
      // Read the values before, let the engine validate and answer, then write the old values back.
      const read = await handle(new Request(request.url, { headers: { 'x-api-key': keys.read } }), context);
      const before = read.status === 200 ? ((await read.json()) as Json) : undefined;
      const answer = await handle(request.clone(), context);
      if (answer.status !== 200 || before === undefined || !Array.isArray(before['fields'])) return answer;
      const fields = (before['fields'] as Json[])
        .filter((f) => f['fieldType'] !== 'unregistered')
        .map((f) => ({ fieldName: f['fieldName'], value: f['value'] ?? null }));
      const headers = new Headers(request.headers);
      await handle(
        new Request(request.url, { method: 'PATCH', headers, body: JSON.stringify({ fields }) }),
        context,
      );
      return answer;
    },
  },
  {
    id: 'private-source-url',
    description: 'private actions carry a sourceURL',
    expect: ['SCHEMA-SOURCEURL-NULL-FOR-PRIVATE'],
    hook: () =>
      rewriteJson(['listActions'], (b) =>
        mapData(b, (i) =>
          i['isPublicPost'] === false ? { ...i, sourceURL: 'https://private.example.com/x' } : i,
        ),
      ),
  },
  {
    id: 'default-window-30-days',
    description: 'without from/to the list covers 30 days instead of 7',
    expect: ['LIST-DEFAULT-WINDOW-7-DAYS'],
    hook: () =>
      rewriteRequest(['listActions'], (r) =>
        setQuery(r, (q) => {
          if (!q.has('from') && !q.has('to') && !q.has('fullFilter'))
            q.set('from', new Date(Date.now() - 30 * 86_400_000).toISOString());
        }),
      ),
  },
  // ------------------------------------------------- fault classes found by an audit of the laws
  {
    id: 'errors-served-as-text',
    description: 'error answers keep their JSON body but are served as text/plain',
    expect: ['SCHEMA-JSON-MEDIA-TYPE'],
    hook: () => (handle) => async (request, context) => {
      const response = await handle(request, context);
      if (response.status < 400) return response;
      return respond(response, await response.text(), response.status, {
        'content-type': 'text/plain; charset=utf-8',
      });
    },
  },
  {
    id: 'reply-route-served',
    description: 'POST /v0/actions/{id}/reply sends a reply to the customer (202)',
    expect: ['DOCS-NO-REPLY-ROUTE'],
    hook: () => (handle) => async (request, context) => {
      if (request.method !== 'POST' || !/^\/v0\/actions\/[^/]+\/reply$/.test(new URL(request.url).pathname))
        return handle(request, context);
      return new Response(JSON.stringify({ status: 'sent' }), {
        status: 202,
        headers: { 'content-type': 'application/json' },
      });
    },
  },
  {
    id: 'reply-operation-documented',
    description: 'the live OpenAPI document describes a sendReply operation',
    expect: ['DOCS-NO-REPLY-OPERATION'],
    hook: () =>
      rewriteJson(['getOpenApiDocument'], (b) =>
        isObj(b) && isObj(b['paths'])
          ? {
              ...b,
              paths: {
                ...b['paths'],
                '/v0/actions/{actionId}/reply': {
                  post: {
                    operationId: 'sendReply',
                    summary: 'Send a reply',
                    responses: { 202: { description: 'sent' } },
                  },
                },
              },
            }
          : b,
      ),
  },
  {
    id: 'delete-action-documented',
    description: 'the live OpenAPI document describes DELETE /v0/action/{id}, a fourth kind of write',
    expect: ['DOCS-WRITES-ONLY-THREE'],
    hook: () =>
      rewriteJson(['getOpenApiDocument'], (b) => {
        if (!isObj(b) || !isObj(b['paths']) || !isObj(b['paths']['/v0/action/{id}'])) return b;
        const item = b['paths']['/v0/action/{id}'];
        const remove = { operationId: 'deleteAction', responses: { 204: { description: 'deleted' } } };
        return { ...b, paths: { ...b['paths'], '/v0/action/{id}': { ...item, delete: remove } } };
      }),
  },
  {
    id: 'expired-key-accepted',
    description: 'an expired key is still honoured (as a read key)',
    expect: ['AUTH-EXPIRED-KEY-401'],
    hook: (keys) => swapKey(keys.expired, keys.read, ALL_OPS),
  },
  {
    id: 'revoked-key-accepted',
    description: 'a revoked key is still honoured (as a read key)',
    expect: ['AUTH-REVOKED-KEY-401-AT-ONCE'],
    hook: (keys) => swapKey(keys.revoked, keys.read, ALL_OPS),
  },
  {
    id: 'path-ids-trimmed',
    description: 'path identifiers are trimmed of whitespace before the lookup',
    expect: ['ID-VARIANT-NOT-RESOLVED'],
    hook: () =>
      rewriteRequest(readsById(), (r) => {
        const url = new URL(r.url);
        url.pathname = url.pathname
          .split('/')
          .map((segment) => encodeURIComponent(decodeURIComponent(segment).trim()))
          .join('/');
        return withRequest(r, { url: url.toString() });
      }),
  },
  {
    id: 'external-id-nfc-normalised',
    description: 'moderation externalIds are normalised to Unicode NFC on intake',
    expect: ['MOD-ACK-EXTERNALID-ECHO', 'ID-STRING-PRESERVED', 'MOD-GET-CASE-FROM-ACK'],
    hook: () =>
      rewriteRequest(['submitModerationCase', 'submitModerationBatch'], async (r) => {
        let body: unknown;
        try {
          body = JSON.parse(await r.clone().text());
        } catch {
          return r;
        }
        const nfc = (c: unknown): unknown =>
          isObj(c) && typeof c['externalId'] === 'string'
            ? { ...c, externalId: c['externalId'].normalize('NFC') }
            : c;
        const next =
          isObj(body) && Array.isArray(body['cases'])
            ? { ...body, cases: body['cases'].map(nfc) }
            : nfc(body);
        const headers = new Headers(r.headers);
        headers.delete('content-length');
        return new Request(r.url, { method: r.method, headers, body: JSON.stringify(next) });
      }),
  },
  // ------------------------------------ parameters without effect, reads that disagree
  {
    id: 'search-ignores-filter',
    description: "conversation search ignores filter, even the spec's own sample status=OPEN",
    expect: ['SEARCH-FILTER-STATUS-OPEN', 'SEARCH-FILTER-TERMS-NARROW'],
    hook: () => rewriteRequest(['searchConversations'], (r) => setQuery(r, (q) => q.delete('filter'))),
  },
  {
    id: 'sentiment-ignores-window',
    description: 'sentiment by day ignores from/to (always the default window)',
    expect: ['ANALYTICS-ROWS-INSIDE-WINDOW', 'ANALYTICS-WINDOW-HALVES-NOT-MORE'],
    hook: () => rewriteRequest(['getSentimentByDay'], (r) => setQuery(r, dropWindow)),
  },
  {
    id: 'agents-ignore-window',
    description: 'the agent list ignores from/to (always the default window)',
    expect: ['ANALYTICS-WINDOW-HALVES-NOT-MORE'],
    hook: () => rewriteRequest(['listAgents'], (r) => setQuery(r, dropWindow)),
  },
  {
    id: 'tags-ignore-window',
    description: 'tag analytics ignores from/to (always the default window)',
    expect: ['ANALYTICS-WINDOW-HALVES-NOT-MORE', 'ANALYTICS-WINDOW-NARROWER-NOT-MORE'],
    hook: () => rewriteRequest(['getTagAnalytics'], (r) => setQuery(r, dropWindow)),
  },
  {
    id: 'volume-ignores-tag-ids',
    description: 'tag volume ignores tagIds (always the top tags)',
    expect: ['VOLUME-TAGIDS-RESTRICTS'],
    hook: () => rewriteRequest(['getTagVolume'], (r) => setQuery(r, (q) => q.delete('tagIds'))),
  },
  {
    id: 'volume-ignores-top-tags-limit',
    description: 'tag volume ignores topTagsLimit (always its default of 10)',
    expect: ['VOLUME-TOP-TAGS-LIMIT'],
    hook: () => rewriteRequest(['getTagVolume'], (r) => setQuery(r, (q) => q.delete('topTagsLimit'))),
  },
  {
    id: 'tags-ignore-search',
    description: 'tag analytics ignores search (every tag listed)',
    expect: ['TAGS-SEARCH-RESTRICTS'],
    hook: () => rewriteRequest(['getTagAnalytics'], (r) => setQuery(r, (q) => q.delete('search'))),
  },
  {
    id: 'volume-by-tag-ignores-limit',
    description: 'tag analytics pages tagBreakdown by limit but lists volumeByTag for every tag',
    expect: ['TAGS-LIMIT-BOUNDS-ROWS'],
    hook: () => (handle) => async (request, context) => {
      if (operationOf(request) !== 'getTagAnalytics') return handle(request, context);
      const url = new URL(request.url);
      const response = await handle(request, context);
      const unlimited = new URL(url);
      unlimited.searchParams.set('limit', '1000');
      unlimited.searchParams.set('offset', '0');
      const full = await handle(new Request(unlimited, { headers: request.headers }), context);
      if (response.status !== 200 || full.status !== 200) return response;
      const body = (await response.json()) as Json;
      const all = (await full.json()) as Json;
      if (!isObj(body['data']) || !isObj(all['data'])) return respond(response, JSON.stringify(body));
      const data = { ...body['data'], volumeByTag: all['data']['volumeByTag'] };
      return respond(response, JSON.stringify({ ...body, data }));
    },
  },
  {
    id: 'engagement-ignores-platforms',
    description: 'engagement ignores platforms (every platform listed)',
    expect: ['ENG-PLATFORMS-FILTER'],
    hook: () => rewriteRequest(['getEngagement'], (r) => setQuery(r, (q) => q.delete('platforms'))),
  },
  {
    id: 'detail-reads-stale-queue',
    description:
      'the action detail reports the initial queue as the current queue (the list reports the current one)',
    expect: ['DETAIL-READS-AGREE'],
    hook: () =>
      rewriteJson(['getAction'], (b, s) => (s === 200 && isObj(b) ? { ...b, queue: b['initialQueue'] } : b)),
  },
  // Organization isolation, one read route at a time (every read of the contract): the other
  // organization's key is answered with this organization's data on that route only. The rule first
  // named is the one a client sees broken there: a case by id belongs to the organization that wrote
  // it, another record by id is not resolved, a list holds this organization's data.
  ...READ_OPS.map((op): Mutant => {
    const operation = getOperation(op);
    const rule = operation.tags.includes('Moderation')
      ? 'ORG-WRITES-SCOPED'
      : operation.pathParamNames.length > 0
        ? 'ORG-OTHER-ORG-ID-NOT-RESOLVED'
        : 'ORG-DATA-SCOPED';
    return {
      id: `other-org-reads-${op}`,
      description: `${op} answers another organization's key with this organization's data`,
      expect: [rule, 'ORG-DATA-SCOPED', 'ORG-OTHER-ORG-ID-NOT-RESOLVED'],
      hook: (keys) => swapKey(keys.otherOrgRead, keys.read, [op]),
    };
  }),
  {
    id: 'agents-date-only-to-end-of-day',
    description: 'the agent list reads a date-only to as the end of that day',
    expect: ['AGENT-LIST-WINDOW-DATE-RULES'],
    hook: () =>
      rewriteRequest(['listAgents'], (r) =>
        setQuery(r, (q) => {
          const to = q.get('to');
          if (to !== null && /^\d{4}-\d{2}-\d{2}$/.test(to)) q.set('to', `${to}T23:59:59.999Z`);
        }),
      ),
  },
  {
    id: 'list-dates-parsed-leniently',
    description: 'the action list reads from/to with Date.parse, accepting near misses such as 2024-1-1',
    expect: ['LIST-FROM-ISO-8601'],
    hook: () =>
      rewriteRequest(['listActions'], (r) =>
        setQuery(r, (q) => {
          for (const name of ['from', 'to']) {
            const value = q.get(name);
            const t = value === null ? Number.NaN : Date.parse(value);
            if (value !== null && Number.isFinite(t)) q.set(name, new Date(t).toISOString());
          }
        }),
      ),
  },
  {
    id: 'docs-page-without-document',
    description: 'GET /docs is an HTML page that never loads the OpenAPI document',
    expect: ['DOCS-SWAGGER-UI'],
    hook: () => rewriteText(['getSwaggerUi'], (t) => t.replaceAll('/docs/json', '/docs/none')),
  },
  {
    id: 'docs-page-asset-missing',
    description: 'GET /docs loads a Swagger UI bundle the deployment does not serve (the page cannot run)',
    expect: ['DOCS-SWAGGER-UI'],
    hook: () =>
      rewriteText(['getSwaggerUi'], (t) =>
        t.replaceAll('swagger-ui-bundle.js', 'swagger-ui-bundle.missing.js'),
      ),
  },
  {
    id: 'fullfilter-keeps-responded-default',
    description:
      'the action list applies its responded default with fullFilter too (unresponded matches left out)',
    expect: ['LIST-FULLFILTER-NO-RESPONDED-DEFAULT'],
    hook: () =>
      rewriteRequest(['listActions'], (r) =>
        setQuery(r, (q) => {
          const fullFilter = q.get('fullFilter');
          if (fullFilter !== null && fullFilter.length < 9_000)
            q.set('fullFilter', `${fullFilter}+responded=true`);
        }),
      ),
  },
  {
    id: 'scope-after-lookup',
    description:
      'PATCH custom fields looks the action up before the scope: a read key gets 404 for an action that does not exist',
    expect: ['AUTH-READ-KEY-WRITE-ROUTE-403'],
    hook: (keys) => (handle) => async (request, context) => {
      if (operationOf(request) !== 'updateCustomFields' || request.headers.get('x-api-key') !== keys.read)
        return handle(request, context);
      const lookup = await handle(
        new Request(request.url, { method: 'GET', headers: request.headers }),
        context,
      );
      return lookup.status === 404 ? lookup : handle(request, context);
    },
  },
  {
    id: 'search-user-ids-as-numbers',
    description:
      'conversation search passes digit-only userId and assigneeUserId through a double (9007199254740993 becomes 9007199254740992, 000417 becomes 417)',
    expect: ['DETAIL-READS-AGREE'],
    hook: () =>
      rewriteJson(['searchConversations'], (b) =>
        mapData(b, (item) => {
          const out = { ...item };
          for (const key of ['userId', 'assigneeUserId'])
            if (typeof out[key] === 'string' && /^\d+$/.test(out[key] as string))
              out[key] = String(Number.parseFloat(out[key] as string));
          return out;
        }),
      ),
  },
  {
    id: 'ingest-resend-new-records',
    description: 'ingestion takes every record it receives as new: a resent batch makes its records again',
    expect: ['ID-INGEST-EXTERNALID-RETRIES'],
    hook: () => {
      let sends = 0;
      return rewriteBody(['ingestRecords'], (body) => {
        sends += 1;
        if (!isObj(body) || !Array.isArray(body['records'])) return body;
        const records = body['records'].map((r) =>
          isObj(r) && typeof r['externalId'] === 'string'
            ? { ...r, externalId: `${r['externalId']}#${sends}` }
            : r,
        );
        return { ...body, records };
      });
    },
  },
  ...(['serverId', 'platform'] as const).map(
    (part): Mutant => ({
      id: `ingest-identity-ignores-${part}`,
      description: `ingestion identifies a record without its ${part}: the same externalId under another ${part} is taken as the record already stored`,
      expect: ['ID-INGEST-RECORD-IDENTITY'],
      hook: () => {
        // The first batch value each record externalId came with; later batches are put back under it.
        const first = new Map<string, unknown>();
        return rewriteBody(['ingestRecords'], (body) => {
          if (!isObj(body) || !Array.isArray(body['records'])) return body;
          const ids = body['records'].flatMap((r) =>
            isObj(r) && typeof r['externalId'] === 'string' ? [r['externalId']] : [],
          );
          const earlier = ids.map((id) => first.get(id)).find((v) => v !== undefined);
          for (const id of ids) if (!first.has(id)) first.set(id, body[part]);
          return earlier === undefined ? body : { ...body, [part]: earlier };
        });
      },
    }),
  ),
  // ---------------------------------------------------------------- controls: not faults
  {
    id: 'control-extra-unknown-field',
    description: 'every JSON object response carries an extra unknown field (section 9: tolerated)',
    expect: [],
    control: true,
    hook: () => rewriteJson('all', (b) => (isObj(b) ? { ...b, ccaFutureField: { added: true } } : b)),
  },
  {
    id: 'control-slow-response',
    description: 'every response is 5 ms slower',
    expect: [],
    control: true,
    hook: () => (handle) => async (request, context) => {
      const response = await handle(request, context);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return response;
    },
  },
  {
    id: 'control-filter-platform-refused',
    description: 'conversation search refuses a filter key the spec does not show (platform) with 400',
    expect: [],
    control: true,
    hook: () => (handle) => async (request, context) => {
      const filter = new URL(request.url).searchParams.get('filter') ?? '';
      if (operationOf(request) !== 'searchConversations' || !filter.includes('platform='))
        return handle(request, context);
      return new Response(JSON.stringify({ success: false, error: 'unknown filter key platform' }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      });
    },
  },
  {
    id: 'control-filter-platform-ignored',
    description: 'conversation search ignores a filter key the spec does not show (platform) and answers 200',
    expect: [],
    control: true,
    hook: () =>
      rewriteRequest(['searchConversations'], (r) =>
        setQuery(r, (q) => {
          const filter = q.get('filter');
          if (filter === null) return;
          const kept = filter.split('+').filter((term) => !term.startsWith('platform='));
          if (kept.length === 0) q.delete('filter');
          else q.set('filter', kept.join('+'));
        }),
      ),
  },
  {
    id: 'control-tag-limit-at-most-100',
    description:
      'tag analytics refuses a limit above 100 with 400 (the spec types limit as a number and shows no maximum)',
    expect: [],
    control: true,
    hook: () => (handle) => async (request, context) => {
      const limit = Number(new URL(request.url).searchParams.get('limit') ?? '0');
      if (operationOf(request) !== 'getTagAnalytics' || !(limit > 100)) return handle(request, context);
      return new Response(
        JSON.stringify({ success: false, error: "Invalid 'limit': must be between 1 and 100" }),
        {
          status: 400,
          headers: { 'content-type': 'application/json' },
        },
      );
    },
  },
  {
    id: 'control-volume-tags-as-ids',
    description: 'tag volume names its tags by id instead of by name (the spec says only "array of string")',
    expect: [],
    control: true,
    hook: () =>
      rewriteJson(['getTagVolume'], (b) => {
        if (!isObj(b) || !isObj(b['data']) || !Array.isArray(b['data']['data'])) return b;
        const rows = b['data']['data'].filter(isObj);
        const idOf = new Map(rows.map((r) => [r['tagName'], r['tagId']]));
        const tags = Array.isArray(b['data']['tags']) ? b['data']['tags'].map((t) => idOf.get(t) ?? t) : [];
        return { ...b, data: { ...b['data'], tags } };
      }),
  },
  {
    id: 'control-reordered-keys',
    description: 'JSON object keys come back in another order, with an extra response header',
    expect: [],
    control: true,
    hook: () => rewriteJson('all', (b) => (isObj(b) ? Object.fromEntries(Object.entries(b).reverse()) : b)),
  },
];

/**
 * Faults only a target with two organizations in ad_policy mode shows (the default data set has one):
 * their test switches the second organization to ad_policy first. Not part of MUTANTS for that reason.
 */
export const TWO_AD_POLICY_MUTANTS: readonly Mutant[] = [
  {
    id: 'moderation-externalid-global',
    description:
      'moderation externalIds are unique across organizations: a second organization submitting one already used elsewhere gets 409',
    expect: ['ORG-MODERATION-EXTERNALID-PER-ORGANIZATION'],
    hook: () => {
      const owner = new Map<string, string>();
      return (handle) => async (request, context) => {
        if (operationOf(request) !== 'submitModerationCase') return handle(request, context);
        const key = request.headers.get('x-api-key') ?? '';
        let externalId: unknown;
        try {
          externalId = obj(await request.clone().json())['externalId'];
        } catch {
          return handle(request, context);
        }
        if (typeof externalId !== 'string') return handle(request, context);
        const first = owner.get(externalId);
        if (first !== undefined && first !== key)
          return new Response(
            JSON.stringify({ success: false, error: `externalId ${externalId} already exists` }),
            { status: 409, headers: { 'content-type': 'application/json' } },
          );
        owner.set(externalId, key);
        return handle(request, context);
      };
    },
  },
];
