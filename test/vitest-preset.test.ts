/**
 * `cca-kit/vitest` in a consumer's own vitest run: a fresh project whose node_modules holds the built
 * package (dist/ and package.json, as an install lays it out) and this repository's dependencies, and the
 * consumer files of test/package/vitest-preset/ (a setup file calling `setupMock({ resetEachTest: true })`
 * and four tests). The nested run must name exactly the test that sent `page=2` as failed, with
 * LIST-NO-PAGE-INPUT and the line that sent it, pass the others, and start each test from a reset mock.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectPresetRun, PRESET_FIXTURE, presetRunArgs, reportIn } from './package/vitest-preset.ts';
import { scaled } from './support/timeouts.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let project = '';

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'cca-vitest-preset-'));
  const modules = join(project, 'node_modules');
  mkdirSync(modules);
  // The package as installed: its own folder with package.json and dist/ (so node, not vite, loads it,
  // as from a registry); its dependencies and vitest itself this repository's.
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === '.bin' || name === 'cca-kit' || name.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  cpSync(join(ROOT, 'dist'), join(modules, 'cca-kit/dist'), {
    recursive: true,
    filter: (source) => !source.includes(`${join(ROOT, 'dist/cli')}`),
  });
  cpSync(join(ROOT, 'package.json'), join(modules, 'cca-kit/package.json'));
  cpSync(fileURLToPath(PRESET_FIXTURE), project, { recursive: true });
});

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

describe('cca-kit/vitest in a nested vitest run', () => {
  it(
    'LIST-NO-PAGE-INPUT: fails exactly the test that sent page=2, by name, at its line; the others pass on a reset mock',
    () => {
      const report = reportIn(project);
      const run = spawnSync(
        process.execPath,
        presetRunArgs(join(ROOT, 'node_modules/vitest/vitest.mjs'), project, report),
        {
          cwd: project,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
          timeout: scaled(50_000),
        },
      );
      expectPresetRun(run.status, `${run.stdout}\n${run.stderr}`, report);
    },
    scaled(60_000),
  );
});
