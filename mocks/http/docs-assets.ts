/**
 * Swagger UI's static files for `/docs`, read from the installed `swagger-ui-dist` package. This is the
 * only part of the mock that reads files, so it lives in the node adapter; the engine answers the
 * `/docs` page itself and points it at `/docs/<asset>`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The files the page needs, with their content types. Nothing else under /docs/ is served from disk. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

export interface DocsAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

export type DocsAssets = (pathname: string) => Promise<DocsAsset | undefined>;

/**
 * A loader with an in-memory cache (the bundle is ~1.7 MB; read it once). The package is located at the
 * first asset request, not at start-up: most sessions never open /docs, and start-up is measured.
 */
export function createDocsAssets(): DocsAssets {
  let folder: string | undefined;
  const cache = new Map<string, Promise<DocsAsset>>();
  return async (pathname) => {
    if (!pathname.startsWith('/docs/')) return undefined;
    const name = pathname.slice('/docs/'.length);
    const contentType = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
    if (contentType === undefined) return undefined;
    let asset = cache.get(name);
    if (asset === undefined) {
      folder ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
      asset = readFile(join(folder, name)).then((body) => ({ body, contentType }));
      cache.set(name, asset);
    }
    return asset;
  };
}
