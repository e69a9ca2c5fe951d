/**
 * The engine's own cost per request of one route, without a socket: `engine.dispatch` called in a
 * hot loop (answer cache off unless `--cache`), reported as microseconds per request. A steadier
 * figure than a wrk run on a loaded machine when comparing two versions of a handler. `--journal`
 * installs the request journal as `cca-kit mock` does (the loop has none by default).
 *
 *   npx tsx bench/engine-loop.ts [--cache] [--journal] <path> [requests=20000]
 *   npx tsx bench/engine-loop.ts [--cache] [--journal] --route <name> [requests=20000]
 *
 * `<path>` is a GET. `--route` takes a route of the throughput section by name (bench/lib/routes.ts:
 * list, detail, search, tags, tagVolume, sentiment, engagement, agents, queues, and the writes
 * customFields, moderation, ingest) and sends what that section sends: the same body each time, or
 * for a moderation case a new externalId each time, so a write is measured in process like a read.
 */
import { bytesBody, headersFromRecord, type RequestHeaders } from '../mocks/engine/exchange.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { createJournal } from '../mocks/engine/journal/index.ts';
import { type BenchKeys, benchRoutes } from './lib/routes.ts';

const args = process.argv.slice(2);
const cache = args.includes('--cache');
const journal = args.includes('--journal');
const routeAt = args.indexOf('--route');
const routeName = routeAt >= 0 ? args[routeAt + 1] : undefined;
if (routeAt >= 0 && routeName === undefined) throw new Error('--route needs a route name');
const positional = args.filter(
  (a, i) => a !== '--cache' && a !== '--journal' && (routeAt < 0 || (i !== routeAt && i !== routeAt + 1)),
);
const [pathArg, countText] =
  routeName === undefined
    ? [positional[0] ?? '/v0/analytics/tags', positional[1]]
    : [undefined, positional[0]];
const count = Number.parseInt(countText ?? '20000', 10);
if (!Number.isSafeInteger(count) || count < 5)
  throw new Error(`requests must be an integer ≥ 5, got ${countText}`);

const engine = createEngine({
  seed: 42,
  rememberAnswers: cache,
  ...(journal ? { interceptors: [createJournal()] } : {}),
});
const orgs = engine.admin.listOrganizations();
const org = orgs.find((o) => o.moderationMode === 'ad_policy') ?? orgs[0];
// Seeded keys: their values are known to the engine that derived them (a key loaded by hash lists none).
const active = engine.admin.listKeys(org?.id).filter((k) => k.status === 'active' && k.key !== null);
const keyOf = (profile: string): string => {
  const found = active.find((k) => k.profile === profile)?.key;
  if (found == null) throw new Error(`no active ${profile} key with a known value`);
  return found;
};
const keys: BenchKeys = { read: keyOf('read_write'), write: keyOf('read_write'), ingest: keyOf('import') };

/** What one request of the loop sends; `next()` gives a moderation case its new externalId. */
interface Planned {
  readonly label: string;
  readonly method: string;
  readonly url: URL;
  readonly headers: RequestHeaders;
  next(): Uint8Array | null;
}

async function plan(): Promise<Planned> {
  if (routeName === undefined) {
    return {
      label: pathArg ?? '',
      method: 'GET',
      url: new URL(`http://mock.local${pathArg}`),
      headers: headersFromRecord({ 'x-api-key': keys.read }),
      next: () => null,
    };
  }
  // The detail and custom-field routes name an action: the newest of the default list, as the section does.
  const list = await engine.dispatch({
    method: 'GET',
    url: new URL('http://mock.local/v0/action/list?pageSize=1'),
    headers: headersFromRecord({ 'x-api-key': keys.read }),
    body: null,
    remoteAddress: '127.0.0.1',
  });
  const text = list.kind === 'answer' ? bodyText(list.body) : '';
  const detailId = (JSON.parse(text) as { data?: { actionId: string }[] }).data?.[0]?.actionId;
  if (detailId === undefined) throw new Error('the action list gave no action id');
  const routes = benchRoutes(detailId, `loop-${process.pid}`);
  const route = routes.find((r) => r.name === routeName);
  if (route === undefined)
    throw new Error(`no route ${routeName}; one of ${routes.map((r) => r.name).join(', ')}`);
  const first = route.sample(keys);
  const encoder = new TextEncoder();
  const fixed = first.body === undefined ? null : encoder.encode(first.body);
  const unique = route.name === 'moderation';
  return {
    label: `${route.method} ${route.path} (${route.name})`,
    method: route.method,
    url: new URL(`http://mock.local${route.path}`),
    headers: headersFromRecord(first.headers),
    next: () => {
      if (!unique) return fixed;
      const body = route.sample(keys).body;
      return body === undefined ? null : encoder.encode(body);
    },
  };
}

function bodyText(body: string | Uint8Array | readonly Uint8Array[] | null): string {
  if (body === null) return '';
  if (typeof body === 'string') return body;
  const chunks = Array.isArray(body) ? body : [body as Uint8Array];
  return Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))).toString('utf8');
}

const planned = await plan();
const once = async (): Promise<number> => {
  const bytes = planned.next();
  const answer = await engine.dispatch({
    method: planned.method,
    url: planned.url,
    headers: planned.headers,
    body: bytes === null ? null : bytesBody(bytes),
    remoteAddress: '127.0.0.1',
  });
  if (answer.kind !== 'answer' || answer.status < 200 || answer.status > 299) {
    const detail =
      answer.kind === 'answer' ? `${answer.status} ${bodyText(answer.body).slice(0, 300)}` : answer.kind;
    throw new Error(`${planned.label}: not a 2xx: ${detail}`);
  }
  const body = answer.body;
  if (body === null) return 0;
  if (typeof body === 'string') return Buffer.byteLength(body);
  return Array.isArray(body) ? body.reduce((n, c) => n + c.byteLength, 0) : (body as Uint8Array).byteLength;
};
const bytes = await once();
for (let i = 0; i < 2000; i++) await once();
const rounds: number[] = [];
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  for (let i = 0; i < count / 5; i++) await once();
  rounds.push(((performance.now() - t0) * 1000) / (count / 5));
}
rounds.sort((a, b) => a - b);
process.stdout.write(
  `${planned.label}: ${rounds[2]?.toFixed(1)} µs/request (min ${rounds[0]?.toFixed(1)}), ${bytes} bytes, cache ${cache ? 'on' : 'off'}, journal ${journal ? 'on' : 'off'}\n`,
);
