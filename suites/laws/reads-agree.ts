/**
 * The same action read through the action list, the conversation search and its detail agrees on
 * every field the records share (spec 2.1, 2.2): the summary's flat `assignee*` and `user*` keys are
 * the detail's nested `assignee` and `user`; tags compare as sets (their order is not stated); an
 * action whose `updatedAt` moved between the reads changed meanwhile and is not judged.
 */
import fc from 'fast-check';
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { canonical } from './custom-fields.ts';
import { DAY_MS, historyWindow, sampleActions } from './discover.ts';
import { hardness } from './hard-ids.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/** Keys with the same name and meaning in the summary (2.1) and the detail (2.2). */
const SHARED = [
  'actionId',
  'actionTitle',
  'actionSummary',
  'status',
  'platform',
  'recordType',
  'isPublicPost',
  'serviceURL',
  'sourceURL',
  'queue',
  'initialQueue',
  'sentiment',
  'sentimentScore',
  'moderation',
  'createdAt',
  'updatedAt',
  'initialMessageTime',
  'initialResponseTime',
  'closeTime',
  'claimTime',
  'firstResponseTime',
  'handleTime',
  'serverName',
  'channelName',
  'csatScore',
  'csatFeedback',
  'estimatedCSAT',
  'totalMessages',
  'totalUserMessages',
  'totalAgentMessages',
  'tags',
  'closingTags',
  'customFields',
  'rootMessageText',
] as const;

/** Summary key -> [detail object, key inside it]. */
const NESTED: Readonly<Record<string, readonly [string, string]>> = {
  assigneeName: ['assignee', 'name'],
  assigneeEmail: ['assignee', 'email'],
  assigneeUserId: ['assignee', 'userId'],
  assigneeRole: ['assignee', 'role'],
  userName: ['user', 'name'],
  userUsername: ['user', 'username'],
  userId: ['user', 'userId'],
  userEmail: ['user', 'email'],
  userFollowerCount: ['user', 'followerCount'],
};

const TIMES = new Set([
  'createdAt',
  'updatedAt',
  'initialMessageTime',
  'initialResponseTime',
  'closeTime',
  'claimTime',
]);

/** Equal as the field means: timestamps as instants, tag lists as sets, everything else as JSON. */
export function same(key: string, a: unknown, b: unknown): boolean {
  if (TIMES.has(key) && typeof a === 'string' && typeof b === 'string') {
    const [x, y] = [Date.parse(a), Date.parse(b)];
    if (Number.isFinite(x) && Number.isFinite(y)) return x === y;
  }
  if ((key === 'tags' || key === 'closingTags') && Array.isArray(a) && Array.isArray(b)) {
    // {value, group} is what both records carry; extra keys on one side are tolerated (section 9).
    const set = (tags: readonly unknown[]) =>
      canonical(tags.map((t) => canonical({ value: obj(t)['value'], group: obj(t)['group'] })).sort());
    return set(a) === set(b);
  }
  return canonical(a) === canonical(b);
}

export type Pairs = readonly (readonly [string, unknown, unknown])[];

/** The shared fields of a summary and a detail, as [label, summary value, detail value]. */
export function summaryVsDetail(s: Record<string, unknown>, d: Record<string, unknown>): Pairs {
  return [
    ...SHARED.map((k) => [k, s[k], d[k]] as const),
    ...Object.entries(NESTED).map(
      ([k, [o, inner]]) => [`${k} / ${o}.${inner}`, s[k], obj(d[o])[inner]] as const,
    ),
  ];
}

/** Two summaries (list item and search item): every key of 2.1 but the on-request conversationJson. */
function summaryVsSummary(a: Record<string, unknown>, b: Record<string, unknown>): Pairs {
  return [...SHARED, ...Object.keys(NESTED)].map((k) => [k, a[k], b[k]] as const);
}

