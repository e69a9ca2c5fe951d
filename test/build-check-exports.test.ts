/**
 * scripts/check-exports.js, which the build runs on the staged dist/ before swapping it in and `prepack`
 * runs before packing: a package whose `exports` or `bin` name a missing, empty or export-less module
 * (what a build interrupted or running concurrently would leave) is refused, entry by entry. And the
 * lean package the build cut (dist-packages/core) passes it, as cca-kit's own dist/ does.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkExports } from '../scripts/check-exports.js';
import { LEAN_CORE } from './package/install.ts';
import { ROOT } from './support/processes.ts';

let dir: string | undefined;

afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function packageWith(files: Readonly<Record<string, string>>, manifest: object): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'cca-kit-check-exports-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'x', type: 'module', ...manifest }));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('check-exports', () => {
  it('passes a package whose every entry is a non-empty module with exports, and its JSON and types', async () => {
    const folder = await packageWith(
      { 'a.js': 'export const a = 1;\n', 'a.d.ts': 'export declare const a: 1;\n', 'd.json': '{"v":1}' },
      { exports: { '.': { types: './a.d.ts', default: './a.js' }, './d.json': './d.json' } },
    );
    expect(await checkExports(folder)).toEqual([]);
  });

  it('names each broken entry: missing, empty, exporting nothing, failing to load, bad JSON, a missing bin', async () => {
    const folder = await packageWith(
      {
        'empty.js': '',
        'nothing.js': 'const local = 1;\n',
        'throws.js': "throw new Error('half written');\n",
        'bad.json': '{"v":',
        'ok.js': 'export const ok = true;\n',
      },
      {
        exports: {
          './missing': { types: './missing.d.ts', default: './missing.js' },
          './empty': './empty.js',
          './nothing': './nothing.js',
          './throws': './throws.js',
          './bad.json': './bad.json',
          './ok': './ok.js',
        },
        bin: { x: './bin.js' },
      },
    );
    const problems = await checkExports(folder);
    expect(problems).toEqual([
      'exports["./missing"].types: ./missing.d.ts does not exist',
      'exports["./missing"].default: ./missing.js does not exist',
      'exports["./empty"]: ./empty.js is empty',
      expect.stringMatching(/^exports\["\.\/bad\.json"\]: \.\/bad\.json is not JSON/),
      'bin x: ./bin.js does not exist',
      'exports["./nothing"]: the module exports nothing',
      'exports["./throws"]: does not load: half written',
    ]);
  });

  it('reads ./dist/ from a staging folder when told (the build checks before it swaps)', async () => {
    const folder = await packageWith({}, { exports: { '.': './dist/a.js' } });
    expect(await checkExports(folder)).toEqual(['exports["."]: ./dist/a.js does not exist']);
    await writeFile(join(folder, 'a.js'), 'export const a = 1;\n');
    expect(await checkExports(folder, folder)).toEqual([]);
  });

  it('passes the built cca-kit and @cca-kit/core (run after npm run build)', async () => {
    expect(await checkExports(ROOT)).toEqual([]);
    expect(await checkExports(LEAN_CORE)).toEqual([]);
  });
});
