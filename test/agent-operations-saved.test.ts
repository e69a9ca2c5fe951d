/**
 * Saved searches as a model-based test (fast-check commands): random sequences of create, update,
 * delete, get and list by two organizations against a plain model. Every answer matches the model:
 * each organization sees exactly its own searches, names stay unique per organization, ids are never
 * reused, and a reset empties everything.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createOperationsHarness,
  type OperationsHarness,
  ORG,
  OTHER_ORG,
} from './agent-operations-support.ts';

interface Entry {
  name: string;
  limit: number;
}
type Model = { orgs: Record<string, Map<string, Entry>>; everIssued: Set<string> };
interface Real {
  h: OperationsHarness;
}

const ORGS = [ORG, OTHER_ORG];
const ctxOf = (r: Real, org: string) => r.h.context('read_write', org);
const names = fc.constantFrom('alpha', 'beta', 'gamma', 'Alpha', 'ünïcode ✓');

/** Picks an id: one of the model's (any organization) or one that never existed. */
const pickId = (m: Model, index: number): string => {
  const all = [...ORGS.flatMap((org) => [...(m.orgs[org]?.keys() ?? [])]), 'ss_999999'];
  return all[index % all.length] ?? 'ss_999999';
};

class Create implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly org: string,
    readonly name: string,
    readonly limit: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const outcome = await r.h.call(
      'config.savedSearch.create',
      { name: this.name, query: { limit: this.limit } },
      ctxOf(r, this.org),
    );
    const mine = m.orgs[this.org] ?? new Map();
    const taken = [...mine.values()].some((e) => e.name === this.name);
    if (taken) {
      expect(outcome).toMatchObject({ ok: false, failure: { kind: 'conflict', field: '/name' } });
      return;
    }
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
    const id = (outcome.value as { id: string }).id;
    expect(typeof id).toBe('string');
    expect(m.everIssued.has(id)).toBe(false);
    m.everIssued.add(id);
    mine.set(id, { name: this.name, limit: this.limit });
  }
  toString = () => `create(${this.org}, ${this.name})`;
}

class Update implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly org: string,
    readonly pick: number,
    readonly name: string,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const id = pickId(m, this.pick);
    const outcome = await r.h.call('config.savedSearch.update', { id, name: this.name }, ctxOf(r, this.org));
    const mine = m.orgs[this.org] ?? new Map();
    const entry = mine.get(id);
    if (entry === undefined) {
      expect(outcome).toMatchObject({ ok: false, failure: { kind: 'not_found', field: '/id' } });
      return;
    }
    const clash = [...mine.entries()].some(([other, e]) => other !== id && e.name === this.name);
    if (clash) {
      expect(outcome).toMatchObject({ ok: false, failure: { kind: 'conflict' } });
      return;
    }
    expect(outcome.ok).toBe(true);
    entry.name = this.name;
  }
  toString = () => `update(${this.org}, #${this.pick}, ${this.name})`;
}

class Delete implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly org: string,
    readonly pick: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const id = pickId(m, this.pick);
    const outcome = await r.h.call('config.savedSearch.delete', { id }, ctxOf(r, this.org));
    const mine = m.orgs[this.org] ?? new Map();
    if (!mine.has(id)) {
      expect(outcome).toMatchObject({ ok: false, failure: { kind: 'not_found' } });
      return;
    }
    expect(outcome).toEqual({ ok: true, value: { id, deleted: true } });
    mine.delete(id);
  }
  toString = () => `delete(${this.org}, #${this.pick})`;
}

class ListAndGet implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly org: string,
    readonly pick: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const mine = m.orgs[this.org] ?? new Map();
    const list = (await r.h.value('config.savedSearch.list', {}, ctxOf(r, this.org)))['items'] as {
      id: string;
      name: string;
      query: { limit: number };
    }[];
    expect(list.map((s) => [s.id, s.name, s.query.limit])).toEqual(
      [...mine.entries()].map(([id, e]) => [id, e.name, e.limit]),
    );
    const id = pickId(m, this.pick);
    const got = await r.h.call('config.savedSearch.get', { id }, ctxOf(r, this.org));
    expect(got.ok).toBe(mine.has(id));
  }
  toString = () => `listAndGet(${this.org}, #${this.pick})`;
}

describe('config.savedSearch.* against a model', () => {
  it('AGENT-MCP-SAVEDSEARCH-ORG-SCOPED: random sequences by two organizations agree with the model', async () => {
    const org = fc.constantFrom(...ORGS);
    const commands = [
      fc.tuple(org, names, fc.integer({ min: 1, max: 100 })).map(([o, n, l]) => new Create(o, n, l)),
      fc.tuple(org, fc.nat(20), names).map(([o, p, n]) => new Update(o, p, n)),
      fc.tuple(org, fc.nat(20)).map(([o, p]) => new Delete(o, p)),
      fc.tuple(org, fc.nat(20)).map(([o, p]) => new ListAndGet(o, p)),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40 }), async (cmds) => {
        const h = createOperationsHarness({ actions: 30 });
        const model: Model = {
          orgs: Object.fromEntries(ORGS.map((o) => [o, new Map()])),
          everIssued: new Set(),
        };
        await fc.asyncModelRun(() => ({ model, real: { h } }), cmds);
        h.engine.admin.reset();
        for (const o of ORGS)
          expect(await h.value('config.savedSearch.list', {}, h.context('read_write', o))).toEqual({
            items: [],
          });
        expect(h.engine.selfCheckFailures).toEqual([]);
        expect(h.engine.unexpectedErrors).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
