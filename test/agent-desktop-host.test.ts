/**
 * `cca-kit mcp --stdio` started the way a desktop host starts it (docs/agent-interface.md "Desktop
 * hosts"): from `/`, with only PATH and the key in the environment (`env -i`), stderr kept apart, in
 * both configurations the docs show (node with the absolute path of bin/cca-kit.js, and
 * `npx --prefix <dir> cca-kit` over an installed copy). The SDK client initializes, lists the tools,
 * reads /llms.txt through the URL the server instructions give, and calls every tool.
 *
 * Runs the built CLI (dist/, as users do); `npm test` builds before vitest runs.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, describe, expect, it } from 'vitest';
import { answerData } from './agent-answer.ts';
import { ROOT } from './support/processes.ts';
import { seededKey } from './support/stdio-mcp.ts';

const installed = mkdtempSync(join(tmpdir(), 'cca-kit-host-'));
// An installed copy as npm lays it out: the package under node_modules/, its bin linked in .bin/.
mkdirSync(join(installed, 'node_modules', '.bin'), { recursive: true });
symlinkSync(ROOT.replace(/\/$/, ''), join(installed, 'node_modules', 'cca-kit'));
symlinkSync('../cca-kit/bin/cca-kit.js', join(installed, 'node_modules', '.bin', 'cca-kit'));
afterAll(() => rmSync(installed, { recursive: true, force: true }));

const CONFIGURATIONS = [
  ['a checkout: node <abs>/bin/cca-kit.js', process.execPath, [`${ROOT}bin/cca-kit.js`]],
  ['an installed package: npx --prefix <dir> cca-kit', 'npx', ['--prefix', installed, 'cca-kit']],
] as const;

/** An SDK stdio transport that starts the command as a host does: `env -i`, cwd `/`, stderr piped. */
function hostLikeTransport(command: string, args: readonly string[], key: string) {
  const transport = new StdioClientTransport({
    command: '/usr/bin/env',
    args: [
      '-i',
      `PATH=${process.env['PATH'] ?? ''}`,
      `CCA_API_KEY=${key}`,
      command,
      ...args,
      'mcp',
      '--stdio',
      '--actions',
      '50',
    ],
    cwd: '/',
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { transport, stderr: () => stderr };
}

describe('a desktop host spawns cca-kit mcp --stdio', () => {
  it.each(CONFIGURATIONS)(
    '%s: initialize, tools/list, /llms.txt through the instructions, every tool',
    async (_, command, args) => {
      const { transport, stderr } = hostLikeTransport(command, args, seededKey('read_write'));
      const client = new Client({ name: 'desktop-host', version: '1.0.0' });
      await client.connect(transport);
      try {
        const instructions = client.getInstructions() ?? '';
        const docsUrl = /Documentation: (http:\/\/127\.0\.0\.1:\d+\/llms\.txt)/.exec(instructions)?.[1];
        expect(docsUrl, `instructions: ${instructions}\nstderr: ${stderr()}`).toBeDefined();
        // The port the instructions name is the one the process says it serves (on stderr, for people).
        expect(stderr()).toContain(new URL(docsUrl ?? 'http://x').origin);
        const index = await fetch(docsUrl ?? '');
        expect(index.status).toBe(200);
        const llms = await index.text();
        expect(llms).toMatch(/^# /);
        const firstPage = /\]\((\/[^)]+\.md)\)/.exec(llms)?.[1];
        expect(firstPage).toBeDefined();
        expect(await fetch(new URL(firstPage ?? '', docsUrl)).then((r) => r.status)).toBe(200);

        const { tools } = await client.listTools();
        const names = tools.map((t) => t.name).sort();
        const called: string[] = [];
        const call = async (name: string, input: Record<string, unknown>) => {
          called.push(name);
          const result = await client.callTool({ name, arguments: input });
          return result as {
            isError?: boolean;
            structuredContent?: Record<string, unknown>;
            content?: unknown;
          };
        };

        const listed = await call('list_skills', {});
        expect(listed.isError).not.toBe(true);
        const skills = (listed.structuredContent as { skills: { name: string; files: { path: string }[] }[] })
          .skills;
        const skill = skills.find((s) => s.files.length > 0);
        expect(skill).toBeDefined();
        expect((await call('read_skill', { name: skill?.name })).isError).not.toBe(true);
        expect(
          (await call('read_skill_file', { name: skill?.name, path: skill?.files[0]?.path })).isError,
        ).not.toBe(true);
        const found = await call('execute', {
          script:
            "return (await call('query.search.actions', { limit: 1, dateRange: { relative: { unit: 'year', count: 5 } } })).items[0].actionId;",
        });
        expect(found.isError, JSON.stringify(found.structuredContent)).not.toBe(true);
        const actionId = (found.structuredContent as { result: unknown }).result;
        expect(typeof actionId).toBe('string');
        const requestId = '5d2b9a1e-0c4f-4e7a-8b3d-6f1e2a9c7b40';
        const prepared = await call('prepare_reply', {
          actionId,
          text: 'Spawned from a desktop host.',
          requestId,
        });
        expect(prepared.isError, JSON.stringify(prepared.structuredContent)).not.toBe(true);
        const review = await call('review_reply', { requestId });
        expect(answerData(review)).toMatchObject({ kind: 'approval_required' });
        const opened = await call('open_reply', { requestId });
        expect(opened.isError, JSON.stringify(opened.structuredContent)).not.toBe(true);
        // Every tool the key may use was called: a tool added later must be added here too.
        expect([...new Set(called)].sort()).toEqual(names);
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});
