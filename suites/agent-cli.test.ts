/**
 * `cca-kit conform` runs the agent laws: `--only agent...` selects them, `--mcp-url` points them at
 * another endpoint (a wrong one makes them fail), `--skip agent` leaves them out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformCommand } from '../src/cli/conform.ts';
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
