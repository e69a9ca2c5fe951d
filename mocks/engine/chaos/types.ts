/** The chaos interceptor as its users and the admin routes see it (`createChaos` in `./chaos.ts`). */
import type { EngineInterceptor } from '../interceptors.ts';
import type { ChaosConfig, ChaosOptions } from './config.ts';

/** Counts since the chaos instance was created (or last given a seed). */
export interface ChaosStats {
  /** REST requests seen while any mode was on (latency, errors, drops, big ids, unknown fields). */
  readonly requests: number;
  readonly delayed: number;
  /** Sum of the delays applied (ms). */
  readonly delayedMs: number;
  readonly errors: number;
  readonly drops: number;
  /** Objects that received an unknown field. */
  readonly unknownFields: number;
  /** Id values served as an alias. */
  readonly idsRewritten: number;
  /** Distinct aliases issued so far. */
  readonly aliases: number;
}

export interface Chaos extends EngineInterceptor {
  readonly kind: 'chaos';
  config(): ChaosConfig;
  /** Changes some modes (absent keys keep their value); giving `seed` (even the same) restarts the random sources and counters. */
  configure(patch: ChaosOptions): ChaosConfig;
  /** Every mode off (the seed is kept). */
  off(): ChaosConfig;
  stats(): ChaosStats;
  /** The engine's id behind a served big-id alias, or undefined. */
  originalId(servedId: string): string | undefined;
}
