/**
 * Garbage requests, generated with fast-check: random methods, paths near and far from the contract's
 * (ids with every kind of character, broken percent-encoding), junk query parameters, odd headers and
 * content types, broken JSON, huge and deeply nested bodies, invalid UTF-8. Shared by the hardening test
 * (`test/hardening-garbage.test.ts`, ≥10,000 per run) and the benchmark's long run (≥1,000,000).
 */
import fc from 'fast-check';
import { contract } from '../../src/contract/index.ts';
import { ingestionBatch, moderationSubmission } from './routes.ts';

export interface GarbageRequest {
  readonly method: string;
  /** Path and query, already in request-target form (never contains a space or CR/LF). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

export interface GarbageContext {
  /** API keys of the mock under test (any profile, any status). */
  readonly keys: readonly string[];
  /** Ids that exist (action ids, moderation case ids...), so some paths hit real records. */
  readonly ids: readonly string[];
}

export interface GarbageOptions {
  /** Largest body generated; above the mock's 1 MiB limit some answers are 413 (default 1.2 MiB). */
  readonly maxBodyBytes?: number;
  /** Also generate requests that are not valid HTTP for a client library (lower-case or odd methods). */
  readonly oddMethods?: boolean;
}

const encoder = new TextEncoder();
const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** Header names a client library manages itself: never generated. */
const RESERVED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
]);

const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split('');
const PCHAR_RAW = "!$&'()*+,;=:@-._~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split('');

const token = (max: number) =>
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: max });
/** Visible ASCII and obs-text (latin-1), valid in a header value. */
const headerValue = (max: number) =>
  fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
    ),
    maxLength: max,
  });

const percentBytes = fc
  .uint8Array({ minLength: 1, maxLength: 12 })
  .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''));

/** One path segment standing for an id: every kind of character, encoded or raw where the grammar allows. */
function idSegment(ids: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    {
      arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map(encodeURIComponent),
      weight: 4,
    },
    {
      arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
      weight: 2,
    },
    { arbitrary: fc.string({ unit: fc.constantFrom(...PCHAR_RAW), minLength: 1, maxLength: 40 }), weight: 3 },
    { arbitrary: percentBytes, weight: 2 },
    {
      arbitrary: fc.constantFrom('%', '%z', '%4', '%zz', '%C0%AF', '%00', '%2F', '%ED%A0%80', '..', '.'),
      weight: 2,
    },
    { arbitrary: fc.integer({ min: 200, max: 3000 }).map((n) => 'a'.repeat(n)), weight: 1 },
    {
      arbitrary: fc.oneof(fc.constantFrom(...(ids.length > 0 ? ids : ['x'])), fc.bigInt().map(String)),
      weight: 3,
    },
  );
}

const QUERY_NAMES = [
  'pageSize',
  'page',
  'from',
  'to',
  'filter',
  'filterJson',
  'fullFilter',
  'includeFullConversation',
  'sortBy',
  'limit',
  'offset',
  'search',
  'respondedOnly',
  'topTagsLimit',
  'tagIds',
  'platforms',
];

const queryValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.integer({ min: -1000, max: 100_000 }).map(String), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '1.5',
      '1e309',
      'NaN',
      'Infinity',
      '0x10',
      '+5',
      '',
      'true',
      'TRUE',
    ),
    weight: 3,
  },
  { arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      '2026-02-30',
      '2026-13-01',
      '2026-11-20T25:00:00Z',
      '99999-01-01',
      'yesterday',
      '2026-11-20',
    ),
    weight: 2,
  },
  {
    arbitrary: fc.constantFrom(
      'createdAt',
      'updatedAt',
      'status=OPEN+platform=TWITTER',
      'a=b+c',
      '=',
      '+',
      '%7B%22responded%22%3Atrue%7D',
      '%7B',
    ),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }).map(encodeURIComponent), weight: 3 },
  { arbitrary: percentBytes, weight: 2 },
  { arbitrary: fc.integer({ min: 9_990, max: 10_020 }).map((n) => 'x'.repeat(n)), weight: 1 },
);

