import type { Keys } from '../../client/types.ts';
import { MCP_REVISION_CHOICES, type McpRevisionChoice } from './mcp/revisions.ts';
import type { ProgressEvent } from './report.ts';

/** Where a run goes: a base URL and the keys it may use. */
export interface Target {
  readonly baseUrl: string;
  readonly keys: Keys;
  /**
   * The target's notion of "now" in epoch ms (windows are anchored there). Default: the local clock.
   * A mock with an injected clock passes its own.
   */
  readonly now?: () => number;
  /** Called between moderation status polls; a mock can advance its clock here. */
  readonly onPoll?: () => Promise<void>;
  /** The agent interface (MCP, Streamable HTTP) endpoint; default `<baseUrl>/mcp`. */
  readonly mcpUrl?: string;
  /**
   * The MCP revision(s) the agent laws speak: 2025-11-25 sessions, stateless 2026-07-28, or `both`;
   * default: every revision the deployment offers (probed once), both when it offers both.
   */
  readonly mcpRevision?: McpRevisionChoice;
}

export interface ConformanceOptions {
  readonly target: Target;
  /** Every run is reproducible from its seed; default: random, printed in reports. */
  readonly seed?: number;
  /** Generated cases per property (default 20). */
  readonly runs?: number;
  /**
   * Shrink a failing case to a smaller one before reporting it (default true). False reports the
   * first failing case as found: a gate that only needs the verdict, or a harness that runs the suite
   * against many faulty deployments, is spared the re-runs shrinking costs.
   */
  readonly shrink?: boolean;
  /** Law ids, groups or rule ids to run (empty: all). */
  readonly only?: readonly string[];
  /** Law ids, groups or rule ids to leave out. */
  readonly skip?: readonly string[];
  /** Moderation, ingestion and custom-field writes (default: on only for loopback targets). */
  readonly allowWrites?: boolean;
  /**
   * Writes to records the run did not create: custom-field values of existing actions, each put back
   * and read back afterwards (default true). False leaves existing records alone; the laws that need
   * it are not run.
   */
  readonly customFieldWrites?: boolean;
  /**
   * Laws that cannot run for a missing required key (read, write, ingest) do not make the verdict
   * `not-checked` (default false: a run that checked less than asked is not a pass).
   */
  readonly allowNotRun?: boolean;
  /** A failure of a `should` rule fails the run too (default false: it is a warning). */
  readonly strict?: boolean;
  /** Below this percentage of checkable rules checked, the verdict is `not-checked` (0..100). */
  readonly minCoverage?: number;
  /** Requests per second across the run (default 0: unlimited for loopback, 20 otherwise). */
  readonly maxRps?: number;
  /** Total requests the run may send (default 20 000). */
  readonly maxRequests?: number;
  /** How long a moderation lifecycle may take to reach completed/failed (default 60 000 ms). */
  readonly moderationTimeoutMs?: number;
  /** Per-request timeout (default 15 000 ms). */
  readonly requestTimeoutMs?: number;
  /** Known failures (`--baseline FILE` contents). */
  readonly baseline?: Baseline;
  /** Run id used in the `cca-conform-<runId>-` prefix of everything the run creates. */
  readonly runId?: string;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Stops the run between laws (the rest are reported not run). */
  readonly signal?: AbortSignal;
}

/** A baseline file: today's known failures, by rule id and stable fingerprint. */
export interface Baseline {
  readonly version: 1;
  readonly failures: readonly {
    readonly ruleId: string;
    readonly fingerprint: string;
    readonly lawId?: string;
    readonly message?: string;
  }[];
}

