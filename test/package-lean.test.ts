/**
 * The lean package `@cca-kit/core` (scripts/lean-packages.js cuts it out of dist/), packed and installed
 * into a fresh project as a user gets it: a contract-only user (no msw) and then an MSW user. It brings
 * the contract, the validators and the MSW handlers with ajv and ajv-formats only: no MCP SDK, no
 * Redis client, no QuickJS, no Swagger UI and its install-time telemetry, no HTTP client, no fast-check, and no package
 * that runs a script on install. On Node 22+ (.ci/run) the MSW half runs msw 3, on Node 20 msw 2.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedClosure } from './package/closure.ts';
import {
  type Installed,
  LEAN_CORE,
  mswVersion,
  nodeRunsMsw3,
  npm,
  packAndInstall,
  ROOT,
  runIn,
} from './package/install.ts';
import { scaled } from './support/timeouts.ts';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** What the CLI, the agent interface and the conformance suite need, and a lean install must not have. */
const FULL_ONLY = [
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/sdk',
  'zod',
  'quickjs-emscripten-core',
  '@jitl/quickjs-wasmfile-release-sync',
  'swagger-ui-dist',
  '@scarf/scarf',
  'undici',
  'fast-check',
  'api-smart-diff',
  '@redis/client',
  'cca-kit',
];

let installed: Installed | undefined;

beforeAll(async () => {
  installed = await packAndInstall({ folder: LEAN_CORE, withMsw: false });
  await cp(join(ROOT, 'test/package/lean'), installed.project, { recursive: true });
}, scaled(300_000));

afterAll(async () => {
  await installed?.remove();
});

function project(): string {
  if (installed === undefined) throw new Error('packing or installing @cca-kit/core failed (see beforeAll)');
  return installed.project;
}

describe('@cca-kit/core installed alone', () => {
  it('brings ajv and ajv-formats (and their own dependencies) only, none with an install script', () => {
    const closure = installedClosure(project(), '@cca-kit/core');
    const names = closure.map((p) => p.name).sort();
    expect(names).toEqual(expect.arrayContaining(['@cca-kit/core', 'ajv', 'ajv-formats']));
    expect(names.filter((name) => FULL_ONLY.includes(name))).toEqual([]);
    expect(closure.filter((p) => p.installScript).map((p) => p.name)).toEqual([]);
    // Nothing of the full package anywhere in the project either (not brought by another route).
    const everything = installedClosure(project(), '@cca-kit/core').concat(
      installedClosure(project(), '@types/node'),
    );
    expect(everything.filter((p) => FULL_ONLY.includes(p.name))).toEqual([]);
  });

  it('a contract-only user validates requests and responses; the MSW entry without msw names what to install', async () => {
    const result = await runIn(project(), process.execPath, ['contract.mjs']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/Warning|Error/);
    expect(JSON.parse(result.stdout)).toEqual({
      request: 'query parameter pageSize must be <= 500 (got 501)',
      // Named as the user installed it, not as the full package.
      mswError: "@cca-kit/core/msw needs msw 2 or 3, your project's own: npm install --save-dev msw",
    });
  });

  it(`with msw added (msw ${nodeRunsMsw3() ? 3 : 2} on Node ${process.versions.node}), the handlers answer through msw/node, and the types compile`, async () => {
    const before = installedClosure(project(), '@cca-kit/core').map((p) => p.path);
    const version = await mswVersion();
    const added = await npm(
      project(),
      ['install', '--no-audit', '--prefer-offline', `msw@${version}`],
      240_000,
    );
    expect(added.code, added.stderr).toBe(0);
    const result = await runIn(project(), process.execPath, ['msw.mjs']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ list: 200, anonymous: 401 });
    // msw is the user's: adding it changed nothing of what @cca-kit/core itself installs.
    expect(installedClosure(project(), '@cca-kit/core', ['msw']).map((p) => p.path)).toEqual(before);
    const types = await runIn(project(), process.execPath, [TSC, '-p', 'tsconfig.json']);
    expect(types.stdout).toBe('');
    expect(types.code).toBe(0);
  });
});
