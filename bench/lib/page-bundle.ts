/**
 * A page bundled as a user's bundler would for production: esbuild, browser platform (the package's
 * `browser` field and export condition), ESM, minified, in memory with its metafile. The package
 * benchmark measures it; test/browser-bundle-parts.test.ts reads which modules it holds.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

export function bundlePage(entry: string, project: string) {
  return build({
    entryPoints: [entry],
    absWorkingDir: project,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    outfile: join(project, 'out.js'),
    logLevel: 'silent',
  });
}