export interface NormalizedOptions {
  readonly target: Required<Pick<Target, 'baseUrl' | 'keys' | 'now' | 'mcpUrl'>> &
    Pick<Target, 'onPoll'> & {
      /** Undefined: the revisions the deployment offers. */
      readonly mcpRevision: McpRevisionChoice | undefined;
    };
  readonly seed: number;
  readonly runs: number;
  readonly shrink: boolean;
  readonly only: readonly string[];
  readonly skip: readonly string[];
  readonly allowWrites: boolean;
  readonly customFieldWrites: boolean;
  readonly allowNotRun: boolean;
  readonly strict: boolean;
  readonly minCoverage: number | undefined;
  readonly maxRps: number;
  readonly maxRequests: number;
  readonly moderationTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly baseline: Baseline;
  readonly runId: string;
  readonly onProgress: (event: ProgressEvent) => void;
  readonly signal: AbortSignal | undefined;
}

/** The revision option checked once: one of MCP_REVISION_CHOICES, or a TypeError naming them. */
function mcpRevisionOf(value: string | undefined): McpRevisionChoice | undefined {
  if (value === undefined) return undefined;
  const known = MCP_REVISION_CHOICES.find((r) => r === value);
  if (known === undefined)
    throw new TypeError(
      `target.mcpRevision must be one of ${MCP_REVISION_CHOICES.join(', ')}, got ${JSON.stringify(value)}`,
    );
  return known;
}

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** A short run id: base36 time plus random, safe in external ids. */
export function newRunId(): string {
  return (Date.now().toString(36) + Math.floor(Math.random() * 36 ** 4).toString(36)).slice(-10);
}

/** Fills every default once and rejects invalid options with a message naming the option. */
export function normalizeOptions(options: ConformanceOptions): NormalizedOptions {
  let url: URL;
  try {
    url = new URL(options.target.baseUrl);
  } catch {
    throw new TypeError(`target.baseUrl is not a URL: ${JSON.stringify(options.target.baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError('target.baseUrl must be http(s)');
  const loopback = isLoopback(options.target.baseUrl);
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const runId = options.runId ?? newRunId();
  if (!/^[a-z0-9-]{1,24}$/.test(runId))
    throw new RangeError(`runId must match [a-z0-9-]{1,24}, got ${runId}`);
  const maxRps = options.maxRps ?? (loopback ? 0 : 20);
  if (!(maxRps >= 0)) throw new RangeError(`maxRps must be >= 0, got ${maxRps}`);
  const minCoverage = options.minCoverage;
  if (minCoverage !== undefined && !(minCoverage >= 0 && minCoverage <= 100))
    throw new RangeError(`minCoverage must be a percentage from 0 to 100, got ${minCoverage}`);
  const baseUrl = url.toString().replace(/\/+$/, '');
  const mcpUrl = options.target.mcpUrl ?? `${baseUrl}/mcp`;
  if (!URL.canParse(mcpUrl) || !/^https?:$/.test(new URL(mcpUrl).protocol))
    throw new TypeError(`target.mcpUrl is not an http(s) URL: ${JSON.stringify(mcpUrl)}`);
  return {
    target: {
      baseUrl,
      mcpUrl,
      mcpRevision: mcpRevisionOf(options.target.mcpRevision),
      keys: options.target.keys,
      now: options.target.now ?? (() => Date.now()),
      ...(options.target.onPoll === undefined ? {} : { onPoll: options.target.onPoll }),
    },
    seed,
    runs: positiveInt('runs', options.runs ?? 20),
    shrink: options.shrink ?? true,
    only: options.only ?? [],
    skip: options.skip ?? [],
    allowWrites: options.allowWrites ?? loopback,
    customFieldWrites: options.customFieldWrites ?? true,
    allowNotRun: options.allowNotRun ?? false,
    strict: options.strict ?? false,
    minCoverage,
    maxRps,
    maxRequests: positiveInt('maxRequests', options.maxRequests ?? 20_000),
    moderationTimeoutMs: positiveInt('moderationTimeoutMs', options.moderationTimeoutMs ?? 60_000),
    requestTimeoutMs: positiveInt('requestTimeoutMs', options.requestTimeoutMs ?? 15_000),
    baseline: options.baseline ?? { version: 1, failures: [] },
    runId,
    onProgress: options.onProgress ?? (() => {}),
    signal: options.signal,
  } satisfies NormalizedOptions;
}
