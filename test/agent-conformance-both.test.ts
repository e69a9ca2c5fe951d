/**
 * One agent conformance run judges every MCP revision a deployment offers: against the mock (which
 * serves 2025-11-25 sessions and the stateless 2026-07-28 revision) the default run is over both and
 * passes; the single-revision mutants are found over their revision in that one run, each finding
 * naming it; a deployment offering one revision only is judged over that one.
 */
import { describe, expect, it } from 'vitest';
import { revisionsToRun } from '../src/conformance/kit/mcp/revisions.ts';
import { normalizeOptions } from '../src/conformance/kit/options.ts';
import { mergeRevisionRuns } from '../src/conformance/revision-runs.ts';
import { renderConsoleReport } from '../src/reporters/console.ts';
import { agentLaws } from '../suites/agent/index.ts';
import type { AgentMutant } from '../suites/mutations/agent-faults.ts';
import { AGENT_MUTANTS, runAgentMutant } from '../suites/mutations/agent-harness.ts';
import { scaled } from './support/timeouts.ts';

const mutant = (id: string): AgentMutant => {
  const found = AGENT_MUTANTS.find((m) => m.id === id);
  if (found === undefined) throw new Error(`no agent mutant ${id}`);
  return found;
};

/** A deployment of the stateless revision only: a 2025-era `initialize` is refused. */
const statelessOnly: AgentMutant = {
  id: 'stateless-only',
  description: 'serves the stateless 2026-07-28 revision only',
  expect: [],
  control: true,
  fault: () => ({
    answer: (m) =>
      m['method'] === 'initialize'
        ? { jsonrpc: '2.0', id: m['id'], error: { code: -32600, message: 'initialize is not served here' } }
        : undefined,
  }),
};

/** A deployment of 2025-11-25 sessions only: `server/discover` is an unknown method. */
const sessionsOnly: AgentMutant = {
  id: 'sessions-only',
  description: 'serves 2025-11-25 sessions only',
  expect: [],
  control: true,
  fault: () => ({
    answer: (m) =>
      m['method'] === 'server/discover'
        ? { jsonrpc: '2.0', id: m['id'], error: { code: -32601, message: 'Method not found' } }
        : undefined,
  }),
};

/** A stateless revision whose `server/discover` lists no revision and names no server. */
const discoverWithoutVersions: AgentMutant = {
  id: 'discover-without-versions',
  description: 'server/discover answers without supportedVersions or serverInfo',
  expect: ['AGENT-MCP-INITIALIZE-SESSION'],
  fault: () => ({
    answer: (m) =>
      m['method'] === 'server/discover'
        ? { jsonrpc: '2.0', id: m['id'], result: { capabilities: { tools: {} } } }
        : undefined,
  }),
};

const TOOL_LAWS = ['agent.tools.listed'];
/** The laws that speak raw JSON-RPC: each revision's own wire form, not the SDK's. */
const RAW_LAWS = ['agent.transport.initialize', 'agent.transport.jsonrpc-errors', 'agent.auth.refused-keys'];

describe('agent conformance over the MCP revisions a deployment offers', () => {
  // The whole agent group in two halves (each under a minute on a busy machine): together, every law.
  const half = Math.ceil(agentLaws.length / 2);
  const halves = [agentLaws.slice(0, half), agentLaws.slice(half)].map((laws) => laws.map((l) => l.id));
  it.each([
    [1, halves[0] ?? []],
    [2, halves[1] ?? []],
  ])(
    'the default run against the mock is over both revisions and passes every agent law (half %i)',
    {
      timeout: scaled(90_000),
    },
    async (_half, lawIds) => {
      const control = mutant('control-slower-answers');
      const result = await runAgentMutant(
        { ...control, fault: () => ({}) },
        { mcpRevision: 'offered', runs: 2, lawIds },
      );
      expect(result.report.mcpRevisions).toEqual(['2025-11-25', '2026-07-28']);
      expect(result.report.laws.map((l) => l.lawId)).toEqual(lawIds);
      expect(result.ok, renderConsoleReport(result.report, [])).toBe(true);
      expect(renderConsoleReport(result.report, [])).toContain(
        'Agent interface judged over MCP 2025-11-25 and 2026-07-28',
      );
    },
  );

  it('a fault in the stateless revision only is found by the default run, every finding naming 2026-07-28', {
    timeout: scaled(45_000),
  }, async () => {
    const fault = mutant('stateless-tool-outside-the-spec');
    const result = await runAgentMutant(fault, { mcpRevision: 'offered', targeted: true });
    expect(result.report.mcpRevisions).toEqual(['2025-11-25', '2026-07-28']);
    // The rule is a should rule: its failure is a warning, found all the same.
    expect(result.failedRules).toContain('AGENT-MCP-TOOLS-ONLY-SPEC-NAMES');
    const failures = result.report.laws.flatMap((l) => l.failures);
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) {
      expect(f.message).toMatch(/^\[MCP 2026-07-28\] /);
      expect(f.fingerprint).toMatch(/@2026-07-28$/);
    }
  });

  it('--mcp-revision both finds a fault of the sessions revision too, naming 2025-11-25', {
    timeout: scaled(45_000),
  }, async () => {
    const result = await runAgentMutant(mutant('sessions-tool-outside-the-spec'), {
      mcpRevision: 'both',
      targeted: true,
    });
    expect(result.report.mcpRevisions).toEqual(['2025-11-25', '2026-07-28']);
    const failures = result.report.laws.flatMap((l) => l.failures);
    expect(failures.map((f) => f.ruleId)).toContain('AGENT-MCP-TOOLS-ONLY-SPEC-NAMES');
    for (const f of failures) expect(f.message).toMatch(/^\[MCP 2025-11-25\] /);
  });

  it('a deployment of the stateless revision only is judged over 2026-07-28 alone', {
    timeout: scaled(45_000),
  }, async () => {
    const result = await runAgentMutant(statelessOnly, {
      mcpRevision: 'offered',
      lawIds: [...TOOL_LAWS, ...RAW_LAWS],
    });
    expect(result.report.mcpRevisions).toEqual(['2026-07-28']);
    expect(result.report.laws.map((l) => [l.lawId, l.outcome.kind]).sort()).toEqual(
      [...TOOL_LAWS, ...RAW_LAWS].sort().map((id) => [id, 'passed']),
    );
    expect(result.report.ok, renderConsoleReport(result.report, [])).toBe(true);
  });

  it('the raw JSON-RPC laws speak the stateless revision: a broken server/discover fails only its run', {
    timeout: scaled(45_000),
  }, async () => {
    const result = await runAgentMutant(discoverWithoutVersions, { mcpRevision: 'both', lawIds: RAW_LAWS });
    const failures = result.report.laws.flatMap((l) => l.failures);
    expect(failures.map((f) => f.ruleId)).toContain('AGENT-MCP-INITIALIZE-SESSION');
    for (const f of failures) expect(f.message).toMatch(/^\[MCP 2026-07-28\] /);
    expect(failures.map((f) => f.message).join('\n')).toMatch(/supportedVersions/);
  });

  it('a deployment of 2025-11-25 sessions only is judged over 2025-11-25 alone', {
    timeout: scaled(45_000),
  }, async () => {
    const result = await runAgentMutant(sessionsOnly, { mcpRevision: 'offered', lawIds: TOOL_LAWS });
    expect(result.report.mcpRevisions).toEqual(['2025-11-25']);
    expect(result.report.ok, renderConsoleReport(result.report, [])).toBe(true);
  });

  it('asking for both from a deployment of one revision fails the other, naming it', {
    timeout: scaled(45_000),
  }, async () => {
    const result = await runAgentMutant(sessionsOnly, { mcpRevision: 'both', lawIds: TOOL_LAWS });
    const failures = result.report.laws.flatMap((l) => l.failures);
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) expect(f.message).toMatch(/^\[MCP 2026-07-28\] /);
  });
});

