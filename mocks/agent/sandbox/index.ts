/**
 * The `execute` tool of the agent interface (spec 4.18): runs an agent's script in a QuickJS
 * (WebAssembly) sandbox, in a pool of warm worker threads, with `call(operationId, input)` and
 * `spec(operationId?)` bridged to the operation registry on the main thread.
 *
 * The script is the body of an async function: `return` gives the result, `await` works at the top
 * level. Values cross as JSON (copied in and out). Limits and their defaults: `DEFAULT_SANDBOX_LIMITS`,
 * documented in docs/agent-interface.md ("The execute sandbox") and `contract/agent/execute.json`.
 *
 * @example
 * ```ts
 * const execute = createExecuteTool(registry, { timeMs: 2000 });
 * const outcome = await execute.handle(ctx, {
 *   script: `const page = await call('query.search.actions', { limit: 5 });
 *            console.log(page.items.length);
 *            return page.nextCursor;`,
 * });
 * // outcome.ok ? outcome.value.result : outcome.failure.kind ('script_error', 'limit_exceeded', 'busy'...)
 * await execute.close();
 * ```
 */
import type { AgentContext, AgentTool, OperationRegistry, OperationSpec } from '../types.ts';
import { emptyReport } from './envelope.ts';
import { executionLimits, resolveSandboxLimits, type SandboxLimits, type SandboxOptions } from './limits.ts';
import { type ExecutionOutcome, type PoolStats, SandboxPool } from './pool.ts';
import type { Catalog } from './protocol.ts';

export type {
  ExecuteCall,
  ExecuteFailure,
  ExecuteLog,
  ExecuteResult,
  ExecutionReport,
  LogLevel,
  Truncations,
} from './envelope.ts';
export {
  DEFAULT_SANDBOX_LIMITS,
  type ExecutionLimits,
  type PoolSettings,
  resolveSandboxLimits,
  type SandboxLimits,
  SandboxOptionError,
  type SandboxOptions,
} from './limits.ts';
export type { ExecutionOutcome, PoolStats } from './pool.ts';

/** A running sandbox: run scripts directly (embedders, tests, benchmarks) without the tool layer. */
export interface Sandbox {
  readonly limits: SandboxLimits;
  /** Runs one script as the identity of `ctx`; never throws. */
  runScript(ctx: AgentContext, script: string): Promise<ExecutionOutcome>;
  /** Resolves once the warm workers have loaded QuickJS (executions before that wait in the queue). */
  ready(): Promise<void>;
  stats(): PoolStats;
  close(): Promise<void>;
}

function catalogOf(registry: OperationRegistry): Catalog {
  const list = registry.list().map(({ id, summary, effect }) => ({ id, summary, effect }));
  const specs: Record<string, OperationSpec> = {};
  for (const { id } of list) {
    const spec = registry.spec(id);
    if (spec !== undefined) {
      const { summary, effect, inputSchema, outputSchema } = spec;
      specs[id] = { id, summary, effect, inputSchema, outputSchema };
    }
  }
  return { list, specs };
}

/** Starts a sandbox pool over `registry` (its catalog is read once, here). Throws on a bad option. */
export function createSandbox(registry: OperationRegistry, options: SandboxOptions = {}): Sandbox {
  const limits = resolveSandboxLimits(options);
  const pool = new SandboxPool(registry, catalogOf(registry), limits);
  return {
    limits,
    runScript: (ctx, script) => pool.run(ctx, script),
    ready: () => pool.ready(),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

/** The `execute` MCP tool, typed: its outcomes are envelopes or failures carrying the report. */
export interface ExecuteTool extends AgentTool {
  readonly name: 'execute';
  readonly sandbox: Sandbox;
  handle(ctx: AgentContext, args: Record<string, unknown>): Promise<ExecutionOutcome>;
  /** Stops the worker pool. */
  close(): Promise<void>;
}

/** The `execute` MCP tool: `{ script }` in, the result envelope out (or a failure carrying the report). */
export function createExecuteTool(registry: OperationRegistry, options: SandboxOptions = {}): ExecuteTool {
  const sandbox = createSandbox(registry, options);
  return {
    name: 'execute',
    sandbox,
    async handle(ctx, args) {
      const script = args.script;
      if (typeof script !== 'string')
        return {
          ok: false,
          failure: {
            kind: 'invalid_input',
            code: 'INVALID_INPUT',
            field: '/script',
            message: `execute needs { script: string }, got script of type ${script === null ? 'null' : typeof script}`,
            execution: emptyReport(executionLimits(sandbox.limits)),
          },
        };
      return sandbox.runScript(ctx, script);
    },
    close: () => sandbox.close(),
  };
}
