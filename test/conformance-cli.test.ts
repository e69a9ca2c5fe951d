import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformCommand } from '../src/cli/conform-command.ts';
import { KEY_ENV } from '../src/client/types.ts';
import { MUTANTS } from '../suites/mutations/faults.ts';
import { withHook } from '../suites/mutations/hook.ts';
import { mockKeys, type RunningTarget, startMockTarget } from '../suites/target.ts';
import { captureIo } from './support/cli-io.ts';

function env(baseUrl: string): NodeJS.ProcessEnv {
  const keys = mockKeys();
  return {
    CCA_BASE_URL: baseUrl,
    [KEY_ENV.read]: keys.read,
    [KEY_ENV.write]: keys.write,
    [KEY_ENV.ingest]: keys.ingest,
  };
}

describe('cca-kit conform', () => {
  let dir: string;
  let good: RunningTarget;
  let faulty: RunningTarget;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cca-conform-'));
    good = await startMockTarget({ seed: 42 });
    const fault = MUTANTS.find((m) => m.id === 'page-size-501-accepted');
    faulty = await startMockTarget({
      seed: 42,
      wrap: (e) => withHook(e, fault?.hook(mockKeys()) ?? ((h) => h)),
    });
  });
  afterAll(async () => {
    await Promise.all([good.close(), faulty.close(), rm(dir, { recursive: true, force: true })]);
  });

  it('exits 0 on a conformant deployment, writes JUnit and JSON reports without any key value', async () => {
    const { io: cliIo, out, err } = captureIo();
    const junit = join(dir, 'conform.xml');
    const json = join(dir, 'conform.json');
    const code = await runConformCommand(
      ['--seed', '9', '--runs', '3', '--only', 'docs,auth,paging,status', '--junit', junit, '--json', json],
      cliIo,
      env(good.target.baseUrl),
    );
    expect(code, out.join('') + err.join('')).toBe(0);
    const xml = await readFile(junit, 'utf8');
    const report = JSON.parse(await readFile(json, 'utf8')) as {
      ok: boolean;
      seed: number;
      rules: unknown[];
    };
    expect(report).toMatchObject({ ok: true, seed: 9 });
    expect(xml).toContain('<testcase ');
    // Isolation checks need CCA_OTHER_ORG_READ_KEY: reported as not run, never as passed.
    expect(xml).toMatch(/ORG-DATA-SCOPED[^>]*>\s*<skipped message="[^"]*CCA_OTHER_ORG_READ_KEY/);
    for (const text of [xml, JSON.stringify(report), out.join(''), err.join('')]) {
      for (const key of Object.values(mockKeys())) expect(text).not.toContain(key);
    }
  });

  it('exits 1 naming the rule on a faulty one; --baseline then accepts the known failure', async () => {
    const baseline = join(dir, 'baseline.json');
    const args = ['--seed', '9', '--runs', '3', '--only', 'inputs.listActions-query'];
    const first = captureIo();
    expect(await runConformCommand(args, first.io, env(faulty.target.baseUrl))).toBe(1);
    expect(first.out.join('')).toMatch(/FAIL LIST-PAGESIZE-RANGE \(must, spec §4\.1\)/);
    expect(first.out.join('')).toContain('X-API-Key: $CCA_READ_KEY');
    const update = captureIo();
    expect(
      await runConformCommand(
        [...args, '--baseline', baseline, '--update-baseline'],
        update.io,
        env(faulty.target.baseUrl),
      ),
    ).toBe(0);
    const again = captureIo();
    expect(
      await runConformCommand(
        [...args, '--seed', '10', '--baseline', baseline],
        again.io,
        env(faulty.target.baseUrl),
      ),
    ).toBe(0);
    expect(again.out.join('')).toContain('KNOWN LIST-PAGESIZE-RANGE');
  });

  it('a new failure wins over NOT CHECKED: exit 1, verdict not-conformant, missing keys still named', async () => {
    const run = captureIo();
    const json = join(dir, 'failure-and-missing.json');
    const code = await runConformCommand(
      [
        '--seed',
        '9',
        '--runs',
        '3',
        '--only',
        'inputs.listActions-query,docs.no-reply-route',
        '--json',
        json,
      ],
      run.io,
      { CCA_BASE_URL: faulty.target.baseUrl, [KEY_ENV.read]: mockKeys().read },
    );
    expect(code, run.out.join('')).toBe(1);
    const report = JSON.parse(await readFile(json, 'utf8')) as { verdict: string; missingKeys: string[] };
    expect(report).toMatchObject({ verdict: 'not-conformant', missingKeys: ['CCA_WRITE_KEY'] });
    expect(run.out.join('')).toContain('RESULT: NOT conformant');
  });

  it('refuses to run without a base URL (usage error)', async () => {
    await expect(runConformCommand([], captureIo().io, {})).rejects.toThrow(/--base-url/);
  });
});

