/**
 * The limits of the `execute` sandbox: their defaults (also in `contract/agent/execute.json`, kept in
 * step by a test) and the one place options are checked and completed.
 *
 * Two groups: the per-execution limits (`ExecutionLimits`, reported in every result envelope) and the
 * pool's own settings (how many executions at once, how many may wait, how long past the wall-time
 * limit a worker may run before it is terminated).
 */

/** The limits one execution runs under; every result envelope reports them. */
export interface ExecutionLimits {
  /** Wall time from the start of the execution, including time spent waiting for `call` results. */
  readonly timeMs: number;
  /** QuickJS heap of one execution (its runtime's malloc limit). */
  readonly memoryBytes: number;
  /** QuickJS stack (deep recursion fails with `limit: 'stack'`). */
  readonly stackBytes: number;
  /** `call(...)` invocations per execution; the one past it stops the script. */
  readonly calls: number;
  /** The script's size in UTF-8 bytes; a larger script is refused before it is parsed. */
  readonly scriptBytes: number;
  /** The return value's JSON in UTF-8 bytes; a larger one comes back as a valid-JSON preview within it. */
  readonly resultBytes: number;
  /** Captured console lines; later lines are dropped and counted. */
  readonly logLines: number;
  /** Captured console text in UTF-8 bytes (all lines together); the line that crosses it is cut. */
  readonly logBytes: number;
}

/** How executions are scheduled. */
export interface PoolSettings {
  /** Worker threads, each running one execution at a time. */
  readonly poolSize: number;
  /** Executions waiting for a worker; one more is refused with `busy`. */
  readonly queueLength: number;
  /** The `retryAfterMs` of a `busy` refusal. */
  readonly busyRetryAfterMs: number;
  /**
   * How long past `timeMs` the main thread waits for a worker to stop by itself before terminating
   * it (a built-in such as a naive `indexOf` never reaches QuickJS's interrupt check).
   */
  readonly killGraceMs: number;
  /** V8 heap (old generation) of each worker thread, in MiB: the host-side copies of one execution. */
  readonly workerHeapMb: number;
  /**
   * Room the WebAssembly memory may have beyond `memoryBytes` (QuickJS's own structures, allocator
   * slack). The WebAssembly memory of a worker is created with `maximum` = memoryBytes + this, so the
   * bound holds even against an allocation QuickJS's limit does not see.
   */
  readonly wasmHeadroomBytes: number;
}

export type SandboxLimits = ExecutionLimits & PoolSettings;

/** Every option of the sandbox; any subset may be given, the rest take `DEFAULT_SANDBOX_LIMITS`. */
export type SandboxOptions = Partial<SandboxLimits>;

const MiB = 1024 * 1024;

export const DEFAULT_SANDBOX_LIMITS = {
  timeMs: 5000,
  memoryBytes: 64 * MiB,
  stackBytes: 512 * 1024,
  calls: 200,
  scriptBytes: 64 * 1024,
  // Sized for a model's context: an answer is at most about 48 KiB of JSON (about 12k tokens, within
  // the 25k-token tool-output cap of common MCP clients), a page of 20 action records fits whole.
  resultBytes: 32 * 1024,
  logLines: 200,
  logBytes: 8 * 1024,
  poolSize: 2,
  queueLength: 8,
  busyRetryAfterMs: 500,
  killGraceMs: 250,
  workerHeapMb: 128,
  wasmHeadroomBytes: 32 * MiB,
} as const satisfies SandboxLimits;

/** The smallest and largest accepted value of each option (so a typo cannot disable a bound). */
const RANGES: { readonly [K in keyof SandboxLimits]: readonly [number, number] } = {
  timeMs: [10, 10 * 60_000],
  memoryBytes: [MiB, 1024 * MiB],
  stackBytes: [16 * 1024, 8 * MiB],
  calls: [0, 100_000],
  scriptBytes: [1, 16 * MiB],
  resultBytes: [0, 64 * MiB],
  logLines: [0, 1_000_000],
  logBytes: [0, 64 * MiB],
  poolSize: [1, 64],
  queueLength: [0, 10_000],
  busyRetryAfterMs: [0, 60_000],
  killGraceMs: [10, 60_000],
  workerHeapMb: [16, 8192],
  wasmHeadroomBytes: [4 * MiB, 1024 * MiB],
};

/** Thrown by `resolveSandboxLimits` (and so by `createExecuteTool`) on a bad option: a programming error. */
export class SandboxOptionError extends Error {
  readonly code = 'SANDBOX_OPTION_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'SandboxOptionError';
  }
}

/** Completes options with the defaults and checks each: an integer within its documented range. */
export function resolveSandboxLimits(options: SandboxOptions = {}): SandboxLimits {
  const resolved: Record<string, number> = { ...DEFAULT_SANDBOX_LIMITS };
  for (const [name, value] of Object.entries(options)) {
    if (!(name in RANGES)) throw new SandboxOptionError(`Unknown sandbox option "${name}"`);
    if (value === undefined) continue;
    const [min, max] = RANGES[name as keyof SandboxLimits];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      throw new SandboxOptionError(
        `Sandbox option "${name}" must be an integer from ${min} to ${max}, got ${String(value)}`,
      );
    resolved[name] = value;
  }
  return resolved as unknown as SandboxLimits;
}

/** The per-execution part of the limits, as reported in the envelope. */
export function executionLimits(limits: SandboxLimits): ExecutionLimits {
  const { timeMs, memoryBytes, stackBytes, calls, scriptBytes, resultBytes, logLines, logBytes } = limits;
  return { timeMs, memoryBytes, stackBytes, calls, scriptBytes, resultBytes, logLines, logBytes };
}
