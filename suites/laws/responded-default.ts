/**
 * The action list's responded default (spec 4.1): without fullFilter the list holds responded actions
 * only; with fullFilter it "adds no responded default". The spec never says which fields make an
 * action responded (2.1), so the law never reads one: an action is unresponded when the target's own
 * default list of a window, answered whole, leaves out an action the target's search shows in that
 * window. Such an action that matches the fullFilter must be in the fullFilter list of the window.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import type { CheckOutcome } from '../../src/conformance/kit/outcome.ts';
import { DAY_MS, settledAnchor } from './discover.ts';
import { SAMPLE_FILTER } from './inputs-query.ts';
import { arr, call, expectConforming, type Json, num, obj, str } from './support.ts';

const PAGE = 500;
/** Search pages read for candidates (100 each): the newest part of the history is enough. */
const SEARCH_PAGES = 3;

interface Whole {
  readonly ids: ReadonlySet<string>;
}

/** One list answer of the window, or undefined when it does not hold all its matches in one page. */
async function wholeList(
  ctx: LawContext,
  window: { from: string; to: string },
  fullFilter: string | undefined,
  extra: Readonly<Record<string, string>> = {},
): Promise<Whole | undefined> {
  const query = { ...window, pageSize: PAGE, ...(fullFilter === undefined ? {} : { fullFilter }), ...extra };
  const res = await call(ctx, 'listActions', { auth: 'read', query });
  const ok = expectConforming(ctx, 'listActions', res, {
    status: 200,
    statusRule: 'LIST-RESPONSE-ENVELOPE',
    what: `listActions from=${window.from} to=${window.to}${fullFilter === undefined ? '' : ` fullFilter=${fullFilter}`}${Object.entries(
      extra,
    )
      .map(([k, v]) => ` ${k}=${v}`)
      .join('')}`,
  });
  const body = obj(ok.parsed);
  const data = arr(body['data']).map(obj);
  const total = num(body['totalRecords']);
  if (total === undefined || total > PAGE || data.length !== total) return undefined;
  return { ids: new Set(data.flatMap((a) => str(a['actionId']) ?? [])) };
}

/** Search items matching the filter, newest part of the history. */
async function searchMatches(ctx: LawContext, filter: string): Promise<Json[]> {
  const items: Json[] = [];
  for (let page = 1; page <= SEARCH_PAGES; page++) {
    const res = await call(ctx, 'searchConversations', {
      auth: 'read',
      query: { filter, pageSize: 100, page },
    });
    const ok = expectConforming(ctx, 'searchConversations', res, {
      status: 200,
      statusRule: 'SEARCH-FILTER-STATUS-OPEN',
    });
    const data = arr(obj(ok.parsed)['data']).map(obj);
    items.push(...data);
    if (data.length < 100) break;
  }
  return items;
}

const within = (createdAt: unknown, window: { from: string; to: string }): boolean => {
  const t = typeof createdAt === 'string' ? Date.parse(createdAt) : Number.NaN;
  return Number.isFinite(t) && t >= Date.parse(window.from) && t <= Date.parse(window.to);
};

