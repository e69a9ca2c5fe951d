/**
 * Long URLs in console text: a 10 000-character `fullFilter` would otherwise fill the terminal in
 * the counterexample and again in the curl line. The JSON report and its repro keep them whole.
 */

/** URLs longer than this are shortened in console output. */
export const MAX_CONSOLE_URL = 200;

/**
 * Shortens every http(s) URL longer than `max` characters to its start and end, noting how long it
 * was and where to find it whole.
 *
 * @example
 * ```ts
 * shortenUrls(`GET http://h/v0/action/list?fullFilter=${'a'.repeat(10_000)}`);
 * // 'GET http://h/v0/action/list?fullFilter=aaa...aaa [URL of 10039 characters shortened; whole in --json]'
 * ```
 */
export function shortenUrls(text: string, max = MAX_CONSOLE_URL): string {
  return text.replace(/https?:\/\/[^\s'"<>]+/g, (url) =>
    url.length <= max
      ? url
      : `${url.slice(0, max - 40)}...${url.slice(-20)} [URL of ${url.length} characters shortened; whole in --json]`,
  );
}
