/**
 * A third-party client against the mock: `@modelcontextprotocol/inspector-cli` 1.0.3 (built on the
 * 1.x TypeScript SDK) lists and calls tools over Streamable HTTP. It exits 0 even when a call fails, so
 * the test parses what it prints.
 *
 * The CLI's entry (`build/index.js`) is run directly: its `cli.js` launcher only spawns it. It looks
 * for its own package.json at `../package.json` relative to the working directory, hence `cwd: test/`.
 */

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { answerData } from './agent-answer.ts';
import { outputOf } from './support/processes.ts';
import { scaled } from './support/timeouts.ts';

const TEST_DIR = dirname(fileURLToPath(import.meta.url));
const INSPECTOR = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build',
  'index.js',
);

let mock: MockServer;
let key: string;

function inspector(
  args: readonly string[],
  credential = key,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      INSPECTOR,
      `${mock.url}/mcp`,
      '--transport',
      'http',
      ...args,
      '--header',
      `Authorization: Bearer ${credential}`,
    ],
    { cwd: TEST_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return outputOf(child);
}

beforeAll(async () => {
  mock = await startMockServer({ seed: 42, actions: 100 });
  key =
    mock.engine.admin.listKeys('org_acme').find((k) => k.profile === 'read_write' && k.status === 'active')
      ?.key ?? '';
});

afterAll(async () => {
  await mock.close();
});

describe('inspector-cli against the mock', () => {
  it(
    'lists the read_write tools with their schemas',
    async () => {
      const run = await inspector(['--method', 'tools/list']);
      expect(run.code).toBe(0);
      const listed = JSON.parse(run.stdout) as { tools: { name: string; inputSchema: { type: string } }[] };
      const names = listed.tools.map((t) => t.name);
      expect(names).toEqual(
        mock.agent?.agent.tools
          .forIdentity({
            organizationId: 'org_acme',
            keyName: '',
            profile: 'read_write',
            scopes: ['read', 'write'],
          })
          .map((t) => t.declaration.name),
      );
      for (const tool of listed.tools) expect(tool.inputSchema.type).toBe('object');
    },
    scaled(30_000),
  );

  it(
    'a failing call reaches the 1.x client as a structured isError result (exit 0: parsed, not trusted)',
    async () => {
      const run = await inspector([
        '--method',
        'tools/call',
        '--tool-name',
        'open_reply',
        '--tool-arg',
        'requestId=not-a-uuid',
      ]);
      expect(run.code).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(/does not match the tool's output schema/);
      const result = JSON.parse(run.stdout) as {
        isError?: boolean;
        structuredContent?: { kind: string; field: string };
      };
      expect(result.isError).toBe(true);
      expect(answerData<{ kind: string }>(result)?.kind).toBe('invalid_input');
      expect(answerData<{ field: string }>(result)?.field).toBe('/requestId');
    },
    scaled(30_000),
  );

  it(
    'calls execute and list_skills: structured results reach the 1.x client',
    async () => {
      const run = await inspector([
        '--method',
        'tools/call',
        '--tool-name',
        'execute',
        '--tool-arg',
        'script=const s = spec(); return s.map((op) => op.id);',
      ]);
      expect(run.stdout + run.stderr).not.toMatch(/does not match the tool's output schema/);
      const result = JSON.parse(run.stdout) as {
        isError?: boolean;
        structuredContent?: { result?: unknown };
      };
      expect(result.isError ?? false).toBe(false);
      expect(answerData<{ result: unknown }>(result)?.result).toEqual(
        expect.arrayContaining(['query.search.actions']),
      );
      const skills = await inspector(['--method', 'tools/call', '--tool-name', 'list_skills']);
      const listed = JSON.parse(skills.stdout) as { structuredContent?: { skills?: { name: string }[] } };
      expect(answerData<{ skills: unknown[] }>(listed)?.skills?.length ?? 0).toBeGreaterThan(0);
    },
    scaled(60_000),
  );

  it(
    'an unknown key fails to connect (401), reported on the output',
    async () => {
      const run = await inspector(['--method', 'tools/list'], 'cca_not_a_key');
      expect(run.stdout + run.stderr).toMatch(/401|Unauthorized|not valid/i);
      expect(run.stdout).not.toMatch(/"tools"/);
    },
    scaled(30_000),
  );
});
