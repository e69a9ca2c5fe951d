/**
 * The check after writing: no key value and no scrubbed original may appear in the file, neither as
 * it is nor as JSON escapes it. Values are matched as whole tokens (not inside a longer run of
 * letters and digits), like the scrubber replaces them.
 */

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How many of `secrets` (as whole tokens) and of `keys` (anywhere) occur in `text`, each counted once. */
export function findLeaks(text: string, secrets: readonly string[], keys: readonly string[] = []): number {
  let leaks = 0;
  for (const key of new Set(keys)) {
    if (text.includes(key) || text.includes(JSON.stringify(key).slice(1, -1))) leaks += 1;
  }
  for (const secret of new Set(secrets)) {
    const forms = new Set([secret, JSON.stringify(secret).slice(1, -1)]);
    for (const form of forms) {
      const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(form)}(?![\\p{L}\\p{N}])`, 'u');
      if (pattern.test(text)) {
        leaks += 1;
        break;
      }
    }
  }
  return leaks;
}
