/** The page's one live region: what an action did, or why it failed (read out by screen readers). */
import { ApiError } from './api.ts';
import { byId } from './dom.ts';

export function say(message: string, kind: 'ok' | 'error' = 'ok'): void {
  const region = byId('status');
  region.textContent = message;
  region.dataset['kind'] = kind;
}

/** Why something failed, never an empty string (a network error or a bare status has no message). */
export function reasonOf(error: unknown): string {
  if (error instanceof ApiError) return error.message.trim() || `the mock answered ${error.status}`;
  if (error instanceof Error) return error.message.trim() || error.name;
  return String(error).trim() || 'no reason given';
}

/** Runs an action of the page; its failure is shown, never thrown. */
export async function attempt(what: string, action: () => Promise<string | undefined>): Promise<void> {
  try {
    const done = await action();
    if (done !== undefined) say(done);
  } catch (error) {
    say(`${what} failed: ${reasonOf(error)}`, 'error');
  }
}