function compare(id: string, what: string, pairs: Pairs): void {
  for (const [label, a, b] of pairs) {
    const key = label.split(' ')[0] ?? label;
    if (!same(key, a, b))
      violate(
        'DETAIL-READS-AGREE',
        `disagree:${what}:${key}`,
        `action ${id}: ${label} reads ${canonical(a)} in the ${what.split('-')[0]} and ${canonical(b)} in the ${what.split('-')[1]}`,
      );
  }
}

/** The first page of 100 of conversation search (the newest conversations), fetched once per run. */
function searchSample(ctx: LawContext): Promise<readonly Record<string, unknown>[]> {
  return ctx.memo('sample:search-items', async () => {
    const res = await call(ctx, 'searchConversations', { auth: 'read', query: { pageSize: 100 } });
    const ok = expectConforming(ctx, 'searchConversations', res, {
      status: 200,
      statusRule: 'SEARCH-ENVELOPE',
    });
    return arr(obj(ok.parsed)['data']).map(obj);
  });
}

/** Days at the start of the history window read for its oldest actions. */
const OLDEST_SPAN_DAYS = 7;

/**
 * The oldest actions of the history window (the last ones of a newest-first page over its first
 * week), fetched once per run: the sample is the newest page, and the records a store holds first
 * are where an off-by-one on a position shows. Empty when that week lists nothing.
 */
function oldestSample(ctx: LawContext): Promise<readonly Record<string, unknown>[]> {
  return ctx.memo('sample:oldest-actions', async () => {
    const { from } = historyWindow(ctx);
    const to = new Date(Date.parse(from) + OLDEST_SPAN_DAYS * DAY_MS).toISOString();
    const res = await call(ctx, 'listActions', { auth: 'read', query: { from, to, pageSize: 500 } });
    const ok = expectConforming(ctx, 'listActions', res, {
      status: 200,
      statusRule: 'LIST-RESPONSE-ENVELOPE',
    });
    return arr(obj(ok.parsed)['data']).map(obj).slice(-2);
  });
}

/**
 * The custom-field read of one action: no fieldName twice with another type, label or value (a field
 * has one registered type, 4.3), and each value agrees with the detail's customFields where that key
 * is present, null included: a field the read reports unset while the detail shows a value disagrees.
 */
async function checkFieldsRead(ctx: LawContext, id: string, detail: Record<string, unknown>): Promise<void> {
  const res = await call(ctx, 'getCustomFields', { auth: 'read', path: { actionId: id } });
  const ok = expectConforming(ctx, 'getCustomFields', res, {
    status: 200,
    statusRule: 'DETAIL-CONSISTENT-WITH-LIST',
    what: `getCustomFields of the listed action ${JSON.stringify(id)}`,
  });
  const seen = new Map<string, string>();
  const map = obj(detail['customFields']);
  for (const f of arr(obj(ok.parsed)['fields']).map(obj)) {
    const name = str(f['fieldName']);
    if (name === undefined) continue;
    const record = canonical({ displayName: f['displayName'], fieldType: f['fieldType'], value: f['value'] });
    const before = seen.get(name);
    if (before !== undefined && before !== record)
      violate(
        'CF-GET-FIELD-ONE-RECORD',
        'field-listed-twice',
        `action ${id}: GET custom-fields lists field ${name} twice, as ${before} and as ${record}`,
      );
    seen.set(name, record);
    if (!(name in map)) continue;
    if (canonical(map[name]) !== canonical(f['value']))
      violate(
        'CF-READ-AGREES-WITH-ACTION',
        'custom-field-disagrees',
        `action ${id}: custom field ${name} reads ${canonical(f['value'])} through GET custom-fields but ${canonical(map[name])} in the action's customFields`,
      );
  }
}

