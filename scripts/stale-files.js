/**
 * Which files of dist/ no source produces any more. `tsc` and the asset copy only ever add to dist/, so
 * a module deleted or moved in the sources would leave its old compiled copy behind, and `npm pack`
 * would ship it. scripts/build.js deletes what this returns after each build.
 *
 * A dist file is live when the source tree has the same path (JSON and assets, the skills' own .js
 * scripts included), when it was compiled from a `.ts` of the same stem (`x.js`, `x.d.ts` and their
 * `.map`s from `x.ts`), or when the build itself generated it (`generated`: paths, and folders written
 * with a trailing `/`, such as the CLI bundle's `cli/`).
 *
 * @param {readonly string[]} distFiles paths relative to dist/, with `/` separators
 * @param {(path: string) => boolean} sourceExists whether a path relative to the repository root exists
 * @param {ReadonlySet<string>} generated dist-relative paths (and `folder/`s) the build writes itself
 * @returns {string[]} the stale paths, in the order given
 */
export function staleFiles(distFiles, sourceExists, generated) {
  const folders = [...generated].filter((entry) => entry.endsWith('/'));
  return distFiles.filter((path) => {
    if (generated.has(path) || folders.some((folder) => path.startsWith(folder)) || sourceExists(path))
      return false;
    const compiled = /^(.*)\.(?:js|d\.ts)(?:\.map)?$/.exec(path);
    return compiled === null || !sourceExists(`${compiled[1]}.ts`);
  });
}
