/**
 * What a model pays for the agent interface, in characters (deterministic; times are indicative only):
 * `tools/list` bytes per key profile, and the characters of each answer (structuredContent + text) for
 * four tasks a model plays: top tags, a 30-day export with cursors, a sentiment trend, and a reply end
 * to end; with the text a summary (default) and the whole JSON (`--text full`).
 *
 * Run: `npx tsx bench/agent-budget.ts` (prints Markdown for bench/RESULTS.md).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import { createAgentServer } from '../mocks/agent/server/agent-server.ts';
import type { TextMode } from '../mocks/agent/server/text-summary.ts';
import { createEngine } from '../mocks/engine/index.ts';

const engine = createEngine({ seed: 42 });
const keyOf = (profile: 'reporting' | 'read_write' | 'write' | 'import') =>
  engine.admin.createKey({ organizationId: 'org_acme', profile, expiry: 'none' }).key;

const TASKS: Record<string, { name: string; arguments: Record<string, unknown> }[]> = {
  'top tags': [
    {
      name: 'execute',
      arguments: {
        script: `return await call('query.analytics.actions', { v: 1, source: 'actions', dateRange: { relative: { unit: 'day', count: 30 } }, lines: [{ measure: 'actions', aggregation: 'count' }], groupBy: [{ field: 'tags' }], options: { fillEmpty: false } });`,
      },
    },
  ],
  '30-day export with cursors': [
    {
      name: 'execute',
      arguments: {
        script: `const input = { dateRange: { relative: { unit: 'day', count: 30 } }, limit: 100 };
const items = []; let cursor = null;
do { const page = await call('query.search.actions', cursor === null ? input : { ...input, cursor }); items.push(...page.items); cursor = page.nextCursor; } while (cursor !== null && items.length < 2000);
return { count: items.length, items };`,
      },
    },
  ],
  'sentiment trend': [
    {
      name: 'execute',
      arguments: {
        script: `return await call('query.analytics.actions', { v: 1, source: 'actions', dateRange: { relative: { unit: 'week', count: 8 } }, lines: [{ measure: 'sentimentScore', aggregation: 'avg' }], groupBy: [{ field: 'createdAt', interval: 'week' }], options: { fillEmpty: true } });`,
      },
    },
  ],
};

async function measure(text: TextMode) {
  const agent = createAgentServer(engine, { text });
  const sizes: Record<string, number> = {};
  for (const profile of ['reporting', 'read_write', 'write', 'import'] as const) {
    const client = new Client({ name: 'budget', version: '1' });
    await client.connect(await agent.connectInProcess(keyOf(profile)));
    sizes[profile] = Buffer.byteLength(JSON.stringify(await client.listTools()));
    await client.close();
  }
  const client = new Client({ name: 'budget', version: '1' });
  const t0 = performance.now();
  await client.connect(await agent.connectInProcess(keyOf('read_write')));
  await client.listTools();
  await client.callTool({ name: 'list_skills', arguments: {} });
  const firstCallMs = performance.now() - t0;
  const answer = async (call: { name: string; arguments: Record<string, unknown> }) => {
    const result = await client.callTool(call);
    return JSON.stringify(result.structuredContent ?? null).length + JSON.stringify(result.content).length;
  };
  const tasks: Record<string, number[]> = {};
  for (const [task, calls] of Object.entries(TASKS)) tasks[task] = await Promise.all(calls.map(answer));
  const page = (
    await client.callTool(TASKS['30-day export with cursors']?.[0] ?? { name: 'x', arguments: {} })
  ).structuredContent as { result: { items: { actionId: string }[] } };
  const actionId = page.result.items[0]?.actionId ?? '';
  const requestId = randomUUID();
  tasks['reply end to end'] = [
    await answer({
      name: 'prepare_reply',
      arguments: { actionId, text: 'Thanks, we are on it.', requestId },
    }),
    await answer({ name: 'review_reply', arguments: { requestId } }),
    await answer({ name: 'open_reply', arguments: { requestId } }),
  ];
  await client.close();
  await agent.close();
  return { sizes, tasks, firstCallMs };
}

const summary = await measure('summary');
const full = await measure('full');
console.log('| tools/list bytes | reporting | read_write | write | import |\n|---|---|---|---|---|');
console.log(`| now | ${Object.values(summary.sizes).join(' | ')} |`);
console.log(
  '\n| task: characters per answer (structuredContent + text) | text summary (default) | text full |\n|---|---|---|',
);
for (const task of Object.keys(summary.tasks))
  console.log(`| ${task} | ${summary.tasks[task]?.join(' + ')} | ${full.tasks[task]?.join(' + ')} |`);
console.log(
  `\nfirst call (connect, tools/list, list_skills; SDK client 2.4 in process): ${summary.firstCallMs.toFixed(0)} ms, ${full.firstCallMs.toFixed(0)} ms (indicative: busy machine)`,
);
