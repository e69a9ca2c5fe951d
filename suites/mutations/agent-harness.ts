/**
 * Runs the agent laws against each agent mutant (our mock behind the fault proxy) and reports whether
 * the suite found the fault naming one of the expected rules; controls must pass the whole agent suite.
 */
import type { McpRevisionChoice } from '../../src/conformance/kit/mcp/revisions.ts';
import type { ConformanceReport } from '../../src/conformance/kit/report.ts';
import { runConformance, selects } from '../../src/conformance/runner.ts';
import { agentLaws } from '../agent/index.ts';
import { agentMockKeys } from '../agent/keys.ts';
import { startMockTarget } from '../target.ts';
import { AGENT_MUTANTS, type AgentMutant } from './agent-faults.ts';
import { startFaultProxy } from './agent-proxy.ts';

export interface AgentMutantResult {
  readonly id: string;
  readonly control: boolean;
  readonly expected: readonly string[];
  readonly failedRules: readonly string[];
  readonly notRun: readonly string[];
  readonly ok: boolean;
  readonly durationMs: number;
}

export interface AgentHarnessOptions {
  readonly seed?: number;
  readonly runs?: number;
  /** Faults: run only the laws naming an expected rule (fast). Controls always run every agent law. */
  readonly targeted?: boolean;
  /**
   * The MCP revision(s) the agent laws speak (`offered`: whatever the deployment offers, as the CLI
   * does by default); default the mutant's own revision, else 2025-11-25.
   */
  readonly mcpRevision?: McpRevisionChoice | 'offered';
  /** Laws to run instead of the targeted or whole agent group (by id). */
  readonly lawIds?: readonly string[];
}

export async function runAgentMutant(
  mutant: AgentMutant,
  options: AgentHarnessOptions = {},
): Promise<AgentMutantResult & { readonly report: ConformanceReport }> {
  const t0 = performance.now();
  const running = await startMockTarget({ seed: 42 });
  const engine = running.engine;
  if (engine === undefined) throw new Error('the mock target has no engine');
  const keys = agentMockKeys(engine);
  const target = new URL(running.target.baseUrl).origin;
  const proxy = await startFaultProxy(target, mutant.fault(keys, target));
  try {
    const laws =
      options.lawIds !== undefined
        ? agentLaws.filter((law) => options.lawIds?.includes(law.id))
        : options.targeted === true && mutant.control !== true
          ? agentLaws.filter((law) => mutant.expect.some((rule) => selects(rule, law)))
          : agentLaws;
    const revision = options.mcpRevision ?? mutant.revision ?? '2025-11-25';
    const report = await runConformance(
      {
        target: {
          ...running.target,
          baseUrl: proxy.url,
          keys,
          ...(revision === 'offered' ? {} : { mcpRevision: revision }),
        },
        seed: options.seed ?? 7,
        runs: options.runs ?? 5,
        // Detection is the verdict asked for here: the first failing case names the rule as well.
        shrink: false,
      },
      { laws },
    );
    const failedRules = [
      // Every rule each law found failing (a law goes on past its first failure).
      ...new Set(report.laws.flatMap((l) => l.failures.map((f) => f.ruleId))),
    ];
    const notRun = report.laws.filter((l) => l.outcome.kind === 'not-run').map((l) => l.lawId);
    const ok =
      mutant.control === true
        ? failedRules.length === 0 && notRun.length === 0
        : failedRules.some((r) => mutant.expect.includes(r));
    return {
      id: mutant.id,
      control: mutant.control === true,
      expected: mutant.expect,
      failedRules,
      notRun,
      ok,
      durationMs: performance.now() - t0,
      report,
    };
  } finally {
    await proxy.close();
    await running.close();
  }
}

export { AGENT_MUTANTS };