describe('cca-kit conform: a run that checked nothing is not a pass', () => {
  let good: RunningTarget;
  let foreign: Server;
  let foreignUrl: string;
  beforeAll(async () => {
    good = await startMockTarget({ seed: 42 });
    foreign = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        req.url === '/docs/json'
          ? JSON.stringify({
              openapi: '3.1.0',
              info: { title: 'pets', version: '1' },
              paths: { '/pets': {} },
            })
          : '{}',
      );
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await good.close();
    await new Promise((resolve) => foreign.close(resolve));
  });

  it('no keys at all: coverage leads the summary and the run ends NOT CHECKED with exit 3', async () => {
    const run = captureIo();
    const dir = await mkdtemp(join(tmpdir(), 'cca-not-checked-'));
    const junit = join(dir, 'conform.xml');
    const code = await runConformCommand(
      ['--seed', '3', '--runs', '2', '--only', 'docs,status', '--junit', junit],
      run.io,
      { CCA_BASE_URL: good.target.baseUrl },
    );
    const text = run.out.join('');
    expect(code, text).toBe(3);
    expect(text).toMatch(/^\s*Coverage: \d+ of \d+ rules checkable on a live target were checked/);
    expect(text).toMatch(/RESULT: NOT CHECKED .*CCA_READ_KEY/);
    expect(text).not.toContain('RESULT: conformant');
    // A CI that reads only the JUnit file sees it too: a failing run testcase and the verdict.
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(/<property name="verdict" value="not-checked"\/>/);
    expect(xml).toMatch(
      /name="required keys present"[^>]*>\s*<failure message="NOT CHECKED[^"]*CCA_READ_KEY/,
    );
    await rm(dir, { recursive: true, force: true });
  });

  it('--allow-not-run, or leaving out the laws that need the missing keys, turns NOT CHECKED into exit 0', async () => {
    const allowed = captureIo();
    const args = ['--seed', '3', '--runs', '2', '--only', 'docs,status'];
    expect(
      await runConformCommand([...args, '--allow-not-run'], allowed.io, {
        CCA_BASE_URL: good.target.baseUrl,
      }),
    ).toBe(0);
    expect(allowed.out.join('')).toContain('RESULT: conformant');
    const only = captureIo();
    expect(
      await runConformCommand(['--seed', '3', '--only', 'docs', '--skip', 'docs.no-reply-route'], only.io, {
        CCA_BASE_URL: good.target.baseUrl,
      }),
    ).toBe(0);
  });

  it('optional keys missing (other organization, expired, revoked) do not make a run NOT CHECKED', async () => {
    const run = captureIo();
    const code = await runConformCommand(
      ['--seed', '3', '--runs', '2', '--only', 'docs,auth,paging,status'],
      run.io,
      env(good.target.baseUrl),
    );
    expect(code, run.out.join('')).toBe(0);
    expect(run.out.join('')).toMatch(/not run .*CCA_OTHER_ORG_READ_KEY/);
  });

  it('an unreachable base URL stops before the laws with one line and exit 2', async () => {
    const run = captureIo();
    const code = await runConformCommand([], run.io, {
      ...env('http://127.0.0.1:9'),
      CCA_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(code).toBe(2);
    expect(run.err).toHaveLength(1);
    expect(run.err[0]).toMatch(/GET http:\/\/127\.0\.0\.1:9\/docs\/json: no answer \(ECONNREFUSED/);
    expect(run.out).toEqual([]);
  });

  it('a base URL whose /docs/json is an OpenAPI document of another API stops with exit 2', async () => {
    const run = captureIo();
    const code = await runConformCommand([], run.io, { CCA_BASE_URL: foreignUrl });
    expect(code).toBe(2);
    expect(run.err.join('')).toMatch(/OpenAPI document of another API/);
    const html = captureIo();
    expect(await runConformCommand([], html.io, { CCA_BASE_URL: `${good.target.baseUrl}/docs` })).toBe(2);
    expect(html.err.join('')).toMatch(/answered 404/);
  });

  it('--help documents the exit codes 0, 1, 2 and 3', async () => {
    const run = captureIo();
    expect(await runConformCommand(['--help'], run.io, {})).toBe(0);
    const text = run.out.join('');
    for (const line of [
      /^ {2}0 {2}conformant/m,
      /^ {2}1 {2}NOT conformant/m,
      /^ {2}2 {2}usage error/m,
      /^ {2}3 {2}NOT CHECKED/m,
    ])
      expect(text).toMatch(line);
  });
});

describe('cca-kit conform selectors', () => {
  it('refuses an --only that selects no law (usage error)', async () => {
    const { io: cliIo } = captureIo();
    await expect(
      runConformCommand(['--only', 'no-such-group'], cliIo, { CCA_BASE_URL: 'http://127.0.0.1:9' }),
    ).rejects.toThrow(/selects no law/);
  });
});
