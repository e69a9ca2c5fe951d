/**
 * What a model pays for the agent interface, in characters (deterministic: seed 42, an in-process
 * server, the official SDK client 2.4): `tools/list` bytes per key profile, and the characters of each
 * answer (structuredContent + text) for four tasks a model plays: top tags, a 30-day export with
 * cursors, a sentiment trend, and a reply end to end; with the text a summary (default) and the whole
 * JSON (`--text full`).
 *
 * `root` is the checkout whose server is measured (default this one): the "before" column is the same
 * tasks against another commit's tree (`git archive <ref>` unpacked, node_modules linked to this one).
 * Every task's inputs are the contract's (`groupBy` fields `tag`, `week`), and every answer but
 * review_reply's approval_required must be a success: a task that fails would measure a failure's text.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { ROOT } from '../../test/support/processes.ts';
import { shortCommit, withCommitTree } from '../lib/commit-tree.ts';

export interface ToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** The four tasks' calls (the reply's are made once an action id is known). */
export const BUDGET_TASKS: Readonly<Record<string, readonly ToolCall[]>> = {
  'top tags': [
    {
      name: 'execute',
      arguments: {
        script: `return await call('query.analytics.actions', { v: 1, source: 'actions', dateRange: { relative: { unit: 'day', count: 30 } }, lines: [{ measure: 'actions', aggregation: 'count' }], groupBy: [{ field: 'tag' }], options: { fillEmpty: false } });`,
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
        script: `return await call('query.analytics.actions', { v: 1, source: 'actions', dateRange: { relative: { unit: 'week', count: 8 } }, lines: [{ measure: 'sentimentScore', aggregation: 'avg' }], groupBy: [{ field: 'week' }], options: { fillEmpty: true } });`,
      },
    },
  ],
};

export type TextMode = 'summary' | 'full';
const PROFILES = ['reporting', 'read_write', 'write', 'import'] as const;

export interface BudgetRun {
  /** tools/list bytes (the JSON the client received) per key profile. */
  readonly toolsListBytes: Readonly<Record<(typeof PROFILES)[number], number>>;
  /** Characters per answer (structuredContent JSON + content JSON), per task, one per call. */
  readonly tasks: Readonly<Record<string, readonly number[]>>;
  /** Connect, tools/list and a first list_skills call of a new client (in process: indicative). */
  readonly firstCallMs: number;
}

export interface AgentBudgetResult {
  /** The commit measured (`HEAD` of root, or the ref given). */
  readonly commit: string;
  readonly summary: BudgetRun;
  /** Undefined when the server has no text option (before it existed, the text was the whole JSON). */
  readonly full?: BudgetRun;
}

interface Modules {
  createAgentServer(
    engine: unknown,
    options?: Record<string, unknown>,
  ): {
    connectInProcess(key: string): Promise<Parameters<Client['connect']>[0]>;
    close(): Promise<void>;
  };
  createEngine(options: { seed: number }): {
    admin: { createKey(o: { organizationId: string; profile: string; expiry: string }): { key: string } };
  };
}

async function modulesOf(root: string): Promise<Modules> {
  const at = (path: string) => pathToFileURL(join(root, path)).href;
  const server = (await import(at('mocks/agent/server/agent-server.ts'))) as Pick<
    Modules,
    'createAgentServer'
  >;
  const engine = (await import(at('mocks/engine/index.ts'))) as Pick<Modules, 'createEngine'>;
  return { createAgentServer: server.createAgentServer, createEngine: engine.createEngine };
}

