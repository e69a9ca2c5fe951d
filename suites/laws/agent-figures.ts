/**
 * One agent's figures, read twice: the agent list entry (2.5: metrics, workload) and the agent's
 * detail (4.6: aggregatedMetrics, currentWorkload) over the same settled window count the same
 * actions and messages. A detail that counts more than the entry while the other organization lists
 * an agent under the same id is counting that organization's agent (section 1: nothing of another
 * organization is ever counted). Only the counts are compared: averages may be rounded or weighted
 * differently, and the spec gives them no formula.
 */
import type { KeyRole } from '../../src/client/types.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { DAY_MS, HISTORY_DAYS, settledAnchor } from './discover.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/** The counts both shapes carry under the same names. */
export const AGENT_COUNTS = [
  'totalActions',
  'totalMessages',
  'totalAgentMessages',
  'totalUserMessages',
] as const;
const WORKLOAD = ['active', 'closed', 'cancelled'] as const;
const MAX_AGENTS = 6;
/** The start of a window that holds every action a deployment could have. */
const EVERYTHING_FROM = '2000-01-01T00:00:00.000Z';

type Entries = ReadonlyMap<string, Record<string, unknown>>;

/** The entries of an agent-list answer by agentId. */
function byAgentId(parsed: unknown): Entries {
  return new Map(
    arr(obj(parsed)['data'])
      .map(obj)
      .flatMap((e) => {
        const id = str(e['agentId']);
        return id === undefined ? [] : [[id, e] as const];
      }),
  );
}

async function entriesOf(
  ctx: LawContext,
  auth: KeyRole,
  window: { from: string; to: string },
): Promise<Entries> {
  const res = await call(ctx, 'listAgents', { auth, query: window });
  const ok = expectConforming(ctx, 'listAgents', res, { status: 200 });
  return byAgentId(ok.parsed);
}

/**
 * The list entries over every action there is, or none when the target refuses so wide a window (the
 * spec bounds no window, but a deployment may, and this read only widens what the law accepts).
 */
async function wholeEntries(ctx: LawContext): Promise<Entries> {
  const query = { from: EVERYTHING_FROM, to: new Date(ctx.now() + DAY_MS).toISOString() };
  const res = await call(ctx, 'listAgents', { auth: 'read', query });
  if (res.kind !== 'http' || res.status !== 200) return new Map();
  const ok = expectConforming(ctx, 'listAgents', res, { status: 200 });
  return byAgentId(ok.parsed);
}

/** Names of the figures of `want` that `got` answers otherwise (only numbers both carry). */
function differing(
  keys: readonly string[],
  want: Record<string, unknown>,
  got: Record<string, unknown>,
): string[] {
  return keys.filter((k) => typeof want[k] === 'number' && typeof got[k] === 'number' && want[k] !== got[k]);
}

const shown = (keys: readonly string[], o: Record<string, unknown>): string =>
  keys.map((k) => `${k}=${String(o[k])}`).join(', ');

/**
 * One of the two reads adding, bucket for bucket, what the other organization's agent of the same id
 * has over the window is counting that agent. Its own figures are read from its list entry and from
 * its detail: a deployment that adds the other organization in one kind of read does so for both
 * organizations' reads of that kind.
 */
async function workloadOfOtherOrg(
  ctx: LawContext,
  id: string,
  window: { from: string; to: string },
  seen: {
    list: Record<string, unknown>;
    detail: Record<string, unknown>;
    other: Record<string, unknown>;
    moved: readonly string[];
  },
): Promise<void> {
  const { list, detail, other, moved } = seen;
  const res = await call(ctx, 'getAgent', { auth: 'otherOrgRead', path: { id }, query: window });
  const theirDetail =
    res.kind === 'http' && res.ok && res.status === 200
      ? obj(obj(obj(res.body)['data'])['currentWorkload'])
      : {};
  const foreign = [obj(other['workload']), theirDetail];
  const adding = (total: Record<string, unknown>, part: Record<string, unknown>) =>
    foreign.find((theirs) => moved.every((k) => total[k] === Number(part[k]) + Number(theirs[k])));
  const listAdds = adding(list, detail);
  const detailAdds = listAdds === undefined ? adding(detail, list) : undefined;
  const theirs = listAdds ?? detailAdds;
  if (theirs === undefined) return;
  const [read, has, base] =
    listAdds !== undefined
      ? ['agent list entry', list, "detail's currentWorkload"]
      : ['agent detail', detail, "list entry's workload"];
  violate(
    'ORG-DATA-SCOPED',
    'agent-workload-counts-other-org',
    `agent ${id} is listed by both organizations; over from=${window.from} to=${window.to} this organization's ${read} has workload ${shown(moved, has)}, which is the ${base} ${shown(moved, listAdds !== undefined ? detail : list)} plus the other organization's ${shown(moved, theirs)}: it counts the other organization's agent`,
  );
}

