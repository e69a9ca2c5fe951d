/**
 * One load run with autocannon: the same connections, pipelining and duration for every server. Latency
 * percentiles are computed from every response time autocannon reports (fractional ms), not from its
 * millisecond histogram, so sub-millisecond latencies stay visible.
 */
import autocannon, { type AutocannonRequest } from 'autocannon';
import { Samples } from './stats.ts';

export interface LoadSettings {
  readonly connections: number;
  readonly pipelining: number;
  /** Seconds. */
  readonly duration: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly rps: number;
  /** Milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly errors: number;
  readonly timeouts: number;
  readonly seconds: number;
}

export async function runLoad(
  baseUrl: string,
  requests: AutocannonRequest[],
  settings: LoadSettings,
): Promise<LoadResult> {
  const latencies = new Samples();
  const statuses: Record<string, number> = {};
  const started = performance.now();
  const instance = autocannon({
    url: baseUrl,
    connections: settings.connections,
    pipelining: settings.pipelining,
    duration: settings.duration,
    timeout: 10,
    requests,
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    latencies.push(responseTime);
    const key = String(statusCode);
    statuses[key] = (statuses[key] ?? 0) + 1;
  });
  const result = await instance;
  const seconds = result.duration > 0 ? result.duration : (performance.now() - started) / 1000;
  const [p50 = Number.NaN, p99 = Number.NaN] = latencies.percentiles(50, 99);
  return {
    requests: latencies.count,
    rps: latencies.count / seconds,
    p50,
    p99,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds,
  };
}

/** Counts of 5xx in a status map. */
export function count5xx(statuses: Readonly<Record<string, number>>): number {
  let total = 0;
  for (const [status, n] of Object.entries(statuses)) if (status.startsWith('5')) total += n;
  return total;
}