export const fullFilterNoRespondedDefault: Law = {
  id: 'windows.fullfilter-no-responded-default',
  group: 'windows',
  title:
    'with fullFilter the list adds no responded default: an action the default list of a window leaves out (unresponded, by the target itself) that matches the filter is in the fullFilter list',
  ruleIds: ['LIST-FULLFILTER-NO-RESPONDED-DEFAULT', 'LIST-RESPONSE-ENVELOPE', 'SEARCH-FILTER-STATUS-OPEN'],
  needs: { keys: ['read'] },
  run: async (ctx): Promise<CheckOutcome> => {
    let reason = 'no settled window whose default and fullFilter lists each fit one page of 500';
    const outcome = await runExamples(ctx, async () => {
      // Settled windows (ending an hour ago), widest first: a window whose lists are answered whole.
      const to = new Date(settledAnchor(ctx)).toISOString();
      const windows = [90, 7, 2].map((days) => ({
        from: new Date(ctx.now() - days * DAY_MS).toISOString(),
        to,
      }));
      const matches = await searchMatches(ctx, SAMPLE_FILTER);
      for (const window of windows) {
        const plain = await wholeList(ctx, window, undefined);
        const filtered = plain === undefined ? undefined : await wholeList(ctx, window, SAMPLE_FILTER);
        if (plain === undefined || filtered === undefined) continue;
        // Unresponded by the target's own answers: in the window and matching the filter (search),
        // yet not in the whole default list of that window.
        const unresponded = matches.filter((item) => {
          const id = str(item['actionId']);
          return id !== undefined && within(item['createdAt'], window) && !plain.ids.has(id);
        });
        if (unresponded.length === 0) {
          reason = `no action matching ${SAMPLE_FILTER} in a window is left out of that window's default list (every one the search shows is responded, by the target's answers)`;
          continue;
        }
        for (const item of unresponded) {
          const id = str(item['actionId']) ?? '';
          if (filtered.ids.has(id)) continue;
          // Read it once more: still matching and still in the window (a live action can move on).
          const detail = await call(ctx, 'getAction', { auth: 'read', path: { id } });
          const now = obj(detail.ok ? detail.body : undefined);
          if (detail.status !== 200 || now['status'] !== 'OPEN' || !within(now['createdAt'], window))
            continue;
          violate(
            'LIST-FULLFILTER-NO-RESPONDED-DEFAULT',
            'unresponded-left-out',
            `action ${JSON.stringify(id)} (status OPEN, created ${String(now['createdAt'])}) is not in the default list of from=${window.from} to=${window.to} (so it is unresponded, by the target's own answers), and listActions with fullFilter=${SAMPLE_FILTER} over the same window leaves it out too: fullFilter added the responded default`,
            { actionId: id },
          );
        }
        return unresponded.length;
      }
      return 0;
    });
    if (outcome.kind === 'passed' && outcome.checks === 0)
      return { kind: 'not-run', ruleIds: ctx.ruleIds, reason };
    return outcome;
  },
};

/** The legacy spellings of the responded flag set to false (spec 4.1: only the responded flag is read). */
const RESPONDED_FALSE: readonly Readonly<Record<string, string>>[] = [
  { filter: 'responded=false' },
  { filterJson: '{"responded":false}' },
];

export const legacyRespondedFalse: Law = {
  id: 'inputs.list-legacy-responded-false',
  group: 'inputs',
  title:
    'legacy filter=responded=false and filterJson {"responded":false} are read: where a window holds unresponded actions (by the target itself), the list is not the default one',
  ruleIds: ['LIST-LEGACY-RESPONDED-FALSE-READ', 'LIST-RESPONSE-ENVELOPE'],
  needs: { keys: ['read'] },
  run: async (ctx): Promise<CheckOutcome> => {
    let reason = 'no settled window whose lists each fit one page of 500 and hold an unresponded action';
    const outcome = await runExamples(ctx, async () => {
      const to = new Date(settledAnchor(ctx)).toISOString();
      for (const days of [7, 2, 1]) {
        const window = { from: new Date(ctx.now() - days * DAY_MS).toISOString(), to };
        const plain = await wholeList(ctx, window, undefined);
        const filtered = plain === undefined ? undefined : await wholeList(ctx, window, SAMPLE_FILTER);
        if (plain === undefined || filtered === undefined) continue;
        // An action the fullFilter list (no responded default) holds and the default list leaves out
        // is unresponded, by the target's own answers: the flag set false must then change the list.
        const unresponded = [...filtered.ids].filter((id) => !plain.ids.has(id));
        if (unresponded.length === 0) {
          reason = `no window of the default list leaves out an action its fullFilter=${SAMPLE_FILTER} list holds (no unresponded action, by the target's answers)`;
          continue;
        }
        for (const extra of RESPONDED_FALSE) {
          const got = await wholeList(ctx, window, undefined, extra);
          if (got === undefined) continue;
          if (got.ids.size === plain.ids.size && [...got.ids].every((id) => plain.ids.has(id)))
            violate(
              'LIST-LEGACY-RESPONDED-FALSE-READ',
              `responded-false-ignored:${Object.keys(extra)[0]}`,
              `listActions from=${window.from} to=${window.to} with ${Object.entries(extra)
                .map(([k, v]) => `${k}=${v}`)
                .join(
                  '',
                )} answers the default list (${plain.ids.size} responded actions), though the window holds unresponded actions (${unresponded.slice(0, 3).join(', ')}): the responded flag was not read`,
            );
        }
        return RESPONDED_FALSE.length;
      }
      return 0;
    });
    if (outcome.kind === 'passed' && outcome.checks === 0)
      return { kind: 'not-run', ruleIds: ctx.ruleIds, reason };
    return outcome;
  },
};