const query: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(fc.oneof(fc.constantFrom(...QUERY_NAMES), token(12), percentBytes), fc.option(queryValue)),
    { maxLength: 6 },
  )
  .map((pairs) =>
    pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&')}`,
  );

/** Paths from the contract with their parameters replaced, and mutations of them. */
function nearPath(ids: readonly string[]): fc.Arbitrary<string> {
  const templates = [...contract.operations.values()].map((op) => op.pathTemplate);
  const filled = fc
    .tuple(fc.constantFrom(...templates), fc.array(idSegment(ids), { minLength: 3, maxLength: 3 }))
    .map(([template, segments]) => {
      let i = 0;
      return template.replace(/\{[^}]+\}/g, () => segments[i++] ?? 'x');
    });
  const mutated = fc
    .tuple(
      filled,
      fc.constantFrom(
        'trailing-slash',
        'double-slash',
        'upper',
        'v1',
        'drop-last',
        'append',
        'dot-dot',
        'none',
      ),
      idSegment(ids),
    )
    .map(([path, how, extra]) => {
      switch (how) {
        case 'trailing-slash':
          return `${path}/`;
        case 'double-slash':
          return path.replace('/', '//');
        case 'upper':
          return path.toUpperCase();
        case 'v1':
          return path.replace('/v0/', '/v1/');
        case 'drop-last':
          return path.slice(0, path.lastIndexOf('/')) || '/';
        case 'append':
          return `${path}/${extra}`;
        case 'dot-dot':
          return `${path}/../${extra}`;
        default:
          return path;
      }
    });
  return fc.oneof({ arbitrary: filled, weight: 3 }, { arbitrary: mutated, weight: 2 });
}

function farPath(ids: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.array(idSegment(ids), { maxLength: 6 }).map((segments) => `/${segments.join('/')}`),
    fc.constantFrom(
      '/',
      '/v0',
      '/v0/',
      '/docs',
      '/docs/',
      '/docs/json',
      '/docs/swagger-ui.css',
      '/favicon.ico',
    ),
    fc
      .constantFrom('/__mock/', '/__mock/keys', '/__mock/clock', '/__mock/organizations')
      .chain((p) => fc.option(idSegment(ids)).map((extra) => (extra === null ? p : `${p}/${extra}`))),
  );
}

/** A valid body for an operation that takes one, as a starting point for mutations. */
function baseBodyOf(operationId: string): unknown {
  switch (operationId) {
    case 'submitModerationCase':
      return moderationSubmission('garbage-aimed');
    case 'submitModerationBatch':
      return { cases: [moderationSubmission('garbage-b1'), moderationSubmission('garbage-b2')] };
    case 'ingestRecords':
      return ingestionBatch(3, 'garbage-aimed');
    case 'updateCustomFields':
      return { fields: [{ fieldName: 'priority', value: 'high', confidence: 0.5, rationale: 'why' }] };
    default:
      return {};
  }
}

/** One mutation of a JSON value: a field set to anything, removed, or an element replaced, at any depth. */
function mutated(base: unknown): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      fc.nat(),
      fc.nat(),
      fc.constantFrom('set', 'delete', 'wrap'),
      fc.jsonValue({ maxDepth: 2 }),
      fc.string({ maxLength: 10 }),
    )
    .map(([depthSeed, keySeed, how, value, fresh]) => {
      const copy = structuredClone(base) as unknown;
      // Walk down a random path of objects and arrays, then change one member there.
      let target: unknown = copy;
      for (let depth = depthSeed % 4; depth > 0; depth--) {
        const children = typeof target === 'object' && target !== null ? Object.values(target) : [];
        const next = children[(keySeed + depth) % Math.max(1, children.length)];
        if (typeof next !== 'object' || next === null) break;
        target = next;
      }
      if (typeof target !== 'object' || target === null) return value;
      const record = target as Record<string, unknown>;
      const keys = Object.keys(record);
      const key = keys.length > 0 && keySeed % 3 !== 0 ? (keys[keySeed % keys.length] ?? fresh) : fresh;
      // fast-check's strings include property names such as "length"; an array's length cannot take any value.
      if (Array.isArray(record) && key === 'length') return value;
      if (how === 'delete') delete record[key];
      else if (how === 'wrap') record[key] = [record[key]];
      else record[key] = value;
      return copy;
    });
}

