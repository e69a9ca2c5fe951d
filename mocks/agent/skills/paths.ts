/**
 * Why a requested skill file path is refused before it is even looked up: each unsafe form gets its
 * own message, so a client learns what it did wrong. Only the exact relative paths a playbook lists
 * are ever served (library.ts); these checks make the refusals explicit.
 */

export function unsafePathReason(path: string): string | undefined {
  if (path === '') return 'is empty';
  if (path.startsWith('/') || path.startsWith('~') || /^[A-Za-z]:/.test(path))
    return 'is absolute (give the path as the playbook lists it, e.g. scripts/export-page.js)';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.includes('%')) return 'is percent-encoded (give the path as the playbook lists it)';
  // Control characters (NUL included) never belong in a listed path.
  if ([...path].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    return 'contains a control character';
  if (path.split('/').some((segment) => segment === '..' || segment === '.' || segment === ''))
    return 'contains a "..", "." or empty segment (no traversal)';
  return undefined;
}
