/**
 * The execute sandbox's flags, shared by `cca-kit mock` and `cca-kit mcp`, in a module of their own:
 * `cca-kit mock` reads them at start, and importing them from ./mcp-command.ts would load the whole
 * agent side (MCP SDK, zod, QuickJS) that the mock now loads only at the first agent request.
 */
import {
  resolveSandboxLimits,
  SandboxOptionError,
  type SandboxOptions,
} from '../../mocks/agent/sandbox/limits.ts';
import { integerFlag } from './flags.ts';
import { UsageError } from './io.ts';

/** The execute sandbox's flags, shared by `cca-kit mock` and `cca-kit mcp`. */
export const EXECUTE_FLAGS = {
  'execute-time-ms': { type: 'string' },
  'execute-memory-mb': { type: 'string' },
  'execute-calls': { type: 'string' },
  'execute-pool': { type: 'string' },
  text: { type: 'string' },
} as const;

export const EXECUTE_USAGE = `  --execute-time-ms <ms>         execute's wall time per script (default 5000)
  --execute-memory-mb <n>        execute's QuickJS memory per script (default 64)
  --execute-calls <n>            call() invocations per script (default 200)
  --execute-pool <n>             scripts run at once (default 2; 8 more may wait, then busy)
  --text summary|full            a tool success's text: a summary next to structuredContent (default),
                                 or the whole JSON for hosts that show a model only the text`;

/** The text mode of tool results (`--text`); the names are spelled here, not imported with the agent side. */
export function textModeFromFlag(value: string | undefined): 'summary' | 'full' {
  if (value === undefined || value === 'summary') return 'summary';
  if (value === 'full') return 'full';
  throw new UsageError(`--text must be summary or full (got ${JSON.stringify(value)})`);
}

/** Sandbox options from the execute flags (the sandbox checks the ranges and names a bad value). */
export function sandboxOptionsFromFlags(values: {
  readonly 'execute-time-ms'?: string | undefined;
  readonly 'execute-memory-mb'?: string | undefined;
  readonly 'execute-calls'?: string | undefined;
  readonly 'execute-pool'?: string | undefined;
}): SandboxOptions {
  const read = (name: Exclude<keyof typeof EXECUTE_FLAGS, 'text'>) => integerFlag(name, values[name]);
  const time = read('execute-time-ms');
  const memory = read('execute-memory-mb');
  const calls = read('execute-calls');
  const pool = read('execute-pool');
  const options: SandboxOptions = {
    ...(time === undefined ? {} : { timeMs: time }),
    ...(memory === undefined ? {} : { memoryBytes: memory * 1024 * 1024 }),
    ...(calls === undefined ? {} : { calls }),
    ...(pool === undefined ? {} : { poolSize: pool }),
  };
  // Checked now: the pool starts at the first execute call, too late to report a bad flag.
  try {
    resolveSandboxLimits(options);
  } catch (error) {
    if (error instanceof SandboxOptionError) throw new UsageError(error.message);
    throw error;
  }
  return options;
}