describe('revision choice and folding (units)', () => {
  it('target.mcpRevision accepts both, one revision, or nothing (offered); anything else is refused', () => {
    const base = { baseUrl: 'http://127.0.0.1:1', keys: {} };
    expect(normalizeOptions({ target: { ...base, mcpRevision: 'both' } }).target.mcpRevision).toBe('both');
    expect(normalizeOptions({ target: base }).target.mcpRevision).toBeUndefined();
    expect(() =>
      normalizeOptions({ target: { ...base, mcpRevision: 'latest' as unknown as 'both' } }),
    ).toThrow(/2025-11-25, 2026-07-28, both/);
  });

  it('revisionsToRun: the choice wins; without one, what is offered; none offered is judged over 2025-11-25', () => {
    const probes = [
      { revision: '2025-11-25', offered: false },
      { revision: '2026-07-28', offered: true },
    ] as const;
    expect(revisionsToRun(undefined, probes)).toEqual(['2026-07-28']);
    expect(revisionsToRun('both', probes)).toEqual(['2025-11-25', '2026-07-28']);
    expect(revisionsToRun('2025-11-25', probes)).toEqual(['2025-11-25']);
    expect(revisionsToRun(undefined, [])).toEqual(['2025-11-25']);
  });

  it('mergeRevisionRuns: failures of each revision kept and named; a revision not run makes the law not run', () => {
    const failed = {
      kind: 'failed' as const,
      ruleId: 'R1',
      section: '4.18',
      message: 'wrong',
      counterexample: null,
      seed: 1,
      repro: '',
      fingerprint: 'R1|law|x',
    };
    const merged = mergeRevisionRuns(
      ['R1', 'R2'],
      [
        {
          revision: '2025-11-25',
          outcome: { kind: 'passed', ruleIds: ['R1', 'R2'], checks: 2 },
          failures: [],
        },
        { revision: '2026-07-28', outcome: failed, failures: [failed] },
      ],
    );
    expect(merged.outcome.kind).toBe('failed');
    expect(merged.failures.map((f) => [f.message, f.fingerprint])).toEqual([
      ['[MCP 2026-07-28] wrong', 'R1|law|x@2026-07-28'],
    ]);
    const notRun = mergeRevisionRuns(
      ['R1'],
      [
        { revision: '2025-11-25', outcome: { kind: 'passed', ruleIds: ['R1'], checks: 2 }, failures: [] },
        {
          revision: '2026-07-28',
          outcome: { kind: 'not-run', ruleIds: ['R1'], reason: 'absent' },
          failures: [],
        },
      ],
    );
    expect(notRun.outcome).toEqual({ kind: 'not-run', ruleIds: ['R1'], reason: '[MCP 2026-07-28] absent' });
    const passed = mergeRevisionRuns(
      ['R1'],
      [
        { revision: '2025-11-25', outcome: { kind: 'passed', ruleIds: ['R1'], checks: 2 }, failures: [] },
        { revision: '2026-07-28', outcome: { kind: 'passed', ruleIds: ['R1'], checks: 3 }, failures: [] },
      ],
    );
    expect(passed.outcome).toEqual({ kind: 'passed', ruleIds: ['R1'], checks: 5 });
  });
});
