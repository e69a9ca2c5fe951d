/**
 * Organization isolation where ids collide (spec 1: "all data returned belongs to that organization";
 * 5.3: each key belongs to one organization). Ids are unique per organization only, so two
 * organizations may both have an action `X`: each key's detail and custom fields of `X` must then be
 * its own organization's record, the one its own list shows. And an action only the other organization
 * lists is not this organization's to read: when its detail is not found, its custom fields are not
 * served either. Nothing is presumed: the shared and the foreign ids are read from both lists first.
 */

import type { KeyRole } from '../../src/client/types.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { historyWindow } from './discover.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

type Listed = ReadonlyMap<string, Record<string, unknown>>;

async function listOf(ctx: LawContext, auth: KeyRole): Promise<Listed> {
  const res = await call(ctx, 'listActions', { auth, query: { ...historyWindow(ctx), pageSize: 500 } });
  const ok = expectConforming(ctx, 'listActions', res, { status: 200 });
  const items = arr(obj(ok.parsed)['data']).map(obj);
  return new Map(
    items.flatMap((item) => {
      const id = str(item['actionId']);
      return id === undefined ? [] : [[id, item] as const];
    }),
  );
}

/**
 * Fields that tell one action from another and that no update changes (a title may be edited
 * between two reads; when the action was created and for which customer stay): an answer with other
 * values is another record.
 */
const IDENTITY = ['createdAt', 'userId'] as const;
const sameRecord = (summary: Record<string, unknown>, detail: Record<string, unknown>): boolean =>
  IDENTITY.every((k) =>
    k === 'userId' ? obj(detail['user'])['userId'] === summary['userId'] : detail[k] === summary[k],
  );

const MAX_IDS = 8;

export const sharedIds: Law = {
  id: 'status.shared-ids',
  group: 'status',
  title:
    "an id both organizations have reads as each key's own record; an action only the other organization lists is not served to this one, its custom fields included",
  ruleIds: ['ORG-DATA-SCOPED', 'ORG-OTHER-ORG-ID-NOT-RESOLVED'],
  needs: { keys: ['read', 'otherOrgRead'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const lists = { read: await listOf(ctx, 'read'), otherOrgRead: await listOf(ctx, 'otherOrgRead') };
      const otherIds = [...lists.otherOrgRead.keys()];
      const shared = otherIds.filter((id) => lists.read.has(id)).slice(0, MAX_IDS);
      // The other key's own listed actions, the shared ones first: an id this organization has too
      // may not be visible in this organization's list (its window, its responded default).
      const theirs = [...new Set([...shared, ...otherIds])].slice(0, 2 * MAX_IDS);
      const reads: (readonly [string, 'read' | 'otherOrgRead'])[] = [
        ...shared.map((id) => [id, 'read'] as const),
        ...theirs.map((id) => [id, 'otherOrgRead'] as const),
      ];
      let checks = 0;
      for (const [id, auth] of reads) {
        {
          const own = lists[auth].get(id) ?? {};
          const res = await call(ctx, 'getAction', { auth, path: { id } });
          const detail = obj(expectConforming(ctx, 'getAction', res, { status: 200 }).parsed);
          if (!sameRecord(own, detail))
            violate(
              'ORG-DATA-SCOPED',
              `shared-id-detail:${auth}`,
              `action ${id} is in both organizations' lists; the ${auth} key's own list shows ${JSON.stringify(own['actionTitle'])} created ${String(own['createdAt'])}, its detail shows ${JSON.stringify(detail['actionTitle'])} created ${String(detail['createdAt'])}: another organization's record`,
            );
          checks += 1;
        }
      }
      // Ids only the other organization lists, read with this organization's key.
      const foreign = otherIds.filter((id) => !lists.read.has(id)).slice(0, MAX_IDS);
      for (const id of foreign) {
        const their = lists.otherOrgRead.get(id) ?? {};
        const res = await call(ctx, 'getAction', { auth: 'read', path: { id } });
        if (res.kind !== 'network' && res.status === 200) {
          const detail = obj(res.ok ? res.body : undefined);
          // Our own action under the same id beyond our list's window is ours to read.
          if (sameRecord(their, detail))
            violate(
              'ORG-DATA-SCOPED',
              'foreign-detail',
              `action ${id} of the other organization (title ${JSON.stringify(their['actionTitle'])}) is served to this organization's key`,
            );
          continue;
        }
        expectConforming(ctx, 'getAction', res, { status: [403, 404] });
        const fields = await call(ctx, 'getCustomFields', { auth: 'read', path: { actionId: id } });
        expectConforming(ctx, 'getCustomFields', fields, {
          status: [403, 404],
          statusRule: 'ORG-OTHER-ORG-ID-NOT-RESOLVED',
          what: `getCustomFields of action ${id}, which only the other organization has (its detail is not found with this key)`,
        });
        checks += 2;
      }
      if (shared.length === 0 && foreign.length === 0) return 0;
      return checks;
    }),
};
