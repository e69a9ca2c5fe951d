/**
 * `cca-kit conform` runs the agent laws: `--only agent...` selects them, `--mcp-url` points them at
 * another endpoint (a wrong one makes them fail), `--skip agent` leaves them out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformCommand } from '../src/cli/conform-command.ts';
import type { CliIo } from '../src/cli/io.ts';
import { KEY_ENV } from '../src/client/types.ts';
import { type RunningTarget, startMockTarget } from './target.ts';

function io(): { io: CliIo; out: string[] } {
  const out: string[] = [];
  return { io: { stdout: (t) => out.push(t), stderr: () => {}, signal: new AbortController().signal }, out };
}

describe('cca-kit conform: the agent interface', () => {
  let mock: RunningTarget;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    mock = await startMockTarget({ seed: 42 });
    const keys = mock.target.keys;
    env = { [KEY_ENV.read]: keys.read, [KEY_ENV.write]: keys.write, [KEY_ENV.ingest]: keys.ingest };
  });
  afterAll(async () => {
    await mock.close();
  });
  const args = (...extra: string[]) => [
    '--base-url',
    mock.target.baseUrl,
    '--seed',
    '3',
    '--runs',
    '2',
    ...extra,
  ];

  it('checks <base-url>/mcp by default and passes our mock (AGENT-MCP-INITIALIZE-SESSION, AGENT-MCP-DOCS-LLMS-TXT)', async () => {
    const run = io();
    const code = await runConformCommand(
      args('--only', 'agent.transport.initialize,agent.docs.llms-index'),
      run.io,
      env,
    );
    expect(code, run.out.join('')).toBe(0);
    expect(run.out.join('')).toContain('agent.transport.initialize');
  });

  it('without --mcp-revision the agent laws run over every revision the mock offers; --mcp-revision picks one', async () => {
    const offered = io();
    expect(await runConformCommand(args('--only', 'agent.tools.listed'), offered.io, env)).toBe(0);
    expect(offered.out.join('')).toContain('Agent interface judged over MCP 2025-11-25 and 2026-07-28');
    const one = io();
    expect(
      await runConformCommand(
        args('--only', 'agent.tools.listed', '--mcp-revision', '2026-07-28'),
        one.io,
        env,
      ),
    ).toBe(0);
    expect(one.out.join('')).toContain('Agent interface judged over MCP 2026-07-28\n');
    const both = io();
    expect(
      await runConformCommand(args('--only', 'agent.tools.listed', '--mcp-revision', 'both'), both.io, env),
    ).toBe(0);
    expect(both.out.join('')).toContain('Agent interface judged over MCP 2025-11-25 and 2026-07-28');
  });

  it('--mcp-revision refuses anything but 2025-11-25, 2026-07-28 or both, naming them', async () => {
    await expect(runConformCommand(args('--mcp-revision', 'latest'), io().io, env)).rejects.toThrow(
      /--mcp-revision must be one of 2025-11-25, 2026-07-28, both/,
    );
  });

  it('--mcp-url points the agent laws elsewhere: a wrong endpoint is one NOT CHECKED line naming it (AGENT-MCP-INITIALIZE-SESSION not run)', async () => {
    const run = io();
    const code = await runConformCommand(
      args('--only', 'agent.transport.initialize', '--mcp-url', `${mock.target.baseUrl}/not-mcp`),
      run.io,
      env,
    );
    const out = run.out.join('');
    expect(code, out).toBe(3);
    expect(out).toContain('/not-mcp');
    expect(out).toContain('--mcp-url');
    expect(out).not.toMatch(/FAIL[^\n]*AGENT-MCP-INITIALIZE-SESSION/);
  });

  it('--skip agent leaves the agent laws out', async () => {
    const run = io();
    const code = await runConformCommand(
      args('--only', 'docs,agent.docs.llms-index', '--skip', 'agent'),
      run.io,
      env,
    );
    expect(code, run.out.join('')).toBe(0);
    expect(run.out.join('')).toMatch(
      /agent\.docs\.llms-index[^\n]*skipped by --skip agent|skipped by --skip agent/,
    );
  });
});
