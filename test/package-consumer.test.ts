/**
 * The published shape of cca-kit, as a user gets it: `npm pack` (which runs the build), the tarball
 * installed into a fresh project (test/package/install.ts), then, in that project and against the
 * installed files only: plain `node` using every entry point and playing the front-end study (the journal
 * under MSW, a targeted fault and a retry, the window walk), the installed `cca-kit` command through
 * `npx`, `tsc` on a consumer file under node16 and bundler resolution, and a browser page bundled from
 * `cca-kit/msw` + `msw/browser` under a strict Content-Security-Policy in headless Chromium.
 *
 * On whatever Node runs it: .ci/run runs it on the machine's Node (20: msw 2) and on Node 22 and 24
 * (scripts/node-runtime.js: msw 3), so `cca-kit/msw` is proven with both msw majors, node and browser.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../mocks/engine/index.ts';
import { launchChromium } from './browser/harness.ts';
import { type Installed, MSW_3, nodeRunsMsw3, packAndInstall, ROOT, runIn } from './package/install.ts';
import { expectPresetRun, PRESET_FIXTURE, presetRunArgs, reportIn } from './package/vitest-preset.ts';
import { scaled } from './support/timeouts.ts';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');

let installed: Installed | undefined;

beforeAll(async () => {
  installed = await packAndInstall();
  await cp(join(ROOT, 'test/package/consumer'), installed.project, { recursive: true });
  await cp(join(ROOT, 'test/package/page'), join(installed.project, 'page'), { recursive: true });
  await cp(join(ROOT, 'test/package/violation-throw/page.spec.ts'), join(installed.project, 'page.spec.ts'));
  await cp(fileURLToPath(PRESET_FIXTURE), join(installed.project, 'vitest-preset'), { recursive: true });
  // vitest is the SDK author's own dev dependency: this repository's copy, linked in.
  await symlink(join(ROOT, 'node_modules/vitest'), join(installed.project, 'node_modules/vitest'), 'dir');
}, scaled(300_000));

afterAll(async () => {
  await installed?.remove();
});

function project(): string {
  if (installed === undefined) throw new Error('packing or installing the package failed (see beforeAll)');
  return installed.project;
}

/** Every file under a directory, relative, with its size and mtime: what a run must leave untouched. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const { size, mtimeMs } = await stat(path);
    files.set(path.slice(dir.length), `${size} ${mtimeMs}`);
  }
  return files;
}

interface RunningMock {
  readonly url: string;
  readonly keys: ReadonlyMap<string, string>;
  stop(): Promise<void>;
}

/** `npx cca-kit mock --port 0` in the project; resolves once it printed its URL and seeded keys. */
async function startInstalledMock(
  cwd: string,
  flags: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<RunningMock> {
  const child: ChildProcess = spawn(
    'npx',
    ['--no-install', 'cca-kit', 'mock', '--port', '0', '--seed', '42', ...flags],
    {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', ...env },
      detached: true,
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // npx runs the bin in a child of its own: the whole process group is stopped.
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 30_000;
  while (!/Press Ctrl\+C/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npx cca-kit mock did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const url = /listening on (http:\/\/\S+)/.exec(output)?.[1] ?? '';
  const keys = new Map<string, string>();
  for (const [, org, profile, key] of output.matchAll(/^(org_\w+)\s+(\w+)\s+active\s+(\S+)$/gm)) {
    keys.set(`${org} ${profile}`, key ?? '');
  }
  return { url, keys, stop };
}

describe('the packed package installed into a fresh project', () => {
  it(`runs with the msw this Node gets (msw 3 on Node 22.12+, msw 2 on Node 20): Node ${process.versions.node}`, async () => {
    const msw = JSON.parse(await readFile(join(project(), 'node_modules/msw/package.json'), 'utf8')) as {
      version: string;
    };
    expect(msw.version).toEqual(nodeRunsMsw3() ? MSW_3 : expect.stringMatching(/^2\./));
  });

  it('carries compiled JavaScript, types and source maps, and no TypeScript source, tsx or esbuild', async () => {
    const root = join(project(), 'node_modules/cca-kit');
    const files = [...(await snapshot(root)).keys()];
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    for (const entry of ['src/index', 'src/contract/index', 'mocks/index', 'mocks/msw/index']) {
      expect(files).toContain(`/dist/${entry}.js`);
      expect(files).toContain(`/dist/${entry}.d.ts`);
      expect(files).toContain(`/dist/${entry}.js.map`);
    }
    const modules = await readdir(join(project(), 'node_modules'));
    expect(modules).not.toContain('tsx');
    expect(modules).not.toContain('esbuild');
  });

  it('ships every doc page the README links, names its repository, and its source maps carry their sources', async () => {
    const root = join(project(), 'node_modules/cca-kit');
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const linked = [...new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1] ?? ''))];
    expect(linked.length).toBeGreaterThan(10);
    expect(linked.filter((page) => !existsSync(join(root, page)))).toEqual([]);
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest['repository']).toMatchObject({ url: expect.stringMatching(/^git\+https:\/\//) });
    expect(manifest['homepage']).toMatch(/^https:\/\//);
    // The .ts sources are not shipped: every map carries them (sourcesContent), so a debugger or
    // `node --enable-source-maps` shows the code a stack trace points at.
    const maps = [...(await snapshot(root)).keys()].filter((file) => file.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(100);
    const withoutSources: string[] = [];
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(await readFile(join(root, map), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      if (sourcesContent?.length !== sources.length || sourcesContent.some((text) => !text))
        withoutSources.push(map);
    }
    expect(withoutSources).toEqual([]);
  });

  it('plain node imports every entry point and uses it', async () => {
    const result = await runIn(project(), process.execPath, ['use-entries.mjs']);
    // No warning from loading the package (a JSON module, an experimental API); run-time notices of the
    // code itself are not this test's subject.
    expect(result.stderr).not.toMatch(/Warning|Error/);
    expect(result.code, result.stderr).toBe(0);
    const seen = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(seen).toMatchObject({
      rule: 'AUTH-MISSING-KEY-401',
      listed: 5,
      brokenIssue: 'response field data is required',
      conformance: { verdict: 'conformant' },
      msw: { list: 200, anonymous: 401 },
      // msw 3 on Node 22.12+ (msw 2 on 20): the admin routes answer the in-process handlers.
      mswAdmin: { advance: 200, keys: 200, reset: 200 },
    });
    if (existsSync(join(project(), 'node_modules/cca-kit/dist/mocks/agent/index.js'))) {
      expect(seen['agent']).toBe('cca-kit-agent');
    }
  });

  it("the front-end study's scenarios: the journal under MSW, a fault the UI's retry gets past, the window walk", async () => {
    const result = await runIn(project(), process.execPath, ['front-end-study.mjs']);
    expect(result.code, result.stderr).toBe(0);
    const seen = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(seen).toEqual({
      journal: {
        recorded: [
          ['listActions', 200],
          ['listAgents', 401],
        ],
        served4xx: [['listAgents', 401]],
      },
      // Exactly one call failed, with the spec's error body, and the retry read the agents.
      faultBody: { success: false, error: 'Internal server error' },
      faultHeader: 'f1',
      fault: {
        id: 'f1',
        tries: [500, 200],
        fired: 1,
        remaining: 0,
        journal: ['f1', null],
        listed: [['f1', 1, 0]],
      },
      window: {
        held: expect.any(Number),
        walked: (seen['window'] as { held: number }).held,
        distinct: (seen['window'] as { held: number }).held,
        same: true,
        newestFirst: true,
      },
    });
    expect((seen['window'] as { held: number }).held).toBeGreaterThan(20);
  });

  it('the contract validates with the validators compiled at build time, generating no code', async () => {
    const result = await runIn(project(), process.execPath, [
      '--disallow-code-generation-from-strings',
      'validate-without-eval.mjs',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      request: 'query parameter pageSize must be <= 500 (got 501)',
      response: expect.any(Number),
    });
  });

  it('npx cca-kit mock and npx cca-kit conform run the installed CLI and write nothing', async () => {
    const before = await snapshot(project());
    const mock = await startInstalledMock(project());
    try {
      const readKey = mock.keys.get('org_acme reporting');
      expect(readKey).toMatch(/^cca_live_acme_reporting_/);
      const list = await fetch(`${mock.url}/v0/action/list?pageSize=2`, {
        headers: { 'x-api-key': readKey ?? '' },
      });
      expect(list.status).toBe(200);
      // The agent guide ships with the package (package.json `files`), so the installed mock serves it.
      const guide = await fetch(`${mock.url}/agent/docs/agent-interface.md`);
      expect(guide.status).toBe(200);
      expect(await guide.text()).toMatch(/^# /);
      const conform = await runIn(
        project(),
        'npx',
        [
          '--no-install',
          'cca-kit',
          'conform',
          '--base-url',
          mock.url,
          '--seed',
          '1',
          '--runs',
          '2',
          '--only',
          'docs,schemas,auth',
        ],
        {
          env: {
            CCA_READ_KEY: readKey ?? '',
            CCA_WRITE_KEY: mock.keys.get('org_acme write') ?? '',
            CCA_INGEST_KEY: mock.keys.get('org_acme import') ?? '',
          },
        },
      );
      expect(conform.code, `${conform.stdout}\n${conform.stderr}`).toBe(0);
      expect(conform.stdout).toMatch(/RESULT: conformant/);
    } finally {
      await mock.stop();
    }
    // No bundle, no cache directory, nothing written into the project or the installed package.
    expect(await snapshot(project())).toEqual(before);
  });

  it('the installed mock with --state-file captures its snapshots in the compaction replica (the compiled worker, no tsx) and starts again from them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cca-package-state-'));
    const flags = ['--state-file', join(dir, 'sandbox.state')];
    const env = { CCA_MOCK_SNAPSHOT_EVERY: '5' };
    const health = async (url: string) =>
      ((await (await fetch(`${url}/__mock/health`)).json()) as { store: Record<string, unknown> }).store;
    try {
      const first = await startInstalledMock(project(), flags, env);
      try {
        // Once the replica has loaded (a capture due before it is made on the event loop).
        const loaded = Date.now() + scaled(20_000);
        while ((await health(first.url))['capture'] !== 'replica' && Date.now() < loaded)
          await new Promise((resolve) => setTimeout(resolve, 50));
        for (let i = 0; i < 7; i += 1) {
          const made = await fetch(`${first.url}/__mock/keys`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ organizationId: 'org_acme', profile: 'reporting', name: `package-${i}` }),
          });
          expect(made.status).toBe(201);
        }
        const deadline = Date.now() + scaled(20_000);
        let store = await health(first.url);
        while ((store['snapshot'] as { position?: number } | null)?.position !== 5 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          store = await health(first.url);
        }
        expect(store['snapshot']).toMatchObject({ position: 5 });
        expect(store['capture']).toBe('replica');
        expect(store['replicaFailure']).toBeNull();
      } finally {
        await first.stop();
      }
      const again = await startInstalledMock(project(), flags, env);
      try {
        const store = await health(again.url);
        expect(store['position']).toBe(7);
        expect(store['snapshot']).toMatchObject({ position: 5 });
        // Started again from the snapshot: loading it, or loaded.
        expect(store['capture']).toMatch(/^replica( loading)?$/);
      } finally {
        await again.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the installed cca-kit mcp --stdio serves the agent tools to the official MCP client', async () => {
    const key = createEngine({ seed: 42, actions: 50 })
      .admin.listKeys('org_acme')
      .find((k) => k.profile === 'read_write' && k.status === 'active')?.key;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        join(project(), 'node_modules/.bin/cca-kit'),
        'mcp',
        '--stdio',
        '--seed',
        '42',
        '--actions',
        '50',
      ],
      cwd: project(),
      env: { ...process.env, CCA_API_KEY: key ?? '' } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'package-consumer', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['prepare_reply', 'open_reply']));
      const opened = await client.callTool({ name: 'open_reply', arguments: { requestId: 'not-a-uuid' } });
      expect(opened.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("LIST-NO-PAGE-INPUT: onViolation 'throw' fails the consumer's own vitest run on page=2, naming the rule and the request", async () => {
    const run = await runIn(project(), process.execPath, [VITEST, 'run', 'page.spec.ts'], {
      timeoutMs: scaled(120_000),
      env: { NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.code, output).not.toBe(0);
    expect(output).toContain('ViolationError');
    expect(output).toContain('LIST-NO-PAGE-INPUT');
    expect(output).toContain('GET https://api.example.test/v0/action/list?pageSize=5&page=2 answered 200');
  });

  it('LIST-NO-PAGE-INPUT: with cca-kit/vitest in the setup file, exactly the test that sent page=2 fails, by name, at its line', async () => {
    const folder = join(project(), 'vitest-preset');
    const report = reportIn(folder);
    const run = await runIn(project(), process.execPath, presetRunArgs(VITEST, folder, report), {
      timeoutMs: scaled(120_000),
      env: { NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
    });
    expectPresetRun(run.code, `${run.stdout}\n${run.stderr}`, report);
  });

  it('the public types compile a correct consumer and reject wrong calls, under node16 and bundler resolution', async () => {
    const [node16, bundler] = await Promise.all([
      runIn(project(), process.execPath, [TSC, '-p', 'tsconfig.node16.json']),
      runIn(project(), process.execPath, [TSC, '-p', 'tsconfig.bundler.json']),
    ]);
    expect(node16.stdout, 'node16').toBe('');
    expect(node16.code).toBe(0);
    expect(bundler.stdout, 'bundler').toBe('');
    expect(bundler.code).toBe(0);
  });

  it('cca-kit/msw with msw/browser, bundled for the browser, answers under script-src self with no CSP violation', async () => {
    const page = join(project(), 'page');
    const site = join(page, 'site');
    await mkdir(site, { recursive: true });
    const bundle = await build({
      entryPoints: [join(page, 'app.js')],
      absWorkingDir: project(),
      outfile: join(site, 'app.js'),
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      metafile: true,
      logLevel: 'silent',
    });
    // No node built-in reached the browser graph (esbuild would leave `node:` imports external).
    const inputs = Object.keys(bundle.metafile.inputs);
    expect(inputs.filter((input) => input.startsWith('node:') || !input.includes('/'))).toEqual([]);
    expect(inputs.some((input) => input.startsWith('node_modules/cca-kit/dist/'))).toBe(true);
    await copyFile(join(page, 'index.html'), join(site, 'index.html'));
    await copyFile(
      join(project(), 'node_modules/msw/lib/mockServiceWorker.js'),
      join(site, 'mockServiceWorker.js'),
    );

    const server = await serveWithCsp(site);
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const tab = await context.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      tab.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      await tab.goto(`${server.url}/`);
      await tab.waitForSelector('body[data-ready]', { timeout: scaled(30_000) });
      expect(await tab.textContent('#error'), errors.join('\n')).toBe('');
      expect(await tab.textContent('#list-status')).toBe('200');
      expect((await tab.textContent('#ids'))?.split(',')).toHaveLength(3);
      expect(await tab.textContent('#invalid')).toMatch(/^400 .*pageSize/);
      // The body validator of the browser build reports every problem, as in node.
      const bodyInvalid = (await tab.textContent('#body-invalid')) ?? '';
      expect(bodyInvalid).toMatch(/^400 /);
      expect(bodyInvalid).toContain('externalId');
      expect(bodyInvalid).toContain('media');
      // The data file's full schema runs in the page: an enum the reduced shape check would not see.
      expect(await tab.textContent('#data-file')).toBe('DataFileError /organizations/0/moderationMode');
      // The browser build carries the service alone: data files and the admin routes only when asked for.
      expect(await tab.textContent('#no-feature')).toBe('named');
      expect(await tab.textContent('#admin')).toBe('404 true');
      // With adminRoutes and journal in use, the page's own calls reach /__mock/; the journal lists the API call.
      expect(await tab.textContent('#admin-routes')).toBe('200 200 /v0/agents 401');
      // /docs/json serves the contract without prose (src/contract/lean-document.ts), every path kept.
      expect(await tab.textContent('#docs')).toMatch(
        /^3\.1\.\d+ \d+ The cca-kit browser build serves this contract/,
      );
      expect(await tab.textContent('#violations')).toBe(
        'invalid-request listActions,invalid-request submitModerationCase',
      );
      expect(await tab.getAttribute('body', 'data-violations')).toBeNull();
      expect(errors.filter((error) => /Content Security Policy/i.test(error))).toEqual([]);
      // The policy is in force: a script written into the page is refused and reported as a violation.
      const ran = await tab.evaluate(() => {
        const probe = document.createElement('script');
        probe.textContent = 'document.body.dataset.inlineRan = "yes"';
        document.head.append(probe);
        return document.body.dataset['inlineRan'] ?? 'refused';
      });
      expect(ran).toBe('refused');
      await tab.waitForSelector('body[data-violations]', { timeout: 5_000 });
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  });
});

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/** Serves a directory on 127.0.0.1 with `Content-Security-Policy: script-src 'self'` on every answer. */
async function serveWithCsp(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://static.invalid').pathname;
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    const headers = { 'content-security-policy': "script-src 'self'" };
    if (!file.startsWith(dir)) {
      res.writeHead(403, headers).end();
      return;
    }
    readFile(file).then(
      (body) =>
        res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'text/plain' }).end(body),
      () => res.writeHead(404, headers).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
