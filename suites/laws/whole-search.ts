/**
 * Every action of the organization, read from the conversation search whole: every page, no filter
 * (spec 4.13), deduplicated on actionId. Laws that check a figure against the records it counts start
 * here, so they presume nothing of which records a deployment holds. Read once per run.
 */
import { runExamples } from '../../src/conformance/kit/check.ts';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import type { CheckOutcome } from '../../src/conformance/kit/outcome.ts';
import { readAnalytics } from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';

const PAGE = 100;
const MAX_PAGES = 50;
/** Actions read at most: a larger organization is not judged by the laws that need them all. */
export const WHOLE_SEARCH_LIMIT = PAGE * MAX_PAGES;

/** A window holding every date an action can carry, whichever date a deployment windows by. */
export const EVERY_DATE = { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' } as const;

export interface SearchedAction {
  readonly platform: string | undefined;
  readonly createdAt: number | undefined;
  readonly queue: string | undefined;
  /** The values of its tags. */
  readonly tags: readonly string[];
  /** The stored sentimentScore, null when the action has none. */
  readonly score: number | null;
  /** The sentiment label, null when the action has none. */
  readonly sentiment: string | null;
}

function searched(item: Record<string, unknown>): SearchedAction {
  const score = item['sentimentScore'];
  const created = Date.parse(str(item['createdAt']) ?? '');
  return {
    platform: str(item['platform']),
    createdAt: Number.isNaN(created) ? undefined : created,
    queue: str(item['queue']),
    tags: arr(item['tags']).flatMap((t) => str(obj(t)['value']) ?? []),
    score: typeof score === 'number' ? score : null,
    sentiment: str(item['sentiment']) ?? null,
  };
}

/**
 * Every action through the search, or undefined when it cannot be read whole: more than the limit,
 * or an exact count that does not match the items read (records arriving meanwhile).
 */
export function everyAction(ctx: LawContext): Promise<readonly SearchedAction[] | undefined> {
  return ctx.memo('whole-search:actions', async () => {
    const items: SearchedAction[] = [];
    const seen = new Set<string>();
    // A capped count (spec 4.13) is not exact, and a deployment may serve only the matches up to its
    // cap: pages that end at the capped count hold some actions, not all. Pages that go on past it
    // were not cut at the cap, and are read to their end.
    let capped = false;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const body = await readAnalytics(ctx, 'searchConversations', { page, pageSize: PAGE });
      if (body['totalRecordsCapped'] === true) capped = true;
      const data = arr(body['data']).map(obj);
      for (const item of data) {
        const id = str(item['actionId']);
        if (id === undefined || seen.has(id)) continue;
        seen.add(id);
        items.push(searched(item));
      }
      const total = num(body['totalRecords']);
      if (data.length < PAGE) {
        const whole = capped
          ? total !== undefined && seen.size > total
          : total === undefined || total === seen.size;
        return whole ? items : undefined;
      }
    }
    return undefined;
  });
}

/**
 * Runs a law's checks on every action: `body` gives the number of checks made, or why it could make
 * none (then the law is not run, never passed with nothing checked).
 */
export async function withWholeSearch(
  ctx: LawContext,
  ruleIds: readonly string[],
  body: (actions: readonly SearchedAction[]) => Promise<number | string>,
): Promise<CheckOutcome> {
  let reason: string | undefined;
  const outcome = await runExamples(ctx, async () => {
    const actions = await everyAction(ctx);
    const result =
      actions === undefined
        ? `the conversation search could not be read whole (more than ${WHOLE_SEARCH_LIMIT} actions, or a count that changed while read)`
        : await body(actions);
    if (typeof result === 'number') return result;
    reason = result;
    return 0;
  });
  return outcome.kind === 'passed' && reason !== undefined ? { kind: 'not-run', ruleIds, reason } : outcome;
}
