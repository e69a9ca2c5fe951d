/**
 * What installing the package runs and says, without packing it: no lifecycle script that npm runs on a
 * user's install (npm warns about each, `prepare` included), in cca-kit's manifest or the lean one the
 * build writes; and the built MSW entry, where no msw can be found, names the package by the name in
 * its own package.json (however it was installed: a renamed, linked or scoped copy), not as cca-kit.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scaled } from './support/timeouts.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The scripts npm runs when the packed package is installed, or installed from a folder or git. */
const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'];

function installHooksOf(manifestPath: string): string[] {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { scripts?: Record<string, string> };
  return INSTALL_HOOKS.filter((hook) => manifest.scripts?.[hook] !== undefined);
}

describe('the package on install', () => {
  it('runs no script: neither cca-kit nor the lean @cca-kit/core has an install or prepare hook', () => {
    expect(installHooksOf(join(ROOT, 'package.json'))).toEqual([]);
    const lean = join(ROOT, 'dist-packages/core/package.json');
    expect(existsSync(lean), 'run npm run build first').toBe(true);
    expect(installHooksOf(lean)).toEqual([]);
  });

  it('the MSW entry without msw names the package from its own package.json', () => {
    const built = join(ROOT, 'dist/mocks/msw/http.js');
    expect(existsSync(built), 'run npm run build first').toBe(true);
    // Outside any node_modules and outside this repository: msw is found nowhere, and the folder's
    // name says nothing of the package's.
    const home = mkdtempSync(join(tmpdir(), 'cca-hygiene-'));
    try {
      const pkg = join(home, 'vendored-copy');
      mkdirSync(join(pkg, 'dist/mocks/msw'), { recursive: true });
      cpSync(built, join(pkg, 'dist/mocks/msw/http.js'));
      writeFileSync(
        join(pkg, 'package.json'),
        JSON.stringify({
          name: '@acme/cca-core',
          type: 'module',
          exports: { './msw': './dist/mocks/msw/index.js' },
        }),
      );
      const run = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "await import('./dist/mocks/msw/http.js').catch((e) => console.log(e.message));",
        ],
        { cwd: pkg, encoding: 'utf8', timeout: scaled(30_000) },
      );
      expect(run.stdout.trim(), run.stderr).toBe(
        "@acme/cca-core/msw needs msw 2 or 3, your project's own: npm install --save-dev msw",
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
