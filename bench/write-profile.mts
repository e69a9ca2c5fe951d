/**
 * A CPU profile of the built mock (`bin/cca-kit.js mock`, as users run it) under wrk on one write
 * route of the throughput section, for reading with `npx tsx bench/profile.ts <dir>`. Profiling the
 * source through tsx would show its own helpers (`__name`) that the built package does not have.
 *
 *   npx tsx bench/write-profile.mts <route: ingest | moderation | customFields> <dir> [seconds=5]
 */
import { mkdirSync } from 'node:fs';
import { benchRoutes } from './lib/routes.ts';
import { benchKeys, startCcaKit } from './lib/servers.ts';
import { runWrk } from './lib/wrk.ts';

const [name, dir, secondsText] = process.argv.slice(2);
if (name === undefined || dir === undefined)
  throw new Error('usage: write-profile.mts <route> <dir> [seconds]');
const seconds = Number.parseInt(secondsText ?? '5', 10);
mkdirSync(dir, { recursive: true });
const server = await startCcaKit({ nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
try {
  const keys = await benchKeys(server.url);
  const list = await fetch(`${server.url}/v0/action/list?pageSize=1`, {
    headers: { 'x-api-key': keys.read },
  });
  const first = ((await list.json()) as { data?: { actionId?: string }[] }).data?.[0]?.actionId;
  if (first === undefined) throw new Error('the seeded mock listed no action');
  const tag = `p${Date.now()}`;
  const route = benchRoutes(first, tag).find((r) => r.name === name);
  if (route === undefined) throw new Error(`no bench route named ${name}`);
  const result = await runWrk(server.url, route.wrk(keys, tag), {
    connections: 10,
    duration: seconds,
    pipelining: 1,
  });
  console.log(JSON.stringify(result));
} finally {
  await server.stop();
}
