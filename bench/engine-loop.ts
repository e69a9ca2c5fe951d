/**
 * The engine's own cost per request of one route, without a socket: `engine.dispatch` called in a
 * hot loop (answer cache off unless `--cache`), reported as microseconds per request. A steadier
 * figure than a wrk run on a loaded machine when comparing two versions of a handler.
 *
 *   npx tsx bench/engine-loop.ts [--cache] <path> [requests=20000]
 */
import { headersFromRecord } from '../mocks/engine/exchange.ts';
import { createEngine } from '../mocks/engine/index.ts';

const args = process.argv.slice(2);
const cache = args.includes('--cache');
const [path = '/v0/analytics/tags', countText = '20000'] = args.filter((a) => a !== '--cache');
const count = Number.parseInt(countText, 10);
const engine = createEngine({ seed: 42, rememberAnswers: cache });
const orgs = engine.admin.listOrganizations();
const org = orgs.find((o) => o.moderationMode === 'ad_policy') ?? orgs[0];
// A seeded key: its value is known to the engine that derived it (a key loaded by hash lists none).
const key = engine.admin
  .listKeys(org?.id)
  .find((k) => k.profile === 'read_write' && k.status === 'active' && k.key !== null);
if (key?.key == null) throw new Error('no active read_write key with a known value');
const headers = headersFromRecord({ 'x-api-key': key.key });
const once = async (): Promise<number> => {
  const answer = await engine.dispatch({
    method: 'GET',
    url: new URL(`http://mock.local${path}`),
    headers,
    body: null,
    remoteAddress: '127.0.0.1',
  });
  if (answer.kind !== 'answer' || answer.status !== 200) throw new Error(`${path}: not a 200`);
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
  `${path}: ${rounds[2]?.toFixed(1)} µs/request (min ${rounds[0]?.toFixed(1)}), ${bytes} bytes, cache ${cache ? 'on' : 'off'}\n`,
);
