/**
 * The first call a host makes through the official SDK clients, 1.x (`@modelcontextprotocol/sdk`
 * 1.32) and 2.x (`@modelcontextprotocol/client` 2.4), each in a cold process of its own
 * (`bench/lib/first-call-client.mjs`) against the mock over Streamable HTTP on loopback: connect,
 * tools/list, the first tools/call, the first and a second execute. A client compiles the output
 * schemas of tools/list before it validates a result, so what tools/list carries shows in the first
 * call. `root` is the checkout whose mock answers (another commit's tree for the "before" figures).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../test/support/processes.ts';
import { shortCommit, withCommitTree } from '../lib/commit-tree.ts';
import { percentileOfSorted } from '../lib/stats.ts';

const CHILD = join(ROOT, 'bench/lib/first-call-client.mjs');
const STEPS = ['connectMs', 'toolsListMs', 'firstCallMs', 'firstExecuteMs', 'secondExecuteMs'] as const;
type Step = (typeof STEPS)[number] | 'toFirstAnswerMs';

interface ChildRun extends Record<Step, number> {
  readonly major: number;
  readonly ok: boolean;
}

export interface FirstCallResult {
  readonly commit: string;
  readonly runs: number;
  /** Per client major version: the median (and max) of each step over the runs, in ms. */
  readonly clients: Readonly<Record<'1' | '2', Readonly<Record<Step, { p50: number; max: number }>>>>;
}

interface MockModule {
  startMockServer(options: { seed: number }): Promise<{
    url: string;
    engine: { admin: { createKey(o: Record<string, string>): { key: string } } };
    close(): Promise<void>;
  }>;
}

function runChild(major: '1' | '2', url: string, key: string): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHILD, major, url, key], { cwd: ROOT, timeout: 60_000 }, (error, stdout) => {
      if (error !== null) return reject(error);
      const line = stdout.trim().split('\n').at(-1) ?? '';
      const run = JSON.parse(line) as ChildRun;
      if (!run.ok) return reject(new Error(`first-call client ${major}: a call failed: ${line}`));
      resolve(run);
    });
  });
}

/** `runs` cold processes per client, alternating 1.x and 2.x, against the mock of `root`. */
export async function agentFirstCall(
  options: { runs?: number; root?: string; commit?: string; log?: (line: string) => void } = {},
): Promise<FirstCallResult> {
  const root = options.root ?? ROOT;
  const runs = options.runs ?? 5;
  const { startMockServer } = (await import(
    pathToFileURL(join(root, 'mocks/http/server.ts')).href
  )) as MockModule;
  const mock = await startMockServer({ seed: 42 });
  const key = mock.engine.admin.createKey({
    organizationId: 'org_acme',
    profile: 'read_write',
    expiry: 'none',
  }).key;
  const samples: Record<'1' | '2', ChildRun[]> = { '1': [], '2': [] };
  try {
    // A first request loads the agent side of a lazily loading mock before anything is timed.
    await fetch(`${mock.url}/llms.txt`).then((r) => r.arrayBuffer());
    for (let i = 0; i < runs; i++)
      for (const major of ['1', '2'] as const)
        samples[major].push(await runChild(major, `${mock.url}/mcp`, key));
  } finally {
    await mock.close();
  }
  const summary = (list: readonly ChildRun[]) =>
    Object.fromEntries(
      [...STEPS, 'toFirstAnswerMs' as const].map((step) => {
        const sorted = list.map((r) => r[step]).sort((a, b) => a - b);
        return [step, { p50: percentileOfSorted(sorted, 50), max: sorted.at(-1) ?? 0 }];
      }),
    ) as Record<Step, { p50: number; max: number }>;
  const result: FirstCallResult = {
    commit: options.commit ?? shortCommit(),
    runs,
    clients: { '1': summary(samples['1']), '2': summary(samples['2']) },
  };
  options.log?.(
    `   ${result.commit}: to the first answer p50 1.x ${result.clients['1'].toFirstAnswerMs.p50.toFixed(0)} ms, 2.x ${result.clients['2'].toFirstAnswerMs.p50.toFixed(0)} ms`,
  );
  return result;
}

/** The same against another commit's mock. */
export function agentFirstCallBefore(ref: string, runs?: number): Promise<FirstCallResult> {
  return withCommitTree(ref, (tree, commit) =>
    agentFirstCall({ root: tree, commit, ...(runs === undefined ? {} : { runs }) }),
  );
}

const ms = (v: { p50: number; max: number }) => `${v.p50.toFixed(0)} (${v.max.toFixed(0)})`;

/** The section's Markdown: one row per commit and client, p50 (max) per step. */
export function renderAgentFirstCall(
  result: FirstCallResult & { readonly before?: FirstCallResult },
  stamp: string,
): string {
  const rows = (r: FirstCallResult, label: string) =>
    (['1', '2'] as const).map(
      (major) =>
        `| ${label} (${r.commit}) | ${major === '1' ? '1.x (sdk 1.32)' : '2.x (client 2.4)'} | ${STEPS.map((s) => ms(r.clients[major][s])).join(' | ')} | ${ms(r.clients[major].toFirstAnswerMs)} |`,
    );
  return [
    '## First call through the SDK clients 1.x and 2.x (`npm run bench -- --only agent-first-call`)',
    '',
    stamp,
    '',
    `Each client in a cold process of its own (${result.runs} runs each, alternating), the mock on loopback over Streamable HTTP, a Read-and-write key. ms, median (max). "To the first answer" is connect + tools/list + the first tools/call, what a host waits before a model sees its first result; a second execute shows what is left once the client has compiled the output schemas.`,
    '',
    '| server | client | connect | tools/list | first tools/call (list_skills) | first execute | second execute | to the first answer |',
    '|---|---|---|---|---|---|---|---|',
    ...(result.before === undefined ? [] : rows(result.before, 'before')),
    ...rows(result, 'after'),
  ].join('\n');
}
