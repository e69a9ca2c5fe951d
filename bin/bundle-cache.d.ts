/** Types of `bin/bundle-cache.js` (plain JavaScript: it runs before any TypeScript loader). */

/** A recorded input: path relative to the package root, size in bytes (-1: absent), mtimeMs. */
export type InputRecord = readonly [path: string, size: number, mtimeMs: number];

/** The package root, with a trailing separator. */
export const ROOT: string;

/** `$CCA_KIT_CACHE_DIR`, else `<root>/node_modules/.cache/cca-kit`. */
export function cacheDirectory(env?: NodeJS.ProcessEnv): string;

/** The bundled CLI's `main` (built first when missing or stale), or undefined to run through tsx. */
export function loadBundledMain(
  env?: NodeJS.ProcessEnv,
): Promise<((argv: readonly string[]) => Promise<number>) | undefined>;

/** The entry file of the current build if every recorded input is unchanged. */
export function freshEntry(cacheDir: string, root?: string): string | undefined;

/** The first input whose size or mtime differs from its record. */
export function changedInput(inputs: readonly InputRecord[], root?: string): string | undefined;

/** The current size and mtime of each input. */
export function recordInputs(paths: readonly string[], root?: string): InputRecord[];
