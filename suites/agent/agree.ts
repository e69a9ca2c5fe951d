/**
 * Both interfaces share one engine (section 1): an action found through MCP is readable through REST
 * with a key of the same organization, under the same id bytes, and reads the same there: a field the
 * search item carries under a REST field name (2.1) has the detail's value, and a `status` condition
 * takes the status names REST shows (whatever names the deployment chose: section 3 shows only OPEN).
 * An action of another organization is found through neither (the connection fixes the organization,
 * 4.18).
 */
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { literal, runScript } from '../../src/conformance/kit/mcp/script.ts';
import type { McpSession } from '../../src/conformance/kit/mcp/session.ts';
import { canonical } from '../laws/custom-fields.ts';
import { same, summaryVsDetail } from '../laws/reads-agree.ts';
import { call } from '../laws/support.ts';
import { catalog } from './catalog.ts';
import { SEARCH, walk } from './search.ts';
import { Absent, agentExamples, brief, isObj, type Json, requireTool, withSession } from './support.ts';

const GROUP = 'agent';
const WINDOW = { dateRange: { relative: { unit: 'month', count: 3 } }, limit: 100 };
/** Actions compared field by field, and status values tried as a filter. */
const SAMPLE = 8;
const STATUS_TRIES = 3;

/** The newest `SAMPLE` items of the window, whole (the items' shape is the deployment's, 2.8). */
async function newestItems(session: McpSession): Promise<Json[]> {
  const out = await runScript(
    session,
    `const page = await call(${literal(SEARCH)}, ${literal({ ...WINDOW, limit: SAMPLE })});
return Array.isArray(page && page.items) ? page.items : [];`,
  );
  return out.kind === 'value' && Array.isArray(out.value) ? out.value.filter(isObj) : [];
}

/** What a `status` condition with each value finds in the window's first page: ids, or the refusal. */
async function byStatus(
  session: McpSession,
  statuses: readonly string[],
): Promise<Record<string, { ids?: unknown[]; threw?: string }>> {
  const out = await runScript(
    session,
    `const found = {};
for (const status of ${literal(statuses)}) {
  const input = Object.assign({}, ${literal(WINDOW)}, { filter: { filterType: 'and', filters: [{ filterType: 'status', operator: 'in', value: [status] }] } });
  try {
    const page = await call(${literal(SEARCH)}, input);
    found[status] = { ids: (page.items || []).map((i) => i.actionId) };
  } catch (e) {
    found[status] = { threw: String(e && e.message) };
  }
}
return found;`,
  );
  if (out.kind !== 'value' || !isObj(out.value))
    violate(
      'AGENT-MCP-BOTH-INTERFACES-AGREE',
      'status-filter-script',
      `searching by status values ${statuses.join(', ')} did not answer: ${brief(out.kind === 'failed' ? out.text : out)}`,
      { statuses },
    );
  return out.value as Record<string, { ids?: unknown[]; threw?: string }>;
}

/** A search item against the REST detail: every field the item carries under a REST name (2.1). */
function compareItem(id: string, item: Json, detail: Json): number {
  let checks = 0;
  for (const [label, a, b] of summaryVsDetail(item, detail)) {
    const key = label.split(' ')[0] ?? label;
    if (!(key in item)) continue;
    checks += 1;
    if (!same(key, a, b))
      violate(
        'AGENT-MCP-BOTH-INTERFACES-AGREE',
        `disagree:${key}`,
        `action ${JSON.stringify(id)}: ${label} reads ${canonical(a)} through MCP and ${canonical(b)} through REST`,
        { actionId: id },
      );
  }
  return checks;
}

