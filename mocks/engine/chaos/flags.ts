/**
 * The `--chaos-*` flags of `cca-kit mock`, as `node:util` `parseArgs` option specs and their reading
 * into `ChaosOptions` (no node import here: the CLI passes the parsed values in).
 */
import type { EngineInterceptor } from '../interceptors.ts';
import { createViolationLog, type ViolationLog } from '../violations/log.ts';
import { type Chaos, createChaos } from './chaos.ts';
import { type ChaosOptions, normalizeChaos } from './config.ts';

export const CHAOS_FLAGS = {
  'chaos-unknown-fields': { type: 'boolean' },
  'chaos-big-ids': { type: 'boolean' },
  'chaos-latency': { type: 'string' },
  'chaos-error-rate': { type: 'string' },
  'chaos-drop-rate': { type: 'string' },
  'chaos-seed': { type: 'string' },
} as const;

export const CHAOS_USAGE = `  --chaos-unknown-fields         add unknown fields to every response object
  --chaos-big-ids                serve ids above 2^53 with leading zeros (aliases that resolve when sent back)
  --chaos-latency <min-max>      delay each /v0 request by min..max ms of wall-clock time, e.g. 50-300
  --chaos-error-rate <p>         answer a share p (0..1) of /v0 requests with 500 Internal server error
  --chaos-drop-rate <p>          drop the connection of a share p (0..1) of /v0 requests
  --chaos-seed <n>               seed of the chaos decisions (default 1)`;

export interface ChaosFlagValues {
  readonly 'chaos-unknown-fields'?: boolean | undefined;
  readonly 'chaos-big-ids'?: boolean | undefined;
  readonly 'chaos-latency'?: string | undefined;
  readonly 'chaos-error-rate'?: string | undefined;
  readonly 'chaos-drop-rate'?: string | undefined;
  readonly 'chaos-seed'?: string | undefined;
}

const DECIMAL = /^(?:0|1|0?\.\d+|1\.0*)$/;

function rateFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!DECIMAL.test(value))
    throw new RangeError(`--${name} must be a number from 0 to 1 (got ${JSON.stringify(value)})`);
  return Number.parseFloat(value);
}

/**
 * Reads the parsed `--chaos-*` flags; throws a RangeError naming the flag when one is invalid.
 *
 * @example
 * chaosOptionsFromFlags({ 'chaos-latency': '50-300', 'chaos-seed': '7' });
 * // { latency: '50-300', seed: 7 }
 */
export function chaosOptionsFromFlags(values: ChaosFlagValues): ChaosOptions {
  const seed = values['chaos-seed'];
  if (seed !== undefined && !/^\d{1,15}$/.test(seed)) {
    throw new RangeError(`--chaos-seed must be a non-negative integer (got ${JSON.stringify(seed)})`);
  }
  const errorRate = rateFlag('chaos-error-rate', values['chaos-error-rate']);
  const dropRate = rateFlag('chaos-drop-rate', values['chaos-drop-rate']);
  const options: ChaosOptions = {
    ...(values['chaos-unknown-fields'] ? { unknownFields: true } : {}),
    ...(values['chaos-big-ids'] ? { bigIds: true } : {}),
    ...(values['chaos-latency'] === undefined ? {} : { latency: values['chaos-latency'] }),
    ...(errorRate === undefined ? {} : { errorRate }),
    ...(dropRate === undefined ? {} : { dropRate }),
    ...(seed === undefined ? {} : { seed: Number.parseInt(seed, 10) }),
  };
  try {
    normalizeChaos(options);
  } catch (error) {
    throw new RangeError(`--chaos-${error instanceof Error ? error.message : String(error)}`);
  }
  return options;
}

/** One line for the start-up banner, e.g. `chaos: unknown fields, latency 50-300 ms, seed 7` or `chaos: off`. */
export function describeChaos(options: ChaosOptions): string {
  const config = normalizeChaos(options);
  const parts = [
    config.unknownFields ? 'unknown fields' : '',
    config.bigIds ? 'big ids' : '',
    config.latency === null ? '' : `latency ${config.latency.minMs}-${config.latency.maxMs} ms`,
    config.errorRate > 0 ? `error rate ${config.errorRate}` : '',
    config.dropRate > 0 ? `drop rate ${config.dropRate}` : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? 'chaos: off' : `chaos: ${parts.join(', ')}, seed ${String(config.seed)}`;
}

export interface SdkInterceptors {
  /** `[violationLog, chaos]`, for `EngineOptions.interceptors`. */
  readonly interceptors: readonly EngineInterceptor[];
  readonly violationLog: ViolationLog;
  readonly chaos: Chaos;
  /** For the start-up banner: `chaos: off` or the modes in force. */
  readonly summary: string;
}

/**
 * What `cca-kit mock` installs: a violation log and the chaos interceptor set from the `--chaos-*`
 * flags (modes can still be changed at run time with `PUT /__mock/chaos`).
 *
 * @example
 * const sdk = sdkInterceptorsFromFlags(values, (message) => new UsageError(message));
 * await startMockServer({ interceptors: sdk.interceptors });
 */
export function sdkInterceptorsFromFlags(
  values: ChaosFlagValues,
  usageError: (message: string) => Error = (message) => new RangeError(message),
): SdkInterceptors {
  let options: ChaosOptions;
  try {
    options = chaosOptionsFromFlags(values);
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const violationLog = createViolationLog();
  const chaos = createChaos(options);
  return { interceptors: [violationLog, chaos], violationLog, chaos, summary: describeChaos(options) };
}
