/**
 * Chaos options: what a caller (CLI flags, `PUT /__mock/chaos`, `createChaos`) may give, normalised
 * once into a complete config with defaults (every mode off), rejected with a clear message when invalid.
 */

export interface LatencyRange {
  readonly minMs: number;
  readonly maxMs: number;
}

export interface ChaosOptions {
  /** Add fields the contract does not know to every response object (VER-TOLERATE-UNKNOWN-FIELDS). */
  readonly unknownFields?: boolean;
  /** Serve every id that is not already one as an alias above 2^53 with leading zeros. */
  readonly bigIds?: boolean;
  /** Delay each /v0 request by a uniform random wall-clock time: `{minMs, maxMs}`, `"50-300"`, `120`, or null. */
  readonly latency?: LatencyRange | string | number | null;
  /** Probability (0..1) that a /v0 request is answered `500 {success:false, error:"Internal server error"}`. */
  readonly errorRate?: number;
  /** Probability (0..1) that a /v0 request's connection is dropped without an answer. */
  readonly dropRate?: number;
  /** Seed of chaos's own random sources (decisions, field names, id aliases). Default 1. */
  readonly seed?: number | string;
}

export interface ChaosConfig {
  readonly unknownFields: boolean;
  readonly bigIds: boolean;
  readonly latency: LatencyRange | null;
  readonly errorRate: number;
  readonly dropRate: number;
  readonly seed: number | string;
}

export const CHAOS_DEFAULTS = {
  unknownFields: false,
  bigIds: false,
  latency: null,
  errorRate: 0,
  dropRate: 0,
  seed: 1,
} as const satisfies ChaosConfig;

/** Longest delay accepted (ms): a delay is meant to be felt, not to hang a test run. */
export const MAX_LATENCY_MS = 60_000;

function delay(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_LATENCY_MS) {
    throw new RangeError(
      `${name} must be an integer number of ms from 0 to ${MAX_LATENCY_MS} (got ${value})`,
    );
  }
  return value;
}

/** `"50-300"`, `"120"`, `120` or `{minMs, maxMs}` to a checked range; null or `"off"` for none. */
export function parseLatency(value: LatencyRange | string | number | null): LatencyRange | null {
  if (value === null || value === 'off' || value === '') return null;
  if (typeof value === 'number') return { minMs: delay('latency', value), maxMs: value };
  if (typeof value === 'string') {
    const match = /^(\d{1,6})(?:-(\d{1,6}))?$/.exec(value.trim());
    if (match === null) {
      throw new RangeError(`latency must look like "50-300" (ms) or "120" (got ${JSON.stringify(value)})`);
    }
    const min = Number.parseInt(match[1] ?? '', 10);
    return parseLatency({ minMs: min, maxMs: match[2] === undefined ? min : Number.parseInt(match[2], 10) });
  }
  if (typeof value !== 'object')
    throw new RangeError('latency must be {minMs, maxMs}, "min-max", a number or null');
  const minMs = delay('latency.minMs', value.minMs);
  const maxMs = delay('latency.maxMs', value.maxMs);
  if (minMs > maxMs)
    throw new RangeError(`latency.minMs (${minMs}) must not exceed latency.maxMs (${maxMs})`);
  return { minMs, maxMs };
}

function rate(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new RangeError(`${name} must be a number from 0 to 1 (got ${JSON.stringify(value)})`);
  }
  return value;
}

function flag(name: string, value: boolean): boolean {
  if (typeof value !== 'boolean')
    throw new RangeError(`${name} must be true or false (got ${JSON.stringify(value)})`);
  return value;
}

function seedOf(value: number | string): number | string {
  if (
    (typeof value === 'number' && Number.isSafeInteger(value)) ||
    (typeof value === 'string' && value !== '')
  ) {
    return value;
  }
  throw new RangeError(`seed must be an integer or a non-empty string (got ${JSON.stringify(value)})`);
}

/**
 * Applies `patch` over `base` (keys absent from the patch keep their value) and checks the result.
 *
 * @example
 * normalizeChaos({ latency: '50-300', errorRate: 0.05 }); // { ..., latency: { minMs: 50, maxMs: 300 } }
 */
export function normalizeChaos(patch: ChaosOptions = {}, base: ChaosConfig = CHAOS_DEFAULTS): ChaosConfig {
  return {
    unknownFields: flag('unknownFields', patch.unknownFields ?? base.unknownFields),
    bigIds: flag('bigIds', patch.bigIds ?? base.bigIds),
    latency: patch.latency === undefined ? base.latency : parseLatency(patch.latency),
    errorRate: rate('errorRate', patch.errorRate ?? base.errorRate),
    dropRate: rate('dropRate', patch.dropRate ?? base.dropRate),
    seed: seedOf(patch.seed ?? base.seed),
  };
}

/** True when at least one mode is on. */
export function chaosActive(config: ChaosConfig): boolean {
  return (
    config.unknownFields ||
    config.bigIds ||
    config.latency !== null ||
    config.errorRate > 0 ||
    config.dropRate > 0
  );
}
