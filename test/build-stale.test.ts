/**
 * The build deletes from dist/ what no source produces any more (scripts/stale-files.js), so a module
 * deleted or moved in the sources is never packed from a developer's dist/.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleFiles } from '../scripts/stale-files.js';
import { ROOT } from './support/processes.ts';

describe('stale files of dist/', () => {
  it('are the compiled copies and assets with no source left, never generated files or copied scripts', () => {
    const sources = new Set(['src/a.ts', 'mocks/agent/skills/s/run.js', 'contract/openapi.json']);
    const dist = [
      'src/a.js',
      'src/a.d.ts',
      'src/a.js.map',
      'src/a.d.ts.map',
      'src/gone.js',
      'src/gone.d.ts.map',
      'mocks/agent/skills/s/run.js',
      'mocks/agent/skills/s/old.md',
      'contract/openapi.json',
      'contract/openapi.browser.json',
    ];
    expect(staleFiles(dist, (path) => sources.has(path), new Set(['contract/openapi.browser.json']))).toEqual(
      ['src/gone.js', 'src/gone.d.ts.map', 'mocks/agent/skills/s/old.md'],
    );
  });

  it('are none after the build npm test ran', () => {
    const dist = join(ROOT, 'dist');
    const files = readdirSync(dist, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(dist, join(entry.parentPath, entry.name)).split(sep).join('/'));
    const generated = new Set([
      'src/contract/precompiled.browser.js',
      'src/contract/load.browser.js',
      'mocks/msw/http.browser.js',
      'contract/openapi.browser.json',
      'cli/',
    ]);
    expect(files.length).toBeGreaterThan(100);
    expect(staleFiles(files, (path) => existsSync(join(ROOT, path)), generated)).toEqual([]);
  });
});