/**
 * Requests aimed at an operation: its own method (mostly), its path with real or odd ids, a key, a JSON
 * content type and a mutation of a valid body, so that garbage reaches validation and the handlers.
 */
function aimedRequest(
  context: GarbageContext,
  keys: readonly string[],
): fc.Arbitrary<Omit<GarbageRequest, 'headers'> & { headers: Record<string, string> }> {
  const operations = [...contract.operations.values()];
  return fc.constantFrom(...operations).chain((op) =>
    fc
      .record({
        method: fc.oneof(
          { arbitrary: fc.constant(op.method), weight: 9 },
          { arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'), weight: 1 },
        ),
        segments: fc.array(
          fc.oneof(
            { arbitrary: fc.constantFrom(...(context.ids.length > 0 ? context.ids : ['x'])), weight: 2 },
            { arbitrary: idSegment(context.ids), weight: 1 },
          ),
          { minLength: 3, maxLength: 3 },
        ),
        query: fc.oneof({ arbitrary: fc.constant(''), weight: 2 }, { arbitrary: query, weight: 1 }),
        key: fc.oneof(
          { arbitrary: fc.constantFrom(...keys), weight: 9 },
          { arbitrary: headerValue(40), weight: 1 },
        ),
        contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
        body:
          op.requestBodySchema === undefined
            ? fc.constant(undefined)
            : fc.oneof(
                {
                  arbitrary: mutated(baseBodyOf(op.operationId)).map((v) =>
                    utf8(JSON.stringify(v) ?? 'null'),
                  ),
                  weight: 8,
                },
                { arbitrary: fc.constant(utf8(JSON.stringify(baseBodyOf(op.operationId)))), weight: 1 },
                { arbitrary: jsonBody(64 * 1024), weight: 1 },
              ),
      })
      .map(({ method, segments, query: q, key, contentType, body }) => {
        let i = 0;
        const path =
          op.pathTemplate.replace(/\{[^}]+\}/g, () => encodeURIComponent(segments[i++] ?? 'x')) + q;
        const headers: Record<string, string> = { 'x-api-key': key, 'content-type': contentType };
        return body === undefined ? { method, path, headers } : { method, path, headers, body };
      }),
  );
}

function jsonBody(maxBytes: number): fc.Arbitrary<Uint8Array> {
  const validModeration = JSON.stringify(moderationSubmission('garbage-1'));
  const validIngestion = JSON.stringify(ingestionBatch(3, 'garbage'));
  const near = fc
    .tuple(
      fc.constantFrom(moderationSubmission('garbage-2'), ingestionBatch(2, 'garbage'), {
        fields: [{ fieldName: 'priority', value: 'high' }],
      }),
      fc.string({ maxLength: 12 }),
      fc.jsonValue({ maxDepth: 3 }),
    )
    .map(([base, field, value]) => {
      const keys = Object.keys(base);
      const target =
        keys.length > 0 && field.length % 2 === 0 ? (keys[field.length % keys.length] ?? field) : field;
      return utf8(JSON.stringify({ ...base, [target]: value }));
    });
  return fc.oneof(
    { arbitrary: near, weight: 15 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => utf8(JSON.stringify(v) ?? 'null')), weight: 9 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(validModeration, validIngestion), fc.nat(), fc.string({ maxLength: 4 }))
        .map(([text, cut, tail]) => utf8(text.slice(0, cut % text.length) + tail)),
      weight: 6,
    },
    {
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean(), fc.constantFrom('[', '{"a":'))
        .map(([depth, closed, open]) =>
          utf8(
            open.repeat(depth) +
              (open === '[' ? '1' : '1') +
              (closed ? (open === '[' ? ']' : '}').repeat(depth) : ''),
          ),
        ),
      weight: 4,
    },
    {
      arbitrary: fc
        .uint8Array({ minLength: 1, maxLength: 64 })
        .map((bytes) => new Uint8Array([...utf8('{"externalId":"'), ...bytes, ...utf8('"}')])),
      weight: 4,
    },
    { arbitrary: fc.uint8Array({ maxLength: 256 }), weight: 4 },
    {
      arbitrary: fc
        .integer({ min: Math.floor(maxBytes / 2), max: maxBytes })
        .map((n) => utf8(`{"externalId":"${'x'.repeat(Math.max(0, n - 20))}"}`)),
      weight: 1,
    },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/JSON',
  'application/merge-patch+json',
  'application/json; charset=latin1',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  '',
  ';;;',
  '*/*',
];

