/**
 * Saved searches (writes) as a model-based property (`fc.commands`): sequences of create, get,
 * update, list and delete through `execute` against a model, with another organization's key
 * never seeing them. Everything created is deleted at the end of each sequence.
 */
import fc from 'fast-check';
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { literal, runScript, type ScriptOutcome } from '../../src/conformance/kit/mcp/script.ts';
import { McpSession } from '../../src/conformance/kit/mcp/session.ts';
import { catalog } from './catalog.ts';
import { Absent, agentProperty, brief, isObj, requireTool } from './support.ts';

const GROUP = 'agent';
const RULE = 'AGENT-MCP-SAVEDSEARCH-STORE';
const ORG_RULE = 'AGENT-MCP-SAVEDSEARCH-ORG-SCOPED';
const OPS = ['create', 'get', 'update', 'list', 'delete'].map((op) => `config.savedSearch.${op}`);

interface Model {
  /** Our saved searches by id: their name and limit. */
  readonly searches: Map<string, { name: string; limit: number }>;
  /** Ids deleted (get must fail). */
  readonly deleted: string[];
}

interface Real {
  readonly ctx: LawContext;
  readonly mine: McpSession;
  readonly other: McpSession | undefined;
}

async function op(session: McpSession, id: string, input: unknown): Promise<ScriptOutcome> {
  return runScript(session, `return await call(${literal(`config.savedSearch.${id}`)}, ${literal(input)});`);
}

function value(
  out: ScriptOutcome,
  what: string,
  rule = 'AGENT-MCP-EXECUTE-CALL-RETURNS-OUTPUT',
): Record<string, unknown> {
  if (out.kind !== 'value' || !isObj(out.value))
    violate(rule, `failed-${what}`, `${what} failed: ${out.kind === 'threw' ? out.message : brief(out)}`);
  return out.value;
}

/** The saved-search ids a list answers (items of objects with `id`). */
function listedIds(out: Record<string, unknown>): string[] {
  const items = Array.isArray(out['items']) ? out['items'] : (Object.values(out).find(Array.isArray) ?? []);
  return (items as unknown[]).filter(isObj).map((i) => String(i['id']));
}

type Cmd = fc.AsyncCommand<Model, Real>;
const pick = <T>(xs: readonly T[], n: number): T | undefined => xs[n % Math.max(1, xs.length)];

class Create implements Cmd {
  constructor(readonly limit: number) {}
  check = (m: Readonly<Model>) => m.searches.size < 6;
  async run(m: Model, r: Real) {
    const name = r.ctx.unique('saved');
    const created = value(
      await op(r.mine, 'create', {
        name,
        query: { dateRange: { relative: { unit: 'day', count: 7 } }, limit: this.limit },
      }),
      'create',
    );
    if (typeof created['id'] !== 'string')
      violate(RULE, 'create-id', `create answered no id: ${brief(created)}`);
    m.searches.set(created['id'], { name, limit: this.limit });
  }
  toString = () => `create(limit ${this.limit})`;
}

class Get implements Cmd {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.searches.size > 0;
  async run(m: Model, r: Real) {
    const id = pick([...m.searches.keys()], this.n) ?? '';
    const got = value(await op(r.mine, 'get', { id }), 'get');
    const want = m.searches.get(id);
    const query = isObj(got['query']) ? got['query'] : {};
    if (got['name'] !== want?.name || query['limit'] !== want?.limit)
      violate(RULE, 'get-differs', `get ${id} answered ${brief(got)}, the model holds ${brief(want)}`);
  }
  toString = () => `get(#${this.n})`;
}

class Update implements Cmd {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.searches.size > 0;
  async run(m: Model, r: Real) {
    const id = pick([...m.searches.keys()], this.n) ?? '';
    const name = r.ctx.unique('renamed');
    value(await op(r.mine, 'update', { id, name }), 'update');
    const was = m.searches.get(id);
    if (was !== undefined) m.searches.set(id, { ...was, name });
    const got = value(await op(r.mine, 'get', { id }), 'get after update');
    if (got['name'] !== name)
      violate(
        RULE,
        'update-lost',
        `after update of ${id} to name ${name}, get answers ${brief(got['name'])}`,
      );
  }
  toString = () => `update(#${this.n})`;
}