export const readsAgree: Law = {
  id: 'identity.reads-agree',
  group: 'identity',
  title:
    "the same action (of the newest sample and the history window's oldest) reads the same in the action list, the conversation search and its detail (queue, status, times, tags, counts, custom fields, user and assignee), and its custom-fields read lists each field once and agrees with customFields, unset values included",
  ruleIds: [
    'DETAIL-READS-AGREE',
    'CF-READ-AGREES-WITH-ACTION',
    'CF-GET-FIELD-ONE-RECORD',
    'DETAIL-CONSISTENT-WITH-LIST',
  ],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const oldest = await oldestSample(ctx);
    const listed = [...(await sampleActions(ctx)), ...oldest];
    const searched = await searchSample(ctx);
    const byId = (items: readonly Record<string, unknown>[]) =>
      new Map(items.map((i) => [str(i['actionId']) ?? '', i] as const));
    const inList = byId(listed);
    const inSearch = byId(searched);
    const pool = [...new Set([...inList.keys(), ...inSearch.keys()])].filter((id) => id !== '');
    if (pool.length === 0)
      return {
        kind: 'not-run',
        ruleIds: readsAgree.ruleIds,
        reason: 'neither the list nor the search shows an action',
      };
    const examples = [
      ...new Set([
        ...hardestActions(pool, inList, inSearch, 2),
        ...oldest.map((a) => str(a['actionId']) ?? '').filter((id) => id !== ''),
      ]),
    ];
    return runProperty(
      ctx,
      fc.constantFrom(...pool),
      async (id) => {
        const res = await call(ctx, 'getAction', { auth: 'read', path: { id } });
        const detail = obj(
          expectConforming(ctx, 'getAction', res, { status: 200, statusRule: 'DETAIL-CONSISTENT-WITH-LIST' })
            .parsed,
        );
        const list = inList.get(id);
        const found = inSearch.get(id);
        // An action updated between the reads changed meanwhile: nothing to judge.
        const settled = (s: Record<string, unknown>) =>
          same('updatedAt', s['updatedAt'], detail['updatedAt']);
        if (list !== undefined && settled(list)) compare(id, 'list-detail', summaryVsDetail(list, detail));
        if (found !== undefined && settled(found))
          compare(id, 'search-detail', summaryVsDetail(found, detail));
        if (
          list !== undefined &&
          found !== undefined &&
          same('updatedAt', list['updatedAt'], found['updatedAt'])
        )
          compare(id, 'list-search', summaryVsSummary(list, found));
        await checkFieldsRead(ctx, id, detail);
      },
      // fast-check counts the examples among the runs: they come on top, not instead of random picks.
      { runs: Math.min(ctx.runs, 10) + examples.length, examples },
    );
  },
};

/**
 * For each of the action's own, its user's and its assignee's id, the actions where that id has the
 * most hard shapes (long digit strings, leading zeros, whitespace, Unicode), tried first: an id that
 * loses its form through a number or a trim does so on those only, and a random pick of a few actions
 * may never meet one. Each kind of id gets its own picks, so hard action ids do not crowd out hard
 * user ids.
 */
function hardestActions(
  pool: readonly string[],
  inList: ReadonlyMap<string, Record<string, unknown>>,
  inSearch: ReadonlyMap<string, Record<string, unknown>>,
  perKind: number,
): string[] {
  const idOf = (id: string, key: 'userId' | 'assigneeUserId'): string =>
    str(inSearch.get(id)?.[key]) ?? str(inList.get(id)?.[key]) ?? '';
  const kinds: readonly ((id: string) => string)[] = [
    (id) => id,
    (id) => idOf(id, 'userId'),
    (id) => idOf(id, 'assigneeUserId'),
  ];
  const picked = new Set<string>();
  for (const kind of kinds) {
    const hardest = pool
      .map((id, i) => ({ id, i, h: hardness(kind(id)) }))
      .filter((x) => x.h > 0 && !picked.has(x.id))
      .sort((a, b) => b.h - a.h || a.i - b.i)
      .slice(0, perKind);
    for (const x of hardest) picked.add(x.id);
  }
  return [...picked];
}
