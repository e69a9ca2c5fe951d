/**
 * Both interfaces share one engine (section 1): an action found through MCP is readable through REST
 * with a key of the same organization, under the same id bytes; an action of another organization is
 * found through neither (the connection fixes the organization, 4.18).
 */
import { violate } from '../../src/conformance/check.ts';
import type { Law } from '../../src/conformance/law.ts';
import { call } from '../laws/support.ts';
import { catalog } from './catalog.ts';
import { SEARCH, walk } from './search.ts';
import { Absent, agentExamples, isObj, requireTool, withSession } from './support.ts';

const GROUP = 'agent';
const WINDOW = { dateRange: { relative: { unit: 'month', count: 3 } }, limit: 100 };

const agree: Law = {
  id: 'agent.agree.rest-and-mcp',
  group: GROUP,
  title:
    'MCP search ids read through REST byte for byte; another organization finds none of them, through either',
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
      const sample = mine.ids.slice(0, 8);
      if (sample.length === 0) throw new Absent('no action in the last three months to compare');
      let checks = 0;
      for (const id of sample) {
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
