/**
 * Chaos modes (for SDK authors): unknown fields, big ids, latency, injected 500s and dropped
 * connections, each opt-in and seeded. See docs/sdk-authors.md.
 *
 * @example
 * const chaos = createChaos({ bigIds: true, unknownFields: true, seed: 7 });
 * const engine = createEngine({ interceptors: [createViolationLog(), chaos] });
 */
export { CHAOS_ERROR_CODE, type Chaos, type ChaosStats, chaosOf, createChaos } from './chaos.ts';
export {
  CHAOS_DEFAULTS,
  type ChaosConfig,
  type ChaosOptions,
  chaosActive,
  type LatencyRange,
  MAX_LATENCY_MS,
  normalizeChaos,
  parseLatency,
} from './config.ts';
export {
  CHAOS_FLAGS,
  CHAOS_USAGE,
  type ChaosFlagValues,
  chaosOptionsFromFlags,
  describeChaos,
  type SdkInterceptors,
  sdkInterceptorsFromFlags,
} from './flags.ts';
export { ID_FIELDS, IdAliases, isHostileId, OPAQUE_KEYS } from './ids.ts';
export { addUnknownFields } from './unknown-fields.ts';
