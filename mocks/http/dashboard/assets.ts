/**
 * The dashboard's static files: the HTML shell and the style sheet are copied to dist/ by the build
 * (scripts/build.js copies every non-TypeScript file of mocks/), the script modules are `page/*.ts`
 * compiled by the build's tsc like the rest of the package. Run from source (tests, `tsx`), a module
 * is transpiled from its .ts on first request with the TypeScript compiler (a development
 * dependency, never needed by an installed package, whose dist/ has the .js).
 */
import { readdir, readFile } from 'node:fs/promises';

const PAGE = new URL('./page/', import.meta.url);

export interface DashboardAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};

/** A file name of the page folder: lower-case letters, digits and dashes, one known extension. */
const NAME = /^[a-z][a-z0-9-]*\.(?:html|css|js|svg)$/;

async function exists(name: string): Promise<boolean> {
  try {
    const names = await readdir(PAGE);
    return names.includes(name);
  } catch {
    return false;
  }
}

async function transpiled(name: string): Promise<Buffer> {
  const source = await readFile(new URL(name.replace(/\.js$/, '.ts'), PAGE), 'utf8');
  const { default: ts } = await import('typescript');
  const out = ts.transpileModule(source, {
    fileName: name.replace(/\.js$/, '.ts'),
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ES2022,
      rewriteRelativeImportExtensions: true,
      verbatimModuleSyntax: true,
    },
  });
  return Buffer.from(out.outputText);
}

async function load(name: string): Promise<DashboardAsset | undefined> {
  const extension = name.slice(name.lastIndexOf('.') + 1);
  const contentType = TYPES[extension];
  if (contentType === undefined) return undefined;
  if (await exists(name)) return { body: await readFile(new URL(name, PAGE)), contentType };
  if (extension === 'js' && (await exists(name.replace(/\.js$/, '.ts'))))
    return { body: await transpiled(name), contentType };
  return undefined;
}

export type DashboardAssets = (name: string) => Promise<DashboardAsset | undefined>;

/** A loader with an in-memory cache; unknown names are undefined (answered 404), never read. */
export function createDashboardAssets(): DashboardAssets {
  const cache = new Map<string, Promise<DashboardAsset | undefined>>();
  return (name) => {
    if (!NAME.test(name)) return Promise.resolve(undefined);
    let asset = cache.get(name);
    if (asset === undefined) {
      asset = load(name);
      cache.set(name, asset);
      // Only files that exist stay cached: made-up names cannot grow the cache.
      void asset.then((found) => {
        if (found === undefined) cache.delete(name);
      });
    }
    return asset;
  };
}
