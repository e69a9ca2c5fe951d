/**
 * The audit of the spec, sentence by sentence (contract/audit.json), against the rules catalog and the
 * conformance laws: every REST rule has a law that checks it on a live target or a stated reason why
 * no black-box check can; every rule comes from a sentence; docs/rules.md is generated from all three.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  agentAudit,
  agentRules,
  audit,
  isAgentInterfaceRule,
  lawsByRule,
  RULES_DOC_PATH,
  restRules,
  rulesDoc,
} from '../scripts/rules-doc.ts';
import { rules } from '../src/contract/rules.ts';

const laws = lawsByRule();
const hasLaw = (id: string): boolean => (laws.get(id)?.length ?? 0) > 0;
const known = new Set(rules.map((r) => r.id));

describe('the spec audit (contract/audit.json)', () => {
  it('every REST rule has a law that checks it on a live target, or a stated reason why none can', () => {
    const orphans = restRules
      .filter((r) => !hasLaw(r.id) && audit.noLaw[r.id] === undefined)
      .map((r) => r.id);
    expect(orphans).toEqual([]);
  });

  it('a stated reason is only given for a REST rule that no law checks (no stale reasons)', () => {
    const stale = Object.keys(audit.noLaw).filter(
      (id) => !known.has(id) || hasLaw(id) || isAgentInterfaceRule({ id }),
    );
    expect(stale).toEqual([]);
    for (const reason of Object.values(audit.noLaw)) expect(reason.length).toBeGreaterThan(30);
  });

  it('every sentence names known rules or the reason it became none, never both', () => {
    const bad = audit.sentences.filter(
      (s) =>
        (s.rules === undefined) === (s.none === undefined) ||
        (s.rules !== undefined && (s.rules.length === 0 || s.rules.some((id) => !known.has(id)))),
    );
    expect(bad).toEqual([]);
  });

  it('every REST rule comes from at least one audited sentence, and no sentence cites an agent rule', () => {
    const cited = new Set(audit.sentences.flatMap((s) => s.rules ?? []));
    expect(restRules.filter((r) => !cited.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(agentRules.filter((r) => cited.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('covers sections 1 to 9 of the spec, each sentence under a heading of the spec', () => {
    const spec = readFileSync(new URL('../../shared/interface-spec.md', import.meta.url), 'utf8');
    const headings = new Set([...spec.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]));
    const sections = new Set(audit.sentences.map((s) => s.section));
    for (const top of ['1', '2', '3', '4', '5', '6', '7', '8', '9']) expect(sections).toContain(top);
    expect([...sections].filter((s) => !headings.has(s))).toEqual([]);
  });

  it('negative statements of section 1 are rules with laws: no reply endpoint, writes only three things', () => {
    for (const id of ['DOCS-NO-REPLY-OPERATION', 'DOCS-NO-REPLY-ROUTE', 'DOCS-WRITES-ONLY-THREE'])
      expect(hasLaw(id), id).toBe(true);
  });

  it('docs/rules.md is generated from the catalog, the laws and the audit (npx tsx scripts/rules-doc.ts)', () => {
    const current = readFileSync(RULES_DOC_PATH, 'utf8');
    expect(
      current === rulesDoc(current),
      'docs/rules.md is out of date: run npx tsx scripts/rules-doc.ts',
    ).toBe(true);
  });
});

describe('the agent interface audit (contract/agent/audit.json)', () => {
  const spec = readFileSync(new URL('../../shared/interface-spec.md', import.meta.url), 'utf8');
  const agentIds = new Set(agentRules.map((r) => r.id));

  it('every agent rule has a law that checks it on a live MCP deployment, or a stated reason why none can', () => {
    const orphans = agentRules.filter((r) => !hasLaw(r.id) && agentAudit.noLaw[r.id] === undefined);
    expect(orphans.map((r) => r.id)).toEqual([]);
    const stale = Object.keys(agentAudit.noLaw).filter((id) => !agentIds.has(id) || hasLaw(id));
    expect(stale).toEqual([]);
    for (const reason of Object.values(agentAudit.noLaw)) expect(reason.length).toBeGreaterThan(30);
  });

  it('every sentence names agent rules or the reason it became none, never both, never a REST rule', () => {
    const bad = agentAudit.sentences.filter(
      (s) =>
        (s.rules === undefined) === (s.none === undefined) ||
        (s.rules !== undefined && (s.rules.length === 0 || s.rules.some((id) => !agentIds.has(id)))),
    );
    expect(bad).toEqual([]);
  });

  it('every agent rule comes from at least one audited sentence', () => {
    const cited = new Set(agentAudit.sentences.flatMap((s) => s.rules ?? []));
    expect(agentRules.filter((r) => !cited.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('covers every tool, behavioral rule and failure kind of 4.18 and section 7, under headings of the spec', () => {
    const headings = new Set([...spec.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]));
    expect(agentAudit.sentences.map((s) => s.section).filter((s) => !headings.has(s))).toEqual([]);
    const text = agentAudit.sentences.map((s) => s.sentence).join('\n');
    const tools = [...spec.matchAll(/^\| (\w+) \| .+ \| .+ \|$/gm)]
      .map((m) => m[1] ?? '')
      .filter((name) =>
        /^(list_skills|read_skill|read_skill_file|execute|prepare_reply|review_reply|open_reply)$/.test(name),
      );
    expect(tools).toHaveLength(7);
    for (const tool of tools) expect(text, tool).toContain(`${tool}:`);
    const behavioral = [...spec.matchAll(/^(\d)\. .*$/gm)].filter(
      (m) => spec.indexOf(m[0]) > spec.indexOf('Behavioral rules'),
    );
    for (const rule of behavioral.slice(0, 5)) expect(text, rule[0]).toContain(`Behavioral rule ${rule[1]}`);
    const failures = spec.match(/Agent interface failures: (.+)\./)?.[1] ?? '';
    const kinds = failures.split(/\), /).map((k) => k.split(' (')[0]?.trim() ?? '');
    expect(kinds).toHaveLength(5);
    for (const kind of kinds) expect(text, kind).toContain(`Agent interface failures: ${kind}`);
  });
});
