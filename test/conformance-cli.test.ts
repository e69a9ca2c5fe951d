import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformCommand } from '../src/cli/conform.ts';
import type { CliIo } from '../src/cli/io.ts';
import { KEY_ENV } from '../src/client/types.ts';
import { MUTANTS } from '../suites/mutations/faults.ts';
import { withHook } from '../suites/mutations/hook.ts';
import { mockKeys, type RunningTarget, startMockTarget } from '../suites/target.ts';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    signal: new AbortController().signal,
  };
  return { io: value, out, err };
}

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
    const { io: cliIo, out, err } = io();
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
    const first = io();
    expect(await runConformCommand(args, first.io, env(faulty.target.baseUrl))).toBe(1);
    expect(first.out.join('')).toMatch(/FAIL LIST-PAGESIZE-RANGE \(spec §4\.1\)/);
    expect(first.out.join('')).toContain('X-API-Key: $CCA_READ_KEY');
    const update = io();
    expect(
      await runConformCommand(
        [...args, '--baseline', baseline, '--update-baseline'],
        update.io,
        env(faulty.target.baseUrl),
      ),
    ).toBe(0);
    const again = io();
    expect(
      await runConformCommand(
        [...args, '--seed', '10', '--baseline', baseline],
        again.io,
        env(faulty.target.baseUrl),
      ),
    ).toBe(0);
    expect(again.out.join('')).toContain('KNOWN LIST-PAGESIZE-RANGE');
  });

  it('refuses to run without a base URL (usage error)', async () => {
    await expect(runConformCommand([], io().io, {})).rejects.toThrow(/--base-url/);
  });
});

describe('cca-kit conform selectors', () => {
  it('refuses an --only that selects no law (usage error)', async () => {
    const { io: cliIo } = io();
    await expect(
      runConformCommand(['--only', 'no-such-group'], cliIo, { CCA_BASE_URL: 'http://127.0.0.1:9' }),
    ).rejects.toThrow(/selects no law/);
  });
});
