import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { historyWindow } from './discover.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/**
 * conversationJson "filled only when requested (action list with includeFullConversation=true), null
 * otherwise" (spec 2.1), checked on actions the target has proven to have a conversation: the page
 * asked with includeFullConversation=true names them, and the same window asked without the flag and
 * with it false must answer null for each. A generated query may happen to meet no such action.
 */
export const conversationJsonOnRequest: Law = {
  id: 'schemas.conversation-json-on-request',
  group: 'schemas',
  title:
    'action list: actions whose conversationJson the requested page fills answer null without includeFullConversation and with it false',
  ruleIds: [
    'LIST-CONVERSATIONJSON-ONLY-WHEN-REQUESTED',
    'LIST-INCLUDEFULLCONVERSATION-DEFAULT-FALSE',
    'LIST-RESPONSE-ENVELOPE',
  ],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const window = { ...historyWindow(ctx), pageSize: 200 };
      const page = async (query: Readonly<Record<string, string | number>>) => {
        const res = await call(ctx, 'listActions', { auth: 'read', query });
        const ok = expectConforming(ctx, 'listActions', res, {
          status: 200,
          statusRule: 'LIST-RESPONSE-ENVELOPE',
        });
        return arr(obj(ok.parsed)['data']).map(obj);
      };
      const withConversation = new Set(
        (await page({ ...window, includeFullConversation: 'true' }))
          .filter((a) => typeof a['conversationJson'] === 'string')
          .map((a) => str(a['actionId']))
          .filter((id): id is string => id !== undefined),
      );
      let checks = 0;
      const unrequested: readonly [string, Readonly<Record<string, string | number>>, string][] = [
        ['without includeFullConversation', window, 'LIST-INCLUDEFULLCONVERSATION-DEFAULT-FALSE'],
        [
          'with includeFullConversation=false',
          { ...window, includeFullConversation: 'false' },
          'LIST-CONVERSATIONJSON-ONLY-WHEN-REQUESTED',
        ],
      ];
      for (const [label, query, rule] of unrequested) {
        for (const action of await page(query)) {
          const id = str(action['actionId']);
          if (id === undefined || !withConversation.has(id)) continue;
          checks += 1;
          if (action['conversationJson'] !== null)
            violate(
              rule,
              `conversation-json-unrequested:${label}`,
              `listActions ${label}: conversationJson of ${id} is ${JSON.stringify(action['conversationJson']).slice(0, 80)}, expected null`,
            );
        }
      }
      return checks;
    }),
};
