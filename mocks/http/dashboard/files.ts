/**
 * The dashboard as static files, for a page whose mock runs in the browser (MSW's `setupWorker`): no
 * mock server serves the page there, so its files are written into the folder the app's dev server
 * serves (`public/`, as `msw init` writes the worker there). `<dir>/__mock/index.html` is the page,
 * `<dir>/__mock/dashboard/` its script modules, style sheet and icon, at the paths the page names.
 */
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { createDashboardAssets } from './assets.ts';

const PAGE = new URL('./page/', import.meta.url);

/** The names the page is served under: its .js modules (from .ts when run from source) and its files. */
async function assetNames(): Promise<string[]> {
  const names = new Set<string>();
  for (const file of await readdir(PAGE)) {
    if (file.endsWith('.d.ts') || file.endsWith('.test.ts')) continue;
    names.add(file.endsWith('.ts') ? `${file.slice(0, -3)}.js` : file);
  }
  return [...names].sort();
}

/**
 * Creates `dir` and its missing parents one level at a time. Node's `mkdir(…, { recursive: true })`
 * never settles where the kernel answers ENOENT for a folder it cannot create (under /proc, say), so
 * each level is made on its own and the first refusal is reported with the folder it names.
 */
async function makeFolder(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let path = resolve(dir); ; path = dirname(path)) {
    const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new Error(`cannot use ${path} as a folder: ${error.message}`);
    });
    if (found !== undefined) {
      if (!found.isDirectory()) throw new Error(`cannot use ${path} as a folder: it is a file`);
      break;
    }
    missing.unshift(path);
    if (dirname(path) === path) break;
  }
  for (const path of missing) {
    await mkdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw new Error(`cannot create the folder ${path}: ${error.message}`);
    });
  }
}

/**
 * Writes the dashboard's files under `<dir>/__mock/` and returns the paths written.
 *
 * @example
 * await writeDashboardFiles('public'); // then open the app, which frames /__mock/index.html
 */
export async function writeDashboardFiles(dir: string): Promise<string[]> {
  const assets = createDashboardAssets();
  const root = join(dir, '__mock');
  await makeFolder(join(root, 'dashboard'));
  const written: string[] = [];
  for (const name of await assetNames()) {
    const asset = await assets(name);
    if (asset === undefined) continue;
    const path = name === 'index.html' ? join(root, name) : join(root, 'dashboard', name);
    await writeFile(path, asset.body).catch((error: Error) => {
      throw new Error(`cannot write ${path}: ${error.message}`);
    });
    written.push(path);
  }
  return written;
}
