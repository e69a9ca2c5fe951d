/**
 * Assumptions proven from the target's own answers. A law that needs an id the target does not
 * have asks here first: an id is "unknown" only when the target's own list and search do not
 * show it, and a law picks another case when the assumption does not hold (a deployment whose ids
 * happen to look like our generated ones is not thereby wrong).
 */
import type { LawContext } from '../../src/conformance/kit/law.ts';
import { historyWindow, sampleAgentIds } from './discover.ts';
import { arr, call, obj, str } from './support.ts';

export interface KnownIds {
  readonly actions: ReadonlySet<string>;
  readonly agents: ReadonlySet<string>;
}

/**
 * The ids the read key's own answers show: the action list over the history window (500), the
 * first search page (100) and the agent list. Fetched once per run. Answers that are not 200 add
 * nothing (the laws that own those routes charge them).
 */
export function knownIds(ctx: LawContext): Promise<KnownIds> {
  return ctx.memo('assume:known-ids', async () => {
    const actions = new Set<string>();
    const list = await call(ctx, 'listActions', {
      auth: 'read',
      query: { ...historyWindow(ctx), pageSize: 500 },
    });
    const search = await call(ctx, 'searchConversations', { auth: 'read', query: { pageSize: 100 } });
    for (const res of [list, search]) {
      if (res.kind === 'network' || res.status !== 200) continue;
      for (const item of arr(obj(res.ok ? res.body : undefined)['data'])) {
        const id = str(obj(item)['actionId']);
        if (id !== undefined) actions.add(id);
      }
    }
    const agents = new Set(await sampleAgentIds(ctx).catch(() => [] as readonly string[]));
    return { actions, agents };
  });
}

/** Which known set an operation's path id is checked against (none: the id space is not listable). */
const ID_SPACE: Readonly<Record<string, keyof KnownIds>> = {
  getAction: 'actions',
  getCustomFields: 'actions',
  getAgent: 'agents',
};

/**
 * True when `id` is proven unknown for `operationId` as far as the target's answers show: it is in
 * none of the target's own listings of that id space. No route lists moderation case ids, so for
 * them nothing can be proven beyond that: the answer is true.
 */
export async function provenUnknown(ctx: LawContext, operationId: string, id: string): Promise<boolean> {
  const space = ID_SPACE[operationId];
  if (space === undefined) return true;
  const known = await knownIds(ctx);
  return !known[space].has(id);
}