class List implements Cmd {
  check = () => true;
  async run(m: Model, r: Real) {
    const prefix = r.ctx.prefix;
    const listed = value(await op(r.mine, 'list', {}), 'list');
    const ours = listedIds(listed).filter((id) => m.searches.has(id) || m.deleted.includes(id));
    const want = [...m.searches.keys()].sort();
    if (ours.sort().join() !== want.join())
      violate(
        RULE,
        'list-differs',
        `list shows ${ours.length} of this run's searches (${prefix}), the model holds ${want.length}`,
      );
  }
  toString = () => 'list()';
}

class Delete implements Cmd {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.searches.size > 0;
  async run(m: Model, r: Real) {
    const id = pick([...m.searches.keys()], this.n) ?? '';
    value(await op(r.mine, 'delete', { id }), 'delete');
    m.searches.delete(id);
    m.deleted.push(id);
    const again = await op(r.mine, 'get', { id });
    if (again.kind === 'value')
      violate(RULE, 'deleted-readable', `get of deleted search ${id} still answers it`);
  }
  toString = () => `delete(#${this.n})`;
}

class OtherOrg implements Cmd {
  check = (m: Readonly<Model>) => m.searches.size > 0;
  async run(m: Model, r: Real) {
    if (r.other === undefined) return;
    const listed = value(await op(r.other, 'list', {}), 'another organization list');
    const seen = listedIds(listed).find((id) => m.searches.has(id));
    if (seen !== undefined)
      violate(ORG_RULE, 'other-org-lists', `another organization's key lists saved search ${seen}`);
    for (const id of m.searches.keys()) {
      const got = await op(r.other, 'get', { id });
      if (got.kind === 'value')
        violate(ORG_RULE, 'other-org-gets', `another organization's key gets saved search ${id}`);
    }
  }
  toString = () => 'otherOrganization()';
}

const commands = fc.commands(
  [
    fc.integer({ min: 1, max: 100 }).map((n) => new Create(n)),
    fc.nat(9).map((n) => new Get(n)),
    fc.nat(9).map((n) => new Update(n)),
    fc.constant(new List()),
    fc.nat(9).map((n) => new Delete(n)),
    fc.constant(new OtherOrg()),
  ],
  { maxCommands: 10, size: 'medium' },
);

/**
 * Each sequence starts with a create and ends with an update, a get, a list and another
 * organization's look, so every run exercises every operation whatever the random middle holds.
 */
const sequences = fc
  .tuple(fc.integer({ min: 1, max: 100 }), commands)
  .map(([limit, middle]) => [
    new Create(limit),
    ...middle,
    new Update(0),
    new Get(0),
    new List(),
    new OtherOrg(),
  ]);

const savedSearches: Law = {
  id: 'agent.saved-searches.model',
  group: GROUP,
  title: 'create/get/update/list/delete sequences agree with a model; another organization never sees them',
  ruleIds: [RULE, ORG_RULE],
  needs: { keys: ['readWrite'], writes: true },
  run: async (ctx) => {
    try {
      await requireTool(ctx, 'readWrite', 'execute');
      const listed = (await catalog(ctx).catch(() => [])).map((e) => e.id);
      if (listed.length > 0 && OPS.some((id) => !listed.includes(id)))
        throw new Absent(`spec() lacks some of ${OPS.join(', ')}`);
    } catch (error) {
      if (error instanceof Absent) return { kind: 'not-run', ruleIds: ctx.ruleIds, reason: error.message };
      throw error;
    }
    const mine = await McpSession.open(ctx.mcp, 'readWrite');
    const other = ctx.client.hasKey('otherOrgRead')
      ? await McpSession.open(ctx.mcp, 'otherOrgRead')
      : undefined;
    try {
      return await agentProperty(
        ctx,
        sequences,
        async (cmds) => {
          const model: Model = { searches: new Map(), deleted: [] };
          try {
            await fc.asyncModelRun(() => ({ model, real: { ctx, mine, other } }), cmds);
          } finally {
            for (const id of model.searches.keys()) await op(mine, 'delete', { id });
          }
        },
        { runs: Math.min(ctx.runs, 5), format: (value) => (value as unknown[]).map(String).join(', ') },
      );
    } finally {
      await mine.close();
      await other?.close();
    }
  },
};

export const savedSearchLaws: readonly Law[] = [savedSearches];
