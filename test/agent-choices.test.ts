/**
 * The agent interface follows the mock's choices where it shows the same data as REST (decisions:
 * `AGENT_REACH` in mocks/agent/choices.ts): a search item reads as the REST detail of the same
 * action under every status vocabulary and duration format, `status` conditions take the chosen
 * names (and `spec()` lists them), analytics groups by them, and the skill scripts use them. At the
 * defaults every agent answer is the one it was before choices existed (same objects, same catalog).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_REACH, actionItemOut } from '../mocks/agent/choices.ts';
import { CATALOG, catalogFor } from '../mocks/agent/operations/catalog.ts';
import { createOperationRegistry } from '../mocks/agent/operations/index.ts';
import { STATUSES } from '../mocks/agent/operations/vocabulary.ts';
import { createSandbox, type Sandbox } from '../mocks/agent/sandbox/index.ts';
import { createSkillTools } from '../mocks/agent/skills/index.ts';
import type { ChoicesOption } from '../mocks/engine/choices/index.ts';
import {
  CHOICE_NAMES,
  choiceValues,
  DEFAULT_CHOICES,
  normalizeChoices,
} from '../mocks/engine/choices/index.ts';
import { contractDocument } from '../src/contract/load.ts';
import { createOperationsHarness, type OperationsHarness } from './agent-operations-support.ts';

type Json = Record<string, unknown>;

const ALTERNATE_NAMES = ['OPEN', 'WAITING', 'ON_HOLD', 'RESOLVED', 'DISMISSED'];
const WINDOW = { dateRange: { relative: { unit: 'month', count: 3 } } };
const statusCondition = (value: string[]) => ({
  filterType: 'and',
  filters: [{ filterType: 'status', operator: 'in', value }],
});

/** One harness per combination of the two points the agent shows (engines are cheap at 600 actions). */
const harnesses = new Map<string, OperationsHarness>();
function harness(choices: ChoicesOption): OperationsHarness {
  const key = JSON.stringify(choices);
  let h = harnesses.get(key);
  if (h === undefined) {
    h = createOperationsHarness({ choices });
    harnesses.set(key, h);
  }
  return h;
}

afterAll(() => {
  for (const h of harnesses.values()) {
    expect(h.engine.selfCheckFailures).toEqual([]);
    expect(h.engine.unexpectedErrors).toEqual([]);
  }
});

describe('which choice points reach the agent interface', () => {
  it('every point is decided, and the agent follows exactly actionStatuses and durationFormat', () => {
    expect(Object.keys(AGENT_REACH).sort()).toEqual([...CHOICE_NAMES].sort());
    expect(CHOICE_NAMES.filter((n) => AGENT_REACH[n].reaches)).toEqual(['actionStatuses', 'durationFormat']);
  });

  it('at the defaults the agent answers as before choices: the same item objects, the catalog file itself', () => {
    const item = { status: 'PENDING', firstResponseTime: 'PT1M', handleTime: null };
    expect(actionItemOut(DEFAULT_CHOICES, item)).toBe(item);
    expect(catalogFor(DEFAULT_CHOICES).operations).toBe(CATALOG);
    expect(createOperationRegistry().spec('query.search.actions')).toBe(CATALOG[0]);
  });
});