async function measure(modules: Modules, text: TextMode | undefined): Promise<BudgetRun> {
  const engine = modules.createEngine({ seed: 42 });
  const keyOf = (profile: string) =>
    engine.admin.createKey({ organizationId: 'org_acme', profile, expiry: 'none' }).key;
  const agent = modules.createAgentServer(engine, text === undefined ? {} : { text });
  const toolsListBytes = { reporting: 0, read_write: 0, write: 0, import: 0 };
  for (const profile of PROFILES) {
    const client = new Client({ name: 'budget', version: '1' });
    await client.connect(await agent.connectInProcess(keyOf(profile)));
    toolsListBytes[profile] = Buffer.byteLength(JSON.stringify(await client.listTools()));
    await client.close();
  }
  const client = new Client({ name: 'budget', version: '1' });
  const t0 = performance.now();
  await client.connect(await agent.connectInProcess(keyOf('read_write')));
  await client.listTools();
  await client.callTool({ name: 'list_skills', arguments: {} });
  const firstCallMs = performance.now() - t0;
  const answer = async (call: ToolCall, failureExpected = false) => {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    if ((result.isError === true) !== failureExpected)
      throw new Error(
        `agent budget: ${call.name} ${failureExpected ? 'succeeded' : 'failed'}: ${JSON.stringify(result).slice(0, 400)}`,
      );
    return JSON.stringify(result.structuredContent ?? null).length + JSON.stringify(result.content).length;
  };
  const tasks: Record<string, number[]> = {};
  for (const [task, calls] of Object.entries(BUDGET_TASKS)) {
    tasks[task] = [];
    for (const call of calls) tasks[task].push(await answer(call));
  }
  const first = await client.callTool({
    name: 'execute',
    arguments: { script: `return await call('query.search.actions', { limit: 1 });` },
  });
  const data = (first.structuredContent ??
    JSON.parse((first.content as { text: string }[])[0]?.text ?? '{}')) as {
    result?: { items?: { actionId?: string }[] };
  };
  const actionId = data.result?.items?.[0]?.actionId;
  if (actionId === undefined) throw new Error('agent budget: no action to reply on');
  const requestId = randomUUID();
  tasks['reply end to end'] = [
    await answer({
      name: 'prepare_reply',
      arguments: { actionId, text: 'Thanks, we are on it.', requestId },
    }),
    // approval_required is not a success (4.18 rule 1): an isError answer is the expected one.
    await answer({ name: 'review_reply', arguments: { requestId } }, true),
    await answer({ name: 'open_reply', arguments: { requestId } }),
  ];
  await client.close();
  await agent.close();
  return { toolsListBytes, tasks, firstCallMs };
}

/**
 * Measures the checkout at `root` (default this one). `hasTextOption`: the server takes
 * `{ text: 'summary' | 'full' }` (false for commits before it existed: measured once, as they answer).
 */
export async function agentBudget(
  options: { root?: string; commit?: string; hasTextOption?: boolean; log?: (line: string) => void } = {},
): Promise<AgentBudgetResult> {
  const modules = await modulesOf(options.root ?? ROOT);
  const withText = options.hasTextOption ?? true;
  const summary = await measure(modules, withText ? 'summary' : undefined);
  options.log?.(`   tools/list read_write ${summary.toolsListBytes.read_write} bytes`);
  const full = withText ? await measure(modules, 'full') : undefined;
  const commit = options.commit ?? shortCommit();
  return { commit, summary, ...(full === undefined ? {} : { full }) };
}

/** The same tasks against another commit's tree. */
export function agentBudgetBefore(ref: string): Promise<AgentBudgetResult> {
  return withCommitTree(ref, (tree, commit) =>
    agentBudget({
      root: tree,
      commit,
      hasTextOption: existsSync(join(tree, 'mocks/agent/server/text-summary.ts')),
    }),
  );
}

const sum = (values: readonly number[] | undefined) => (values ?? []).join(' + ');

/** The section's Markdown: tools/list bytes and characters per answer, with a "before" when given. */
export function renderAgentBudget(
  result: AgentBudgetResult & { readonly before?: AgentBudgetResult },
  stamp: string,
): string {
  const before = result.before;
  const rows = (run: BudgetRun) => PROFILES.map((p) => run.toolsListBytes[p]).join(' | ');
  const lines = [
    "## Agent interface within a model's context budget (`npm run bench -- --only agent-budget`)",
    '',
    stamp,
    '',
    "Sizes are deterministic up to a few characters (durations in the text; seed 42, in-process server, official SDK client 2.4); times are indicative only. Each task's inputs are the contract's (`groupBy` `tag` for the top tags, `week` for the trend) and every answer is checked to be a success, but review_reply's approval_required, which is not one (4.18 rule 1).",
    '',
    '| tools/list bytes | reporting | read_write | write | import |',
    '|---|---|---|---|---|',
    ...(before === undefined ? [] : [`| before (${before.commit}) | ${rows(before.summary)} |`]),
    `| after (${result.commit}) | ${rows(result.summary)} |`,
    '',
    `| task: characters per answer (structuredContent + text) | ${before === undefined ? '' : `before (${before.commit}) | `}after, \`--text summary\` (default) | after, \`--text full\` |`,
    `|---|${before === undefined ? '' : '---|'}---|---|`,
    ...Object.keys(result.summary.tasks).map(
      (task) =>
        `| ${task} | ${before === undefined ? '' : `${sum(before.summary.tasks[task])} | `}${sum(result.summary.tasks[task])} | ${sum(result.full?.tasks[task])} |`,
    ),
    '',
    `First call (connect, tools/list, list_skills; SDK client 2.4 in process): ${before === undefined ? '' : `before ${before.summary.firstCallMs.toFixed(0)} ms, `}after ${result.summary.firstCallMs.toFixed(0)} ms (the first server in the process; indicative).`,
  ];
  return lines.join('\n');
}