const agree: Law = {
  id: 'agent.agree.rest-and-mcp',
  group: GROUP,
  title:
    'MCP search items read through REST byte for byte and with the same values (status names, durations...), a status REST shows finds the action through MCP; another organization finds none of them, through either',
  ruleIds: [
    'AGENT-MCP-BOTH-INTERFACES-AGREE',
    'AGENT-MCP-IDS-STRINGS-PRESERVED',
    'AGENT-MCP-ORG-FIXED-BY-CONNECTION',
  ],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await requireTool(ctx, 'read', 'execute');
      if (!(await catalog(ctx)).some((e) => e.id === SEARCH))
        throw new Absent(`spec() does not list ${SEARCH}`);
      const mine = await withSession(ctx, 'read', (s) => walk(s, WINDOW, { maxPages: 20 }));
      const items = await withSession(ctx, 'read', newestItems);
      const sample = items.length > 0 ? items.map((i) => String(i['actionId'])) : mine.ids.slice(0, SAMPLE);
      if (sample.length === 0) throw new Absent('no action in the last three months to compare');
      let checks = 0;
      /** Status values REST shows for the sampled actions, with the actions showing each. */
      const restStatuses = new Map<string, string[]>();
      for (const [i, id] of sample.entries()) {
        const res = await call(ctx, 'getAction', { auth: 'read', path: { id } });
        if (res.status !== 200)
          violate(
            'AGENT-MCP-BOTH-INTERFACES-AGREE',
            'rest-missing',
            `action ${JSON.stringify(id)} found through MCP answers ${res.status} through REST`,
            { actionId: id },
          );
        if (!res.raw.includes(`"actionId":${JSON.stringify(id)}`))
          violate(
            'AGENT-MCP-IDS-STRINGS-PRESERVED',
            'id-bytes',
            `REST shows action ${JSON.stringify(id)} under other id bytes`,
            { actionId: id },
          );
        checks += 1;
        const item = items[i];
        const detail = res.ok && isObj(res.body) ? res.body : undefined;
        // An action updated between the two reads changed meanwhile: nothing to judge.
        if (
          item === undefined ||
          detail === undefined ||
          !same('updatedAt', item['updatedAt'], detail['updatedAt'])
        )
          continue;
        checks += compareItem(id, item, detail);
        if (typeof detail['status'] === 'string')
          restStatuses.set(detail['status'], [...(restStatuses.get(detail['status']) ?? []), id]);
      }
      const tried = [...restStatuses.keys()].slice(0, STATUS_TRIES);
      if (tried.length > 0) {
        // The sample is the window's newest actions, so each is on the first page of its own status.
        const found = await withSession(ctx, 'read', (s) => byStatus(s, tried));
        for (const status of tried) {
          const answer = found[status];
          if (answer === undefined || answer.threw !== undefined || !Array.isArray(answer.ids))
            violate(
              'AGENT-MCP-BOTH-INTERFACES-AGREE',
              'status-filter-refused',
              `REST shows status ${JSON.stringify(status)}, but a ${SEARCH} status condition with it ${answer?.threw === undefined ? 'answered no items' : `threw: ${answer.threw}`}`,
              { status },
            );
          const ids = new Set(answer.ids.map(String));
          const missed = (restStatuses.get(status) ?? []).find((id) => !ids.has(id));
          if (missed !== undefined)
            violate(
              'AGENT-MCP-BOTH-INTERFACES-AGREE',
              'status-filter-misses',
              `action ${JSON.stringify(missed)} has status ${JSON.stringify(status)} through REST, but a ${SEARCH} status condition with that value does not find it`,
              { status, actionId: missed },
            );
          checks += 1;
        }
      }
      if (ctx.client.hasKey('otherOrgRead')) {
        for (const id of sample.slice(0, 3)) {
          const res = await call(ctx, 'getAction', { auth: 'otherOrgRead', path: { id } });
          if (res.status === 200 && isObj(res.ok ? res.body : undefined))
            violate(
              'AGENT-MCP-ORG-FIXED-BY-CONNECTION',
              'rest-other-org',
              `another organization's key reads action ${id} through REST`,
              { actionId: id },
            );
          checks += 1;
        }
        const names = await withSession(ctx, 'otherOrgRead', async (s) =>
          (await s.listTools()).map((t) => t.name),
        );
        if (names.includes('execute')) {
          const theirs = await withSession(ctx, 'otherOrgRead', (s) => walk(s, WINDOW, { maxPages: 20 }));
          const shared = theirs.ids.find((id) => mine.ids.includes(id));
          if (shared !== undefined)
            violate(
              'AGENT-MCP-ORG-FIXED-BY-CONNECTION',
              'mcp-other-org',
              `another organization's key finds action ${shared} through MCP`,
              { actionId: shared },
            );
          checks += 1;
        }
      }
      return checks;
    }),
};

export const agreeLaws: readonly Law[] = [agree];
