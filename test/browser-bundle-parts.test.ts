/**
 * What a page's bundle of `cca-kit/msw` carries: the built package bundled by esbuild
 * for the browser, as a user's bundler would (the package's `browser` field and export condition). The
 * service alone leaves out every feature's modules; `use: [feature]` brings in that feature's modules
 * and no other's. Sizes are measured in bench/ (`npm run bench -- --only package`), not asserted here;
 * this test keeps the features out of a page that does not ask for them.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage } from '../bench/lib/page-bundle.ts';
import { ROOT } from './package/install.ts';

/** Modules of dist/ that only a feature needs, by feature. */
const FEATURE_MODULES = {
  violationLog: ['mocks/engine/violations/log.js', 'mocks/engine/violations/rule-index.generated.js'],
  chaos: ['mocks/engine/chaos/chaos.js'],
  adminRoutes: ['mocks/engine/admin/part.js', 'mocks/engine/admin/engine-routes.js'],
  dataFiles: [
    'mocks/engine/data-file/validate.js',
    'mocks/engine/data-file/export.js',
    'contract/data.schema.json',
  ],
  choices: ['mocks/engine/choices/result.js', 'src/contract/choice-points.js'],
} as const;

/** Modules only the agent interface needs: never in a page. */
const AGENT_MODULES = ['mocks/engine/commands/replies.js', 'mocks/engine/commands/saved-searches.js'];

let project = '';

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'cca-kit-bundle-parts-'));
  await mkdir(join(project, 'node_modules'));
  await symlink(ROOT, join(project, 'node_modules/cca-kit'));
  await symlink(join(ROOT, 'node_modules/msw'), join(project, 'node_modules/msw'));
});

afterAll(async () => {
  if (project !== '') await rm(project, { recursive: true, force: true });
});

/** The dist/ modules (paths relative to dist/) of a page that creates the handlers with `use`. */
async function bundledModules(features: readonly string[]): Promise<Set<string>> {
  const page = join(project, `page-${features.join('-') || 'none'}.js`);
  const imports =
    features.length === 0 ? '' : `import { ${features.join(', ')} } from 'cca-kit/msw/features';\n`;
  await writeFile(
    page,
    `import { createHandlers } from 'cca-kit/msw';\n${imports}import { setupWorker } from 'msw/browser';\n` +
      `await setupWorker(...createHandlers({ baseUrl: '/api', use: [${features.join(', ')}] }).handlers).start();\n`,
  );
  const result = await bundlePage(page, project);
  // What the output holds: a module esbuild read but shook out entirely has no bytes in it.
  const modules = new Set<string>();
  const inOutput = Object.values(result.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : [])),
  );
  for (const input of inOutput) {
    const at = input.lastIndexOf('/dist/');
    if (at >= 0 && !input.includes('node_modules/msw')) modules.add(input.slice(at + '/dist/'.length));
  }
  return modules;
}

describe('a page bundle of cca-kit/msw', () => {
  it('with no feature carries the service and none of the features or the agent writes', async () => {
    const modules = await bundledModules([]);
    expect(modules.has('mocks/msw/index.browser.js')).toBe(true);
    expect(modules.has('mocks/msw/index.js')).toBe(false);
    expect(modules.has('mocks/engine/core.js')).toBe(true);
    expect(modules.has('mocks/engine/handlers/listActions.js')).toBe(true);
    for (const module of [...Object.values(FEATURE_MODULES).flat(), ...AGENT_MODULES])
      expect(modules.has(module), module).toBe(false);
  });

  it.each(Object.keys(FEATURE_MODULES))('with %s carries its modules and no other feature', async (name) => {
    const modules = await bundledModules([name]);
    for (const [feature, owned] of Object.entries(FEATURE_MODULES)) {
      for (const module of owned) expect(modules.has(module), `${name}: ${module}`).toBe(feature === name);
    }
    for (const module of AGENT_MODULES) expect(modules.has(module), module).toBe(false);
  });
});