export const agentFigures: Law = {
  id: 'identity.agent-detail-figures',
  group: 'identity',
  title:
    "an agent's detail counts the same actions, messages and workload as its agent-list entry over the same window, and never another organization's agent under the same id",
  ruleIds: ['AGENT-DETAIL-AGREES-WITH-LIST', 'ORG-DATA-SCOPED'],
  needs: { keys: ['read', 'otherOrgRead'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      // A window that ended an hour ago: records a live deployment receives meanwhile change neither read.
      const to = settledAnchor(ctx);
      const window = {
        from: new Date(to - HISTORY_DAYS * DAY_MS).toISOString(),
        to: new Date(to).toISOString(),
      };
      const own = await entriesOf(ctx, 'read', window);
      const theirs = await entriesOf(ctx, 'otherOrgRead', window);
      // Ids both organizations list first: there a detail that adds the other's figures shows.
      const ids = [...own.keys()]
        .sort((a, b) => Number(theirs.has(b)) - Number(theirs.has(a)))
        .slice(0, MAX_AGENTS);
      let checks = 0;
      let everything: Entries | undefined;
      for (const id of ids) {
        const entry = own.get(id) ?? {};
        const metrics = obj(entry['metrics']);
        const res = await call(ctx, 'getAgent', { auth: 'read', path: { id }, query: window });
        const detail = obj(obj(expectConforming(ctx, 'getAgent', res, { status: 200 }).parsed)['data']);
        const aggregated = obj(detail['aggregatedMetrics']);
        const counts = differing(AGENT_COUNTS, metrics, aggregated);
        const other = theirs.get(id);
        if (counts.length > 0 && other !== undefined) {
          const foreign = obj(other['metrics']);
          const added = counts.every((k) => aggregated[k] === Number(metrics[k]) + Number(foreign[k]));
          const more = counts.some((k) => Number(aggregated[k]) > Number(metrics[k]));
          if (added || more)
            violate(
              'ORG-DATA-SCOPED',
              'agent-detail-counts-other-org',
              `agent ${id} is listed by both organizations; over from=${window.from} to=${window.to} this organization's list entry counts ${shown(counts, metrics)}, the other's ${shown(counts, foreign)}, and the detail read with this organization's key counts ${shown(counts, aggregated)}: it counts the other organization's agent`,
            );
        }
        if (counts.length > 0)
          violate(
            'AGENT-DETAIL-AGREES-WITH-LIST',
            'agent-detail-counts',
            `agent ${id} over from=${window.from} to=${window.to}: the agent list entry counts ${shown(counts, metrics)}, the detail's aggregatedMetrics ${shown(counts, aggregated)}`,
          );
        const workload = obj(entry['workload']);
        const current = obj(detail['currentWorkload']);
        let moved = differing(WORKLOAD, workload, current);
        // "current" workload may also be read as the agent's workload now, whatever the window: then it
        // agrees with the list entry over every action there is (read now, not over the settled window).
        if (moved.length > 0) {
          everything ??= await wholeEntries(ctx);
          const whole = obj(everything.get(id)?.['workload']);
          if (differing(WORKLOAD, whole, current).length === 0) moved = [];
        }
        if (moved.length > 0 && other !== undefined)
          await workloadOfOtherOrg(ctx, id, window, { list: workload, detail: current, other, moved });
        if (moved.length > 0)
          violate(
            'AGENT-DETAIL-AGREES-WITH-LIST',
            'agent-detail-workload',
            `agent ${id} over from=${window.from} to=${window.to}: the agent list entry's workload is ${shown(moved, workload)}, the detail's currentWorkload ${shown(moved, current)} (nor is it the entry's workload over every action, from ${EVERYTHING_FROM} to now)`,
          );
        checks += 1;
      }
      return checks;
    }),
};
