/**
 * The first response of an action shows in two fields (2.1): `initialResponseTime`, the first agent
 * response time, and `firstResponseTime`, the duration to it. Read together over the actions the list,
 * the search and the detail show: a duration comes with the time (a duration to a response that has
 * no time), and a time comes with a duration when the action has a first customer message to measure
 * from (a response time on an action nobody answered, with no duration, is a time made up).
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { historyWindow } from './discover.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/** Action details read: the first few the lists show with a first response time. */
const DETAILS = 5;

function checkPair(what: string, item: Record<string, unknown>): void {
  const id = String(item['actionId']);
  const duration = item['firstResponseTime'];
  const time = item['initialResponseTime'];
  if (duration != null && time === null)
    violate(
      'SCHEMA-FIRST-RESPONSE-HAS-TIME',
      'response-time-missing',
      `${what}: action ${id} has firstResponseTime ${JSON.stringify(duration)} (a first response was measured) but initialResponseTime null`,
      { actionId: id },
    );
  if (typeof time === 'string' && typeof item['initialMessageTime'] === 'string' && duration === null)
    violate(
      'SCHEMA-RESPONSE-TIME-HAS-DURATION',
      'response-duration-missing',
      `${what}: action ${id} has initialResponseTime ${time} (a first agent response) and initialMessageTime ${String(item['initialMessageTime'])}, but firstResponseTime null`,
      { actionId: id },
    );
}

async function items(
  ctx: LawContext,
  operationId: string,
  query: Record<string, string | number>,
): Promise<readonly Record<string, unknown>[]> {
  const res = await call(ctx, operationId, { auth: 'read', query });
  const ok = expectConforming(ctx, operationId, res, { status: 200 });
  return arr(obj(ok.parsed)['data']).map(obj);
}

export const responseTimesPaired: Law = {
  id: 'schemas.response-times-paired',
  group: 'schemas',
  title:
    'a first-response duration comes with a first response time, and a first response time with a duration where a first customer message is shown',
  ruleIds: ['SCHEMA-FIRST-RESPONSE-HAS-TIME', 'SCHEMA-RESPONSE-TIME-HAS-DURATION'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      let checks = 0;
      // The default list (responded), the history with the legacy responded flag false, the search.
      const sources = [
        { operationId: 'listActions', query: { pageSize: 500 } },
        {
          operationId: 'listActions',
          query: { ...historyWindow(ctx), pageSize: 500, filter: 'responded=false' },
        },
        { operationId: 'searchConversations', query: { pageSize: 100 } },
      ];
      const answered = new Set<string>();
      for (const { operationId, query } of sources) {
        for (const item of await items(ctx, operationId, query)) {
          checkPair(operationId, item);
          checks += 1;
          const id = str(item['actionId']);
          if (id !== undefined && typeof item['initialResponseTime'] === 'string') answered.add(id);
        }
      }
      for (const id of [...answered].slice(0, DETAILS)) {
        const res = await call(ctx, 'getAction', { auth: 'read', path: { id } });
        const ok = expectConforming(ctx, 'getAction', res, { status: 200 });
        checkPair('getAction', obj(ok.parsed));
        checks += 1;
      }
      return checks;
    }),
};