describe('AGENT-MCP-BOTH-INTERFACES-AGREE under the choices: a search item reads as the REST detail', () => {
  it('status names and duration values of every item equal REST GET /v0/action/{id} (property over the choices)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...choiceValues('actionStatuses')),
        fc.constantFrom(...choiceValues('durationFormat')),
        async (actionStatuses, durationFormat) => {
          const h = harness({ actionStatuses, durationFormat });
          const page = await h.value('query.search.actions', { ...WINDOW, limit: 30 });
          const items = page['items'] as Json[];
          expect(items.length).toBe(30);
          for (const item of items) {
            const rest = await h.rest('GET', `/v0/action/${String(item['actionId'])}`);
            const detail = rest.body as Json;
            for (const key of ['status', 'firstResponseTime', 'handleTime'])
              expect(item[key], `${key} of ${String(item['actionId'])}`).toEqual(detail[key]);
          }
          const names = new Set(items.map((i) => i['status']));
          const allowed = actionStatuses === 'alternate' ? ALTERNATE_NAMES : [...STATUSES];
          for (const name of names) expect(allowed).toContain(name);
          const durations = items.map((i) => i['firstResponseTime']).filter((d) => typeof d === 'string');
          expect(durations.length).toBeGreaterThan(0);
          const format = { iso8601: /^PT/, seconds: /^\d+$/, clock: /^\d\d:\d\d:\d\d$/ }[durationFormat];
          for (const d of durations) expect(d).toMatch(format ?? /^$/);
        },
      ),
      { numRuns: 6, seed: 7, examples: [['alternate', 'seconds']] },
    );
  });

  it('a status condition takes the chosen names (and finds what REST filters by them); a name of another vocabulary is invalid input naming the value', async () => {
    const h = harness({ actionStatuses: 'alternate' });
    for (const name of ['WAITING', 'RESOLVED', 'OPEN']) {
      const page = await h.value('query.search.actions', {
        ...WINDOW,
        filter: statusCondition([name]),
        limit: 100,
      });
      const items = page['items'] as Json[];
      expect(items.length, name).toBeGreaterThan(0);
      for (const item of items) expect(item['status']).toBe(name);
      const rest = await h.rest(
        'GET',
        `/v0/conversations/search?${new URLSearchParams({ filter: `status=${name}`, pageSize: '1' })}`,
      );
      expect(rest.status).toBe(200);
      expect(((rest.body as Json)['data'] as Json[])[0]?.['status']).toBe(name);
    }
    const refused = await h.call('query.search.actions', { ...WINDOW, filter: statusCondition(['PENDING']) });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.failure).toMatchObject({ kind: 'invalid_input', field: '/filter/filters/0/value/0' });
      expect(refused.failure.message).toContain('WAITING');
    }
    // The default vocabulary is refused the other way round.
    const plain = harness({});
    const other = await plain.call('query.search.actions', {
      ...WINDOW,
      filter: statusCondition(['WAITING']),
    });
    expect(other.ok).toBe(false);
  });

  it('spec() lists the chosen names in the status enum; the catalog file keeps the defaults', () => {
    const enums = (schema: unknown): string[][] => {
      const found: string[][] = [];
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (typeof v === 'object' && v !== null)
          for (const [k, inner] of Object.entries(v)) {
            if (k === 'enum' && Array.isArray(inner) && inner.includes('OPEN')) found.push(inner as string[]);
            else walk(inner);
          }
      };
      walk(schema);
      return found;
    };
    const chosen = createOperationRegistry({ choices: normalizeChoices({ actionStatuses: 'alternate' }) });
    for (const id of ['query.search.actions', 'query.analytics.actions', 'config.savedSearch.create']) {
      const alternate = enums(chosen.spec(id)?.inputSchema);
      expect(alternate.length, id).toBeGreaterThan(0);
      for (const e of alternate) expect(e).toEqual(ALTERNATE_NAMES);
      for (const e of enums(createOperationRegistry().spec(id)?.inputSchema))
        expect(e).toEqual([...STATUSES]);
    }
    // Only the status enums change: the rest of the catalog is the file's.
    const text = JSON.stringify(catalogFor(normalizeChoices({ actionStatuses: 'alternate' })).operations);
    const renamed = STATUSES.slice(1).reduce(
      (t, s, i) => t.replaceAll(`"${s}"`, `"${ALTERNATE_NAMES[i + 1]}"`),
      JSON.stringify(CATALOG),
    );
    expect(text).toBe(renamed);
  });

  it('analytics groups by the chosen names, fillEmpty lists them, and each group counts what the search finds', async () => {
    const h = harness({ actionStatuses: 'alternate' });
    const answer = await h.value('query.analytics.actions', {
      v: 1,
      source: 'actions',
      ...WINDOW,
      lines: [{ measure: 'actions', aggregation: 'count' }],
      groupBy: [{ field: 'status' }],
      options: { fillEmpty: true },
    });
    const rows = answer['rows'] as { group: Json; values: Json }[];
    expect(rows.map((r) => r.group['status']).sort()).toEqual([...ALTERNATE_NAMES].sort());
    for (const row of rows.filter((r) => (r.values['actions.count'] as number) > 0).slice(0, 2)) {
      const status = String(row.group['status']);
      let found = 0;
      let cursor: string | null = null;
      do {
        const input: Json = { ...WINDOW, filter: statusCondition([status]), limit: 100 };
        if (cursor !== null) input['cursor'] = cursor;
        const page = await h.value('query.search.actions', input);
        found += (page['items'] as unknown[]).length;
        cursor = page['nextCursor'] as string | null;
      } while (cursor !== null);
      expect(found, status).toBe(row.values['actions.count']);
    }
  });
});

describe('the skill scripts speak the chosen status names', () => {
  let sandbox: Sandbox;
  const h = () => harness({ actionStatuses: 'alternate' });
  const tools = createSkillTools();
  const readFile = tools.find((t) => t.name === 'read_skill_file');
  const served = async (name: string, path: string): Promise<string> => {
    const out = await readFile?.handle(h().context(), { name, path });
    if (out === undefined || !out.ok) throw new Error(`read_skill_file ${name}/${path} failed`);
    return (out.value as { text: string }).text;
  };
  beforeAll(async () => {
    sandbox = createSandbox(createOperationRegistry({ choices: h().engine.options.choices }), {
      timeMs: 10_000,
    });
    await sandbox.ready();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('read_skill_file serves the status filters in the chosen names, and each such script runs', async () => {
    for (const [name, path] of [
      ['reply-to-customer-safely', 'scripts/find-unanswered.js'],
      ['triage-queue', 'scripts/triage-queue.js'],
    ] as const) {
      const text = await served(name, path);
      expect(text).toContain("['OPEN', 'WAITING', 'ON_HOLD']");
      expect(text).not.toContain("'PENDING'");
      const outcome = await sandbox.runScript(h().context(), text);
      expect(outcome.ok, JSON.stringify(outcome.ok ? null : outcome.failure).slice(0, 500)).toBe(true);
    }
    // At the defaults the file is served as shipped.
    const plain = await readFile?.handle(harness({}).context(), {
      name: 'triage-queue',
      path: 'scripts/triage-queue.js',
    });
    expect(plain?.ok && (plain.value as { text: string }).text).toContain("['OPEN', 'PENDING', 'ESCALATED']");
  });
});

describe('the REST contract keeps the status and duration fields open (what lets a deployment choose)', () => {
  it('ActionSummary status and durations carry no enum or pattern the choices would break', () => {
    const schemas = contractDocument.components?.schemas as Record<string, { properties: Json }>;
    for (const key of ['status', 'firstResponseTime', 'handleTime']) {
      const property = schemas['ActionSummary']?.properties[key] as Json;
      expect(property['enum']).toBeUndefined();
      expect(property['pattern']).toBeUndefined();
    }
  });
});
