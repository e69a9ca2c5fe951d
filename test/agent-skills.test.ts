/**
 * The skill tools and their playbooks: what they list and serve, what they refuse (unlisted files,
 * traversal, absolute and encoded paths, backslashes, another skill's files, symlinks), and every
 * listed script run for real in the `execute` sandbox (QuickJS in worker threads) against a mock
 * engine, checked against REST over the same window.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import skillsContract from '../contract/agent/skills.json' with { type: 'json' };
import { createSandbox, type Sandbox } from '../mocks/agent/sandbox/index.ts';
import {
  createSkillLibrary,
  createSkillTools,
  defaultPlaybooksRoot,
  loadSkills,
} from '../mocks/agent/skills/index.ts';
import type { AgentContext } from '../mocks/agent/types.ts';
import { compileIn, createAjv } from '../src/contract/validator-schemas.ts';
import { createOperationsHarness, type OperationsHarness, START } from './agent-operations-support.ts';

const library = createSkillLibrary();
const ajv = createAjv({
  openapi: '3.1.0',
  info: { title: 's', version: '1' },
  paths: {},
  'x-skills': skillsContract,
} as unknown as OpenAPIV3_1.Document);
const tools = skillsContract.tools as Record<string, { inputSchema: object; outputSchema: object }>;
const outputValid = (tool: string, value: unknown) => {
  const validate = compileIn(ajv, tools[tool]?.outputSchema);
  const ok = validate(value);
  if (!ok) throw new Error(`${tool} output invalid: ${JSON.stringify(validate.errors)}`);
  return ok;
};
const value = <T>(outcome: { ok: true; value: T } | { ok: false; failure: unknown }): T => {
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
  return outcome.value;
};

describe('list_skills, read_skill, read_skill_file', () => {
  it('AGENT-MCP-SKILL-TOOLS-LISTED, AGENT-MCP-SKILL-FILES-READABLE: the four playbooks, each with its files; outputs match contract/agent/skills.json', () => {
    const list = value(library.list());
    outputValid('list_skills', list);
    expect(list.skills.map((s) => s.name)).toEqual([
      'export-actions-window',
      'reply-to-customer-safely',
      'triage-queue',
      'weekly-sentiment-report',
    ]);
    for (const skill of list.skills) {
      expect(skill.files.some((f) => f.kind === 'script')).toBe(true);
      const read = value(library.read(skill.name));
      outputValid('read_skill', read);
      expect(read.text).toMatch(/^# /);
      for (const file of skill.files) {
        const served = value(library.readFile(skill.name, file.path));
        outputValid('read_skill_file', served);
        expect(served.text.length).toBeGreaterThan(50);
        // Every playbook text mentions the files it lists.
        expect(read.text).toContain(file.path.split('/')[1]?.replace(/\.(js|md)$/, '') ?? '');
      }
    }
  });

  it('the tools answer through AgentTool.handle', async () => {
    const [list, read, readFile] = createSkillTools();
    const ctx = { identity: { profile: 'read_write', scopes: ['read', 'write'] } } as unknown as AgentContext;
    expect(list?.name).toBe('list_skills');
    expect((await list?.handle(ctx, {}))?.ok).toBe(true);
    expect((await read?.handle(ctx, { name: 'triage-queue' }))?.ok).toBe(true);
    const file = await readFile?.handle(ctx, { name: 'triage-queue', path: 'notes/priorities.md' });
    expect(file?.ok && (file.value as { text: string }).text).toContain('Very negative');
  });

  it('list_skills lists only the playbooks the key can carry out (its tools and scopes)', async () => {
    const [list] = createSkillTools();
    const names = async (profile: string, scopes: string[]) => {
      const ctx = { identity: { profile, scopes } } as unknown as AgentContext;
      const answer = await list?.handle(ctx, {});
      if (answer === undefined || !answer.ok) throw new Error('list_skills failed');
      return (answer.value as { skills: { name: string }[] }).skills.map((s) => s.name).sort();
    };
    const all = [
      'export-actions-window',
      'reply-to-customer-safely',
      'triage-queue',
      'weekly-sentiment-report',
    ];
    expect(await names('read_write', ['read', 'write'])).toEqual(all);
    // Reporting: execute but no reply tools.
    expect(await names('reporting', ['read'])).toEqual(all.filter((n) => n !== 'reply-to-customer-safely'));
    // Write: reply tools but no execute; Import: neither.
    expect(await names('write', ['write'])).toEqual([]);
    expect(await names('import', ['ingest', 'ingest:read'])).toEqual([]);
  });

  const profiles: Array<[string, string[]]> = [
    ['reporting', ['read']],
    ['write', ['write']],
    ['read_write', ['read', 'write']],
    ['import', ['ingest', 'ingest:read']],
  ];
  it.each(profiles)(
    'AGENT-MCP-SKILL-TOOLS-LISTED: for a %s key, read_skill and read_skill_file serve exactly what list_skills lists',
    async (profile, scopes) => {
      const [list, read, readFile] = createSkillTools();
      const ctx = { identity: { profile, scopes } } as unknown as AgentContext;
      const listed = await list?.handle(ctx, {});
      if (listed === undefined || !listed.ok) throw new Error('list_skills failed');
      const names = (listed.value as { skills: { name: string }[] }).skills.map((s) => s.name).sort();
      const served: string[] = [];
      for (const skill of library.skills) {
        const answer = await read?.handle(ctx, { name: skill.name });
        const note = skill.files.find((f) => f.kind !== 'script') ?? skill.files[0];
        const file = await readFile?.handle(ctx, { name: skill.name, path: note?.path });
        expect(file?.ok, `${profile}: read_skill_file ${skill.name} agrees with read_skill`).toBe(answer?.ok);
        if (answer?.ok === true) served.push(skill.name);
        else {
          expect(answer?.ok === false && answer.failure).toMatchObject({ kind: 'not_found', field: '/name' });
          expect(answer?.ok === false && answer.failure.message).toContain(
            `list_skills lists: ${names.join(', ') || 'none'}`,
          );
        }
      }
      expect(served.sort()).toEqual(names);
    },
  );

  const refused: Array<[string, string, string, 'invalid_input' | 'not_found']> = [
    ['an unlisted file of the skill', 'export-actions-window', 'skill.json', 'not_found'],
    ['the playbook text itself (read_skill serves it)', 'export-actions-window', 'SKILL.md', 'not_found'],
    ["another skill's file", 'export-actions-window', 'scripts/weekly-sentiment.js', 'not_found'],
    [
      '../ traversal',
      'export-actions-window',
      '../weekly-sentiment-report/scripts/weekly-sentiment.js',
      'invalid_input',
    ],
    ['traversal inside a listed folder', 'export-actions-window', 'scripts/../skill.json', 'invalid_input'],
    ['an absolute path', 'export-actions-window', '/etc/passwd', 'invalid_input'],
    ['a Windows drive path', 'export-actions-window', 'C:/Windows/win.ini', 'invalid_input'],
    ['percent-encoded traversal', 'export-actions-window', '%2e%2e/skill.json', 'invalid_input'],
    ['a percent-encoded slash', 'export-actions-window', 'scripts%2Fexport-page.js', 'invalid_input'],
    ['a backslash', 'export-actions-window', 'scripts\\export-page.js', 'invalid_input'],
    ['a NUL byte', 'export-actions-window', 'scripts/export-page.js\u0000', 'invalid_input'],
    ['a dot segment', 'export-actions-window', './scripts/export-page.js', 'invalid_input'],
    ['an empty segment', 'export-actions-window', 'scripts//export-page.js', 'invalid_input'],
    ['a different case', 'export-actions-window', 'Scripts/export-page.js', 'not_found'],
  ];
  it.each(refused)(
    'AGENT-MCP-SKILL-FILE-ONLY-LISTED: read_skill_file refuses %s, naming path',
    (_what, name, path, kind) => {
      const outcome = library.readFile(name, path);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.failure).toMatchObject({ kind, field: '/path' });
        expect(outcome.failure.message).toContain('path');
      }
    },
  );

  it('an unknown skill is not_found naming name; wrong argument types are invalid input', () => {
    expect(library.read('../triage-queue')).toMatchObject({
      ok: false,
      failure: { kind: 'not_found', field: '/name' },
    });
    expect(library.readFile('nope', 'scripts/x.js')).toMatchObject({
      ok: false,
      failure: { field: '/name' },
    });
    expect(library.readFile('triage-queue', 42)).toMatchObject({
      ok: false,
      failure: { kind: 'invalid_input', field: '/path' },
    });
  });

  it('a playbook whose listed file is a symbolic link does not load (and an unlisted link is never served)', () => {
    const root = mkdtempSync(join(tmpdir(), 'cca-skills-'));
    try {
      cpSync(join(defaultPlaybooksRoot(), 'triage-queue'), join(root, 'triage-queue'), { recursive: true });
      symlinkSync('/etc/hostname', join(root, 'triage-queue', 'notes', 'host.md'));
      // Unlisted: loads, and the link cannot be read through the tool.
      const lib = createSkillLibrary({ root });
      expect(lib.readFile('triage-queue', 'notes/host.md')).toMatchObject({
        ok: false,
        failure: { kind: 'not_found' },
      });
      rmSync(join(root, 'triage-queue', 'notes', 'priorities.md'));
      symlinkSync('/etc/hostname', join(root, 'triage-queue', 'notes', 'priorities.md'));
      expect(() => loadSkills(root)).toThrow(/symbolic link/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a playbook file over the size bound does not load', () => {
    const root = mkdtempSync(join(tmpdir(), 'cca-skills-'));
    try {
      mkdirSync(join(root, 'big', 'notes'), { recursive: true });
      writeFileSync(join(root, 'big', 'SKILL.md'), '# Big\n');
      writeFileSync(join(root, 'big', 'notes', 'huge.md'), 'x'.repeat(64 * 1024 + 1));
      writeFileSync(
        join(root, 'big', 'skill.json'),
        JSON.stringify({
          name: 'big',
          title: 't',
          summary: 's',
          files: [{ path: 'notes/huge.md', kind: 'note', description: 'd' }],
        }),
      );
      expect(() => loadSkills(root)).toThrow(/more than 65536/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('every listed script runs in the execute sandbox and does what its playbook says', () => {
  let h: OperationsHarness;
  let sandbox: Sandbox;
  beforeAll(async () => {
    h = createOperationsHarness({ actions: 3000 });
    // A larger result limit: the export test also reads a whole window in one run.
    sandbox = createSandbox(h.registry, { timeMs: 10_000, resultBytes: 4 * 1024 * 1024 });
    await sandbox.ready();
  });
  afterAll(async () => {
    await sandbox.close();
    expect(h.engine.selfCheckFailures).toEqual([]);
    expect(h.engine.unexpectedErrors).toEqual([]);
  });

  const script = (skill: string, path: string) => value(library.readFile(skill, path)).text;
  const run = async (text: string, ctx = h.context()) => {
    const outcome = await sandbox.runScript(ctx, text);
    if (!outcome.ok) throw new Error(`script failed: ${JSON.stringify(outcome.failure).slice(0, 800)}`);
    return outcome.value.result as Record<string, unknown>;
  };
  const total = async (from: string, to: string, fullFilter: string) =>
    Number(
      (
        (
          await h.rest(
            'GET',
            `/v0/action/list?${new URLSearchParams({ from, to, pageSize: '1', fullFilter })}`,
          )
        ).body as Record<string, unknown>
      )['totalRecords'],
    );

  it('every listed script is covered below', () => {
    const covered = new Set([
      'export-actions-window/scripts/export-page.js',
      'export-actions-window/scripts/save-export-query.js',
      'weekly-sentiment-report/scripts/weekly-sentiment.js',
      'weekly-sentiment-report/scripts/sentiment-by-source.js',
      'reply-to-customer-safely/scripts/find-unanswered.js',
      'triage-queue/scripts/queue-overview.js',
      'triage-queue/scripts/triage-queue.js',
    ]);
    const listed = library.skills.flatMap((s) =>
      s.files.filter((f) => f.kind === 'script').map((f) => `${s.name}/${f.path}`),
    );
    expect(new Set(listed)).toEqual(covered);
  });

  it('AGENT-MCP-LONG-EXPORT-RESUMES-WITH-CURSOR, AGENT-MCP-EXECUTE-CALL-RETURNS-OUTPUT: export-page.js resumed run by run from the saved cursor gives every action once', async () => {
    const text = script('export-actions-window', 'scripts/export-page.js');
    const full = await run(text.replace('const MAX_PAGES = 1;', 'const MAX_PAGES = 1000;'));
    expect(full['done']).toBe(true);
    const all = (full['items'] as Record<string, unknown>[]).map((i) => i['actionId']);
    expect(all.length).toBe(
      await total(new Date(START - 30 * 86_400_000).toISOString(), new Date(START).toISOString(), ''),
    );
    const oneRun = text.replace('limit: 100,', 'limit: 40,');
    const resumed: unknown[] = [];
    let cursor: unknown = null;
    let runs = 0;
    do {
      const result = await run(
        oneRun.replace('const CURSOR = null;', `const CURSOR = ${JSON.stringify(cursor)};`),
      );
      resumed.push(...(result['items'] as Record<string, unknown>[]).map((i) => i['actionId']));
      cursor = result['nextCursor'];
      runs++;
      expect(result['done']).toBe(cursor === null);
    } while (cursor !== null && runs < 100);
    expect(runs).toBeGreaterThan(1);
    expect(resumed).toEqual(all);
  });

  it('save-export-query.js stores the query once; a second run finds it instead of creating again', async () => {
    const text = script('export-actions-window', 'scripts/save-export-query.js');
    const first = await run(text);
    const second = await run(text);
    expect(first['created']).toBe(true);
    expect(second['created']).toBe(false);
    expect((second['savedSearch'] as Record<string, unknown>)['id']).toBe(
      (first['savedSearch'] as Record<string, unknown>)['id'],
    );
    // A key without write scope finds nothing under a new name and cannot create it: the script fails.
    const forbidden = await sandbox.runScript(
      h.context('reporting'),
      text.replace("'export: last 30 days'", "'another name'"),
    );
    expect(forbidden.ok).toBe(false);
    if (!forbidden.ok) expect(forbidden.failure.message).toMatch(/write/);
  });

  it('weekly-sentiment.js: four complete Monday weeks whose label counts add up to the REST list total', async () => {
    const result = await run(script('weekly-sentiment-report', 'scripts/weekly-sentiment.js'));
    const range = result['dateRange'] as { from: string; to: string };
    expect(range).toEqual({ from: '2026-10-19T00:00:00.000Z', to: '2026-11-15T23:59:59.999Z' });
    const weeks = result['weeks'] as { week: string; actions: number; bySentiment: Record<string, number> }[];
    expect(weeks.map((w) => w.week)).toEqual(['2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09']);
    for (const week of weeks) {
      const labelled = Object.values(week.bySentiment).reduce((a, b) => a + b, 0);
      const from = `${week.week}T00:00:00.000Z`;
      const to = new Date(Date.parse(from) + 7 * 86_400_000 - 1).toISOString();
      expect(week.actions).toBe(await total(from, to, ''));
      // Actions without a label are not in the week × sentiment rows unless present; never more than the total.
      expect(labelled).toBeLessThanOrEqual(week.actions);
      expect(week.bySentiment['Negative'] ?? 0).toBe(await total(from, to, 'sentiment=Negative'));
    }
  });

  it('sentiment-by-source.js: every source of the week, worst average first, volumes adding up', async () => {
    const result = await run(script('weekly-sentiment-report', 'scripts/sentiment-by-source.js'));
    const range = result['dateRange'] as { from: string; to: string };
    const sources = result['sources'] as {
      source: string;
      actions: number;
      averageScore: number | null;
      negative: number;
    }[];
    expect(sources.reduce((n, s) => n + s.actions, 0)).toBe(await total(range.from, range.to, ''));
    for (let i = 1; i < sources.length; i++)
      expect(sources[i - 1]?.averageScore ?? 0).toBeLessThanOrEqual(sources[i]?.averageScore ?? 0);
    for (const s of sources) expect(s.negative).toBeLessThanOrEqual(s.actions);
  });

  it('find-unanswered.js: the open, pending and escalated actions without a response, oldest first', async () => {
    const result = await run(script('reply-to-customer-safely', 'scripts/find-unanswered.js'));
    const from = new Date(START - 7 * 86_400_000).toISOString();
    const to = new Date(START).toISOString();
    let expected = 0;
    for (const status of ['OPEN', 'PENDING', 'ESCALATED'])
      expected += await total(from, to, `status=${status}+responded=false`);
    expect(result['waiting']).toBe(expected);
    const actions = result['actions'] as { actionId: unknown; createdAt: string }[];
    expect(actions.length).toBe(Math.min(20, expected));
    for (let i = 1; i < actions.length; i++)
      expect((actions[i - 1]?.createdAt ?? '') <= (actions[i]?.createdAt ?? '')).toBe(true);
    for (const a of actions) expect(typeof a.actionId).toBe('string');
  });

  it('queue-overview.js and triage-queue.js: per-queue load, then one queue ranked by sentiment and wait', async () => {
    const overview = await run(script('triage-queue', 'scripts/queue-overview.js'));
    const queues = overview['queues'] as { queue: string | null; actions: number; unanswered: number }[];
    const range = overview['dateRange'] as { from: string; to: string };
    expect(queues.reduce((n, q) => n + q.actions, 0)).toBe(await total(range.from, range.to, ''));
    for (const q of queues) expect(q.unanswered).toBeLessThanOrEqual(q.actions);
    const triage = await run(script('triage-queue', 'scripts/triage-queue.js'));
    expect(typeof triage['queue']).toBe('string');
    const ranked = triage['actions'] as { sentiment: string | null; createdAt: string }[];
    expect(ranked.length).toBeGreaterThan(0);
    const rank = (s: string | null) =>
      ({ 'Very Negative': 0, Negative: 1, Neutral: 2, Positive: 3 })[s ?? 'Neutral'] ?? 2;
    for (let i = 1; i < ranked.length; i++) {
      const a = ranked[i - 1];
      const b = ranked[i];
      if (a === undefined || b === undefined) continue;
      expect(
        rank(a.sentiment) < rank(b.sentiment) ||
          (rank(a.sentiment) === rank(b.sentiment) && a.createdAt <= b.createdAt),
      ).toBe(true);
    }
  });
});
