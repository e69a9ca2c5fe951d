/**
 * The `queue` term of the search filter keeps the items it names (4.13: terms key=value joined with
 * `+`, all of which must hold; 4.1 names queue a key the full DSL filters by). For an OPEN item whose
 * queue label is Q, `status=OPEN+queue=Q` or `status=OPEN+queue=<the queueId GET /v0/queues gives Q>`
 * returns that item: the grammar is not shown, so either spelling may be the one the deployment reads,
 * and a spelling refused with 400 or ignored (the status=OPEN answer exactly) is no answer. Only a
 * term applied in both spellings that leaves out the item (its whole answer read) is judged; a queue the
 * queue list gives no id for is not tried.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { historyWindow } from './discover.ts';
import { arr, call, expectConforming, num, obj, str } from './support.ts';

const RULE = 'SEARCH-FILTER-QUEUE-TERM-KEEPS';
const PAGE = 100;
const MAX_PAGES = 3;
/** Queue labels tried: the most frequent among the OPEN items. */
const QUEUES = 2;

interface Answer {
  readonly ids: readonly string[];
  /** Every matching item was read (uncapped count, all pages). */
  readonly whole: boolean;
  readonly items: readonly Record<string, unknown>[];
}

/** Up to three pages of a filtered search; undefined when the filter is refused with 400. */
async function searchAll(ctx: LawContext, filter: string): Promise<Answer | undefined> {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const res = await call(ctx, 'searchConversations', {
      auth: 'read',
      query: { filter, page, pageSize: PAGE },
    });
    if (res.status === 400) {
      expectConforming(ctx, 'searchConversations', res, { status: 400, statusRule: RULE });
      return undefined;
    }
    const ok = expectConforming(ctx, 'searchConversations', res, { status: 200, statusRule: RULE });
    const body = obj(ok.parsed);
    const data = arr(body['data']).map(obj);
    items.push(...data);
    const total = num(body['totalRecords']);
    if (data.length < PAGE || (total !== undefined && items.length >= total))
      return {
        items,
        ids: items.map((i) => str(i['actionId']) ?? ''),
        whole: body['totalRecordsCapped'] === false && total !== undefined && items.length >= total,
      };
  }
  return { items, ids: items.map((i) => str(i['actionId']) ?? ''), whole: false };
}

/** queueName → queueId from the queue list of the history window. */
async function queueIds(ctx: LawContext): Promise<ReadonlyMap<string, string>> {
  const res = await call(ctx, 'listQueues', { auth: 'read', query: historyWindow(ctx) });
  const ok = expectConforming(ctx, 'listQueues', res, { status: 200 });
  const out = new Map<string, string>();
  for (const entry of arr(obj(ok.parsed)['data']).map(obj)) {
    const name = str(entry['queueName']);
    const id = str(entry['queueId']);
    if (name !== undefined && id !== undefined) out.set(name, id);
  }
  return out;
}

export const searchQueueTermKeeps: Law = {
  id: 'parameters.search-queue-term',
  group: 'parameters',
  title:
    "conversation search: status=OPEN+queue=<an OPEN item's queue label, or that queue's queueId>, applied, returns that item for at least one spelling",
  ruleIds: [RULE],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const open = await searchAll(ctx, 'status=OPEN');
      if (open === undefined) return 0;
      const byQueue = new Map<string, string[]>();
      for (const item of open.items) {
        const q = str(item['queue']);
        const id = str(item['actionId']);
        if (q === undefined || id === undefined || item['status'] !== 'OPEN' || !/^[\w -]+$/.test(q))
          continue;
        byQueue.set(q, [...(byQueue.get(q) ?? []), id]);
      }
      const ids = await queueIds(ctx);
      let checks = 0;
      for (const [queue, members] of [...byQueue]
        .sort((a, b) => b[1].length - a[1].length)
        .slice(0, QUEUES)) {
        const item = members[0] as string;
        // Without the queue's id, a deployment spelling the term by id cannot be told from one that drops.
        const queueId = ids.get(queue);
        if (queueId === undefined || !/^[\w -]+$/.test(queueId)) continue;
        const spellings = [...new Set([queue, queueId])];
        const dropped: string[] = [];
        let kept = false;
        for (const spelling of spellings) {
          const filter = `status=OPEN+queue=${spelling}`;
          const answer = await searchAll(ctx, filter);
          if (answer === undefined) continue;
          const ignored = answer.ids.join() === open.ids.join();
          if (ignored) continue;
          if (answer.ids.includes(item) || !answer.whole) {
            kept = true;
            break;
          }
          dropped.push(`${filter} (${answer.ids.length} items)`);
        }
        checks += 1;
        if (!kept && dropped.length === spellings.length)
          violate(
            RULE,
            'queue-term-drops-item',
            `search status=OPEN returns action ${item} in queue ${JSON.stringify(queue)} (queueId ${JSON.stringify(queueId)}), but the queue term, applied in every spelling, leaves it out: ${dropped.join('; ')}`,
            { item, queue, queueId },
          );
      }
      return checks;
    }),
};
