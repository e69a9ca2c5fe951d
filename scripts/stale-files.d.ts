/** Types of scripts/stale-files.js (plain JavaScript so that the build runs with nothing but node). */
export function staleFiles(
  distFiles: readonly string[],
  sourceExists: (path: string) => boolean,
  generated: ReadonlySet<string>,
): string[];
