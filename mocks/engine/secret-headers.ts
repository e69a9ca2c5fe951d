/**
 * Header values the mock never stores or shows (the violation log, the journal): keys, the admin
 * token, credentials and cookies. One list, so what one observer hides the other hides too.
 */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'x-api-key',
  'authorization',
  'proxy-authorization',
  'x-mock-admin-token',
  'cookie',
  'set-cookie',
]);
