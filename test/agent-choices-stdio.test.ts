/**
 * `cca-kit mcp --stdio --choice point=value`: the agent-only command takes the mock's choices too, and
 * its tools answer in them (the status names and the duration format the same engine's REST shows).
 */

import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { answerData } from './agent-answer.ts';
import { outputOf, ROOT } from './support/processes.ts';
import { CLI_ARGS, seededKey, stdioTransport } from './support/stdio-mcp.ts';
import { scaled } from './support/timeouts.ts';

const ALTERNATE = ['OPEN', 'WAITING', 'ON_HOLD', 'RESOLVED', 'DISMISSED'];

describe('cca-kit mcp --stdio --choice', () => {
  it(
    'the agent interface answers in the chosen status names and duration format',
    async () => {
      const { transport, stderr: stderrOf } = stdioTransport(
        ['--http-port', 'off', '--choice', 'actionStatuses=alternate', '--choice', 'durationFormat=clock'],
        200,
      );
      const client = new Client({ name: 'choices-stdio-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const answer = await client.callTool({
          name: 'execute',
          arguments: {
            script: `const page = await call('query.search.actions', { dateRange: { relative: { unit: 'month', count: 12 } }, limit: 100 });
const waiting = await call('query.search.actions', { dateRange: { relative: { unit: 'month', count: 12 } }, filter: { filterType: 'and', filters: [{ filterType: 'status', operator: 'in', value: ['WAITING'] }] }, limit: 5 });
const schema = await spec('query.search.actions');
return { statuses: page.items.map((i) => i.status), durations: page.items.map((i) => i.firstResponseTime).filter((d) => d !== null), waiting: waiting.items.map((i) => i.status), enumText: JSON.stringify(schema.inputSchema).includes('"ON_HOLD"') };`,
          },
        });
        expect(answer.isError, JSON.stringify(answer).slice(0, 500)).not.toBe(true);
        const result = (answerData(answer) as { result: Record<string, unknown[] | boolean> }).result;
        const statuses = result['statuses'] as string[];
        expect(statuses.length).toBeGreaterThan(0);
        for (const s of statuses) expect(ALTERNATE).toContain(s);
        const durations = result['durations'] as string[];
        expect(durations.length).toBeGreaterThan(0);
        for (const d of durations) expect(d).toMatch(/^\d\d:\d\d:\d\d$/);
        expect(result['waiting']).toEqual(expect.arrayContaining(['WAITING']));
        for (const s of result['waiting'] as string[]) expect(s).toBe('WAITING');
        expect(result['enumText']).toBe(true);
      } finally {
        await client.close();
      }
      expect(stderrOf()).toMatch(/choice actionStatuses=alternate, choice durationFormat=clock/);
    },
    scaled(60_000),
  );

  it(
    'a malformed --choice is a usage error naming it (exit 2), before any protocol',
    async () => {
      const child = spawn(
        process.execPath,
        [...CLI_ARGS, 'mcp', '--stdio', '--choice', 'durationFormat=days'],
        {
          cwd: ROOT,
          env: { ...process.env, CCA_API_KEY: seededKey('read_write') },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      const out = await outputOf(child);
      expect(out.code).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr).toMatch(/--choice: choice durationFormat must be one of iso8601, seconds, clock/);
    },
    scaled(30_000),
  );
});
