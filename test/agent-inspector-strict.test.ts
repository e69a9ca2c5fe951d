/**
 * The tools list as the MCP Inspector 2.12 judges it: `inspector --cli --method tools/list --strict`
 * reports every tool-schema portability problem (type arrays, schemas that constrain nothing, remote
 * `$ref`s) on stderr. Our tools list must give it nothing to report, for every key profile, over
 * Streamable HTTP and over stdio (`cca-kit mcp --stdio`, spawned by the Inspector as a host would).
 * A small unportable server shows the check does report what it is meant to, so the silence proves
 * something.
 *
 * The Inspector needs Node 22.19 or later: on an older Node the test runs it with the pinned
 * official Node 22 binary (scripts/node-runtime.js), whatever Node runs the tests.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateKey } from '../mocks/agent/server/identity.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import type { AgentKeyProfile } from '../src/contract/agent.ts';
import { outputOf } from './support/processes.ts';
import { scaled } from './support/timeouts.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const INSPECTOR = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'clients',
  'launcher',
  'build',
  'index.js',
);
const UNPORTABLE = fileURLToPath(new URL('./support/unportable-mcp-server.mjs', import.meta.url));
const PROFILES: readonly AgentKeyProfile[] = ['reporting', 'write', 'read_write', 'import'];

/** A Node the Inspector runs on: this one from 22.19 on, else the pinned official Node 22. */
function inspectorNode(): string {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return process.execPath;
  const bin = execFileSync(process.execPath, [join(ROOT, 'scripts/node-runtime.js'), '22'], {
    encoding: 'utf8',
  }).trim();
  return join(bin, 'node');
}

let node: string;
let mock: MockServer;

function inspector(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(node, [INSPECTOR, '--cli', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, NO_COLOR: '1' },
  });
  return outputOf(child);
}

function keyOf(profile: AgentKeyProfile): string {
  const key =
    mock.engine.admin.listKeys('org_acme').find((k) => k.profile === profile && k.status === 'active')?.key ??
    undefined;
  if (key === undefined) throw new Error(`the seeded mock has no active ${profile} key`);
  return key;
}

/** The tool names the mock itself gives a profile's key. */
function toolsOf(profile: AgentKeyProfile): string[] {
  const checked = authenticateKey(mock.engine, keyOf(profile));
  if (!checked.ok) throw new Error(`the ${profile} key was refused`);
  return mock.agent?.agent.tools.forIdentity(checked.identity).map((t) => t.declaration.name) ?? [];
}

beforeAll(async () => {
  node = inspectorNode();
  mock = await startMockServer({ seed: 42, actions: 50 });
}, scaled(120_000));

afterAll(async () => {
  await mock?.close();
});

describe('MCP Inspector 2.12 --strict on the tools list', () => {
  it(
    'finds the portability problems of an unportable server (the check is live)',
    async () => {
      const run = await inspector(['--method', 'tools/list', '--strict', node, UNPORTABLE]);
      expect(run.stderr).toMatch(/Warning: tool "unportable"/);
      expect(run.stderr).toMatch(/`type` is an array/);
      expect(run.stderr).toMatch(/no validation keyword/);
      expect(run.stderr).toMatch(/0 errors, 2 warnings across 1 tool/);
    },
    scaled(60_000),
  );

  for (const profile of PROFILES) {
    it(
      `reports nothing for a ${profile} key over Streamable HTTP, and lists that profile's tools`,
      async () => {
        const run = await inspector([
          `${mock.url}/mcp`,
          '--transport',
          'http',
          '--method',
          'tools/list',
          '--strict',
          '--header',
          `Authorization: Bearer ${keyOf(profile)}`,
        ]);
        expect(run.stderr).not.toMatch(/Warning|Error|portability/i);
        expect(run.code, run.stderr).toBe(0);
        const listed = JSON.parse(run.stdout) as { tools: { name: string; outputSchema?: unknown }[] };
        expect(listed.tools.map((t) => t.name)).toEqual(toolsOf(profile));
        expect(listed.tools.every((t) => t.outputSchema !== undefined)).toBe(true);
      },
      scaled(60_000),
    );
  }

  it(
    'reports nothing over stdio, with the Inspector spawning `cca-kit mcp --stdio` as a host does',
    async () => {
      const run = await inspector([
        '--method',
        'tools/list',
        '--strict',
        '-e',
        `CCA_API_KEY=${keyOf('read_write')}`,
        '--',
        node,
        join(ROOT, 'bin/cca-kit.js'),
        'mcp',
        '--stdio',
        '--seed',
        '42',
      ]);
      expect(run.stderr).not.toMatch(/Warning|portability/i);
      expect(run.code, run.stderr).toBe(0);
      const listed = JSON.parse(run.stdout) as { tools: { name: string }[] };
      expect(listed.tools.map((t) => t.name)).toEqual(toolsOf('read_write'));
    },
    scaled(60_000),
  );
});