/** One line naming a garbage request, bodies and long values cut. */
export function describeGarbage(request: GarbageRequest): string {
  const cut = (text: string, max: number) =>
    text.length > max ? `${text.slice(0, max)}…(${text.length})` : text;
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${cut(name, 30)}: ${cut(value, 60)}`)
    .join(' | ');
  const body =
    request.body === undefined
      ? 'no body'
      : `body ${request.body.byteLength} B ${JSON.stringify(cut(Buffer.from(request.body).toString('latin1'), 120))}`;
  return `${request.method} ${cut(request.path, 200)} [${headers}] ${body}`;
}

/**
 * The arbitrary of one garbage request.
 *
 * @example
 * const samples = fc.sample(garbageRequest({ keys, ids }), { numRuns: 100, seed: 42 });
 */
export function garbageRequest(
  context: GarbageContext,
  options: GarbageOptions = {},
): fc.Arbitrary<GarbageRequest> {
  const maxBodyBytes = options.maxBodyBytes ?? 1_200_000;
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
  const method = options.oddMethods
    ? fc.oneof(
        { arbitrary: fc.constantFrom(...methods), weight: 9 },
        { arbitrary: fc.constantFrom('PROPFIND', 'PURGE', 'FOO', 'get', 'Post', 'M-SEARCH'), weight: 1 },
      )
    : fc.constantFrom(...methods);
  const keys = context.keys.length > 0 ? context.keys : ['none'];
  const apiKey = fc.oneof(
    { arbitrary: fc.constantFrom(...keys), weight: 6 },
    { arbitrary: headerValue(80), weight: 2 },
    { arbitrary: fc.constantFrom(...keys).map((k) => ` ${k} `), weight: 1 },
    { arbitrary: fc.constantFrom(...keys).map((k) => k.toUpperCase()), weight: 1 },
    { arbitrary: fc.integer({ min: 1000, max: 8000 }).map((n) => 'k'.repeat(n)), weight: 1 },
  );
  const odd = fc.dictionary(
    token(24).filter(
      (name) => !RESERVED_HEADERS.has(name.toLowerCase()) && name.toLowerCase() !== 'x-api-key',
    ),
    headerValue(200),
    { maxKeys: 4 },
  );
  const headers = fc
    .record({
      key: fc.option(apiKey, { freq: 6 }),
      contentType: fc.option(fc.oneof(fc.constantFrom(...CONTENT_TYPES), headerValue(40)), { freq: 4 }),
      accept: fc.option(fc.constantFrom('application/json', 'text/html', '*/*', 'image/png', ''), {
        freq: 2,
      }),
      odd,
    })
    .map(({ key, contentType, accept, odd }) => {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(odd)) out[name] = value;
      if (key !== null) out['x-api-key'] = key;
      if (contentType !== null) out['content-type'] = contentType;
      if (accept !== null) out['accept'] = accept;
      return out;
    });
  const path = fc
    .tuple(
      fc.oneof(
        { arbitrary: nearPath(context.ids), weight: 4 },
        { arbitrary: farPath(context.ids), weight: 1 },
      ),
      query,
    )
    .map(([p, q]) => p + q);
  const scattered = fc.record({
    method,
    path,
    headers,
    body: fc.option(jsonBody(maxBodyBytes), { freq: 2 }),
  });
  return fc
    .oneof({ arbitrary: scattered, weight: 1 }, { arbitrary: aimedRequest(context, keys), weight: 1 })
    .map((generated) => {
      const { method, path, headers } = generated;
      const body = generated.body ?? null;
      const request: GarbageRequest =
        body === null ? { method, path, headers } : { method, path, headers, body };
      // Counterexamples stay readable: a 1 MiB body prints as its size.
      return Object.assign(request, { [fc.toStringMethod]: () => describeGarbage(request) });
    });
}
