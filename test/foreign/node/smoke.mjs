// Smoke check: start the server clean and with each planted deviation alone, and check
// that each deviation's trigger behaves differently from the clean server.
// Run: /root/.cache/cca-kit/node/22.23.3/bin/node smoke.mjs [D01,D02,...]
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'cca-smoke-'));
let n = 0;

function start(deviations) {
  return new Promise((resolve, reject) => {
    const keysFile = join(tmp, `keys-${n++}.json`);
    const child = spawn(process.execPath, ['server.mjs'], { cwd: here, env: { ...process.env, PORT: '0', KEYS_FILE: keysFile, DEVIATIONS: deviations }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error('server did not start')), 8000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m) { clearTimeout(timer); resolve({ child, base: m[1], keys: JSON.parse(readFileSync(keysFile, 'utf8')), stdout: () => out }); }
    });
    child.stderr.on('data', (d) => { const s = String(d); if (!/ExperimentalWarning|trace-warnings/.test(s)) process.stderr.write(s); });
    child.on('exit', (code) => { clearTimeout(timer); if (!out) reject(new Error(`server exited ${code}`)); });
  });
}
function stop(s) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    s.child.on('exit', () => resolve(Date.now() - t0));
    s.child.kill('SIGTERM');
  });
}
async function call(s, key, method, path, body) {
  const headers = {};
  if (key) headers['X-API-Key'] = s.keys[key] ?? key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(s.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json; try { json = JSON.parse(text); } catch { json = text; }
  return { status: r.status, json };
}
const get = (s, key, path) => call(s, key, 'GET', path);
const day = (offsetDays) => new Date(Date.now() - offsetDays * 86400e3).toISOString().slice(0, 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function adCase(externalId, over = {}) {
  return {
    externalId, sourceSystem: 'smoke', sourcePlatform: 'snapchat', sourceAdId: `sa-${externalId}`, advertiserName: 'Smoke Test Co', market: 'US', placement: 'story',
    landingPageUrl: 'https://smoke.example/landing', title: 'Smoke test running shoes', media: [{ url: 'https://cdn.smoke.example/1.jpg', type: 'image', position: 1 }],
    attachment: { type: 'web_view', destinationUrl: 'https://smoke.example/landing' }, targeting: { ageMin: null, geos: ['US', 'CA'] }, copy: { body: 'Light and fast.' }, ...over,
  };
}
const ingestBody = (over = {}, rec = {}) => ({ platform: 'DISCOURSE', serverId: 'forum-smoke', serverName: 'Smoke Forum', records: [{ externalId: 'r1', authorId: 'a1', authorName: 'Alex', body: 'hello', createdAt: new Date().toISOString(), recordType: 'post', ...rec }], ...over });

// Each probe returns a JSON-serializable signature of the trigger's observable result.
const PROBES = {
  D01: async (s) => (await get(s, 'CCA_READ_KEY', '/v0/action/list?pageSize=200')).status,
  D02: async (s) => {
    const out = [];
    for (const d of [3, 6, 9, 12, 15, 18]) out.push((await get(s, 'CCA_READ_KEY', `/v0/action/list?from=${day(d + 4)}&to=${day(d)}&pageSize=1`)).json.totalRecords);
    return out;
  },
  D03: async (s) => (await get(s, 'CCA_READ_KEY', '/v0/agents')).json.data.map((a) => a.agentId).sort(),
  D04: async (s) => {
    const a = (await get(s, 'CCA_READ_KEY', '/v0/action/list?pageSize=5')).json.data.map((x) => x.actionId).filter((id) => id !== '18014398509481985');
    return (await get(s, 'CCA_OTHER_ORG_READ_KEY', `/v0/action/${encodeURIComponent(a[0])}`)).status;
  },
  D05: async (s) => (await call(s, 'CCA_READ_KEY', 'PATCH', '/v0/actions/18014398509481985/custom-fields', { fields: [] })).status,
  D06: async (s) => {
    await call(s, 'CCA_WRITE_KEY', 'POST', '/v0/moderation/cases', adCase('smoke-d06'));
    const r = await call(s, 'CCA_WRITE_KEY', 'POST', '/v0/moderation/cases', adCase('smoke-d06', { market: 'GB' }));
    return [r.status, r.json.status ?? null];
  },
  D07: async (s) => {
    const ack = await call(s, 'CCA_WRITE_KEY', 'POST', '/v0/moderation/cases', adCase('smoke-d07'));
    let early = false, done = false;
    for (let i = 0; i < 60 && !done; i++) {
      const r = await get(s, 'CCA_READ_KEY', `/v0/moderation/cases/${ack.json.caseId}`);
      if (r.json.analysisStatus !== 'completed' && 'decision' in r.json) early = true;
      done = r.json.analysisStatus === 'completed' || r.json.analysisStatus === 'failed';
      await sleep(100);
    }
    return { early, done };
  },
  D08: async (s) => (await call(s, 'CCA_INGEST_KEY', 'POST', '/v0/ingest/records', ingestBody({}, { score: 5 }))).status,
  D09: async (s) => {
    const b = ingestBody();
    b.records.push({ ...b.records[0], externalId: 'r2', threadExternalId: 'r1' }, { ...b.records[0], externalId: 'r3', threadExternalId: 'r1' });
    return (await call(s, 'CCA_INGEST_KEY', 'POST', '/v0/ingest/records', b)).json;
  },
  D10: async (s) => (await get(s, 'CCA_READ_KEY', '/v0/analytics/tags?respondedOnly=true')).json.data.summary,
  D11: async (s) => [...new Set((await get(s, 'CCA_READ_KEY', '/v0/analytics/engagement?platforms=TWITTER')).json.data.growthTrends.map((g) => g.platform))].sort(),
  D12: async (s) => (await get(s, 'CCA_EXPIRED_KEY', '/v0/agents')).status,
  D13: async (s) => { const r = await get(s, 'CCA_READ_KEY', '/v0/action/no-such-action-xyz'); return [r.status, Object.keys(r.json).sort()]; },
  D14: async (s) => (await get(s, null, '/docs/json')).json.paths['/v0/conversations/search'].get.parameters.find((p) => p.name === 'pageSize').schema.maximum,
  D15: async (s) => (await get(s, 'CCA_READ_KEY', `/v0/action/list?sortBy=updatedAt&from=${new Date(Date.now() - 2 * 86400e3).toISOString()}&fullFilter=responded=true&pageSize=1`)).json.totalRecords,
  D16: async (s) => (await call(s, 'CCA_WRITE_KEY', 'POST', '/v0/moderation/cases/batch', { cases: [adCase('smoke-d16-ok'), { externalId: 'smoke-d16-bad' }] })).status,
  D17: async (s) => (await call(s, 'CCA_INGEST_KEY', 'POST', '/v0/ingest/records', ingestBody({ processingLevel: 'STATS_ONLY' }))).status,
};

async function baseline(s) {
  const fails = [];
  const check = (cond, msg) => { if (!cond) fails.push(msg); };
  check(s.stdout().split('\n').filter(Boolean).length === 1, 'exactly one stdout line');
  for (const k of ['CCA_READ_KEY', 'CCA_WRITE_KEY', 'CCA_INGEST_KEY', 'CCA_OTHER_ORG_READ_KEY', 'CCA_NO_MODERATION_WRITE_KEY', 'CCA_EXPIRED_KEY', 'CCA_REVOKED_KEY', 'CCA_READ_WRITE_KEY']) check(typeof s.keys[k] === 'string', `key ${k}`);
  check((await get(s, null, '/v0/action/list')).status === 401, 'missing key 401');
  check((await get(s, 'CCA_REVOKED_KEY', '/v0/action/list')).status === 401, 'revoked 401');
  check((await get(s, 'CCA_EXPIRED_KEY', '/v0/action/list')).status === 401, 'expired 401');
  const l = await get(s, 'CCA_READ_KEY', '/v0/action/list');
  check(l.status === 200 && l.json.pageSize === 50 && l.json.data.length <= 50, 'list default');
  check((await get(s, 'CCA_OTHER_ORG_READ_KEY', '/v0/agents')).json.data.some((a) => a.agentId === '9007199254740993'), 'shared agent in B');
  check((await get(s, 'CCA_READ_KEY', '/v0/agents/9007199254740993')).status === 200, 'agent detail');
  check((await get(s, 'CCA_READ_KEY', '/v0/conversations/search?page=10000')).status === 200, 'search page max');
  check((await call(s, 'CCA_NO_MODERATION_WRITE_KEY', 'POST', '/v0/moderation/cases', adCase('b-1'))).status === 403, 'no-moderation key 403');
  check((await call(s, 'CCA_READ_KEY', 'POST', '/v0/ingest/records', ingestBody())).status === 403, 'read key cannot ingest');
  check((await get(s, 'CCA_INGEST_KEY', '/v0/agents')).status === 403, 'ingest key cannot read');
  const a = await get(s, 'CCA_READ_KEY', '/v0/action/18014398509481985');
  const b = await get(s, 'CCA_OTHER_ORG_READ_KEY', '/v0/action/18014398509481985');
  check(a.status === 200 && b.status === 200 && a.json.actionTitle !== b.json.actionTitle, 'shared action id per org');
  return fails;
}

const only = process.argv[2] ? process.argv[2].split(',') : Object.keys(PROBES);
const clean = await start('');
const cleanSig = {};
const baseFails = await baseline(clean);
for (const id of only) cleanSig[id] = JSON.stringify(await PROBES[id](clean));
const ms = await stop(clean);
let bad = baseFails.length;
console.log(`clean baseline: ${baseFails.length ? 'FAIL ' + baseFails.join('; ') : 'ok'} (SIGTERM exit in ${ms} ms)`);
for (const id of only) {
  const s = await start(id);
  const sig = JSON.stringify(await PROBES[id](s));
  await stop(s);
  const differs = sig !== cleanSig[id];
  if (!differs) bad++;
  console.log(`${id}: ${differs ? 'differs' : 'SAME'}  clean=${cleanSig[id].slice(0, 140)}  dev=${sig.slice(0, 140)}`);
}
console.log(bad ? `FAILED (${bad})` : 'all deviations observable');
process.exit(bad ? 1 : 0);
