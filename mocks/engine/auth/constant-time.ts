/**
 * Compares two strings in time that depends only on their lengths, not on where they first differ,
 * so a key or token cannot be guessed character by character from response times. No node:crypto:
 * the engine runs in browsers too.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) {
    diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  }
  return diff === 0;
}
