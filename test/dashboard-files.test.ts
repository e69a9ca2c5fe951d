/**
 * `cca-kit dashboard --out <dir>` (and `writeDashboardFiles`): the page and every file it names land
 * under `<dir>/__mock/`, at the paths the page loads them from; no --out is a usage error.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../src/cli/io.ts';
import { main } from '../src/cli/main.ts';

function capture(): { io: CliIo; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    signal: new AbortController().signal,
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('cca-kit dashboard', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('writes the page and every file it loads under <dir>/__mock/', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cca-kit-dashboard-files-'));
    const cli = capture();
    expect(await main(['dashboard', '--out', join(dir, 'public')], cli.io), cli.err()).toBe(0);
    expect(cli.out()).toMatch(/files written under .*__mock/);
    const root = join(dir, 'public/__mock');
    const html = await readFile(join(root, 'index.html'), 'utf8');
    const files = await readdir(join(root, 'dashboard'));
    // Every file the page names under /__mock/dashboard/ is there, and every module the entry imports.
    const named = [...html.matchAll(/"\/__mock\/dashboard\/([^"]+)"/g)].map((m) => m[1]);
    expect(named).toEqual(expect.arrayContaining(['app.js', 'dashboard.css', 'favicon.svg']));
    for (const name of named) expect(files).toContain(name);
    for (const file of files.filter((f) => f.endsWith('.js'))) {
      const source = await readFile(join(root, 'dashboard', file), 'utf8');
      expect(source).not.toMatch(/^\s*import\s+type\b/m);
      for (const [, imported] of source.matchAll(/from '\.\/([^']+)'/g)) expect(files).toContain(imported);
    }
    expect(files.some((f) => f.endsWith('.ts'))).toBe(false);
  });

  it('a folder that cannot be made or is a file: exit 2 naming it, promptly (no endless retry)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'cca-kit-dashboard-files-'));
    const file = join(dir, 'a-file');
    await writeFile(file, 'x');
    for (const out of ['/proc/cca-kit-nope', file, join(file, 'under')]) {
      const cli = capture();
      // Node's recursive mkdir never settles under /proc: a bounded wait turns that into a failure.
      const code = await Promise.race([
        main(['dashboard', '--out', out], cli.io),
        new Promise((settle) => setTimeout(() => settle('still running after 10 s'), 10_000).unref()),
      ]);
      expect(code, out).toBe(2);
      expect(cli.err()).toContain(`--out ${out}: cannot`);
    }
  });

  it('without --out: a usage error (exit 2)', async () => {
    const cli = capture();
    expect(await main(['dashboard'], cli.io)).toBe(2);
    expect(cli.err()).toMatch(/--out is required/);
  });
});
