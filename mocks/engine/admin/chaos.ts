/**
 * Admin operations of the chaos modes, typed (`createChaosAdmin(chaos)`) and as `/__mock/` routes:
 *
 * | route | operation |
 * |---|---|
 * | `GET /__mock/chaos` | the modes in force and the counters |
 * | `PUT /__mock/chaos` `{unknownFields?, bigIds?, latency?, errorRate?, dropRate?, seed?}` | change some modes |
 * | `DELETE /__mock/chaos` | every mode off |
 *
 * The routes answer 404 when the engine runs without the chaos interceptor (`createChaos()`).
 */
import type { Chaos, ChaosConfig, ChaosOptions, ChaosStats } from '../chaos/index.ts';
import { chaosAttachments } from '../chaos/registry.ts';
import { type AdminApi, AdminError } from './api.ts';
import { type AdminRoute, objectBody, ok } from './route.ts';

export interface ChaosAdmin {
  chaos(): { readonly config: ChaosConfig; readonly stats: ChaosStats };
  /** Changes some modes (absent keys keep their value); throws an AdminError on invalid input. */
  setChaos(patch: ChaosOptions): ChaosConfig;
  /** Every mode off. */
  chaosOff(): ChaosConfig;
}

function configure(chaos: Chaos, patch: ChaosOptions): ChaosConfig {
  try {
    return chaos.configure(patch);
  } catch (cause) {
    throw new AdminError('BAD_REQUEST', cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * @example
 * const admin = createChaosAdmin(chaos);
 * admin.setChaos({ errorRate: 0.1 });
 */
export function createChaosAdmin(chaos: Chaos): ChaosAdmin {
  return {
    chaos: () => ({ config: chaos.config(), stats: chaos.stats() }),
    setChaos: (patch) => configure(chaos, patch),
    chaosOff: () => chaos.off(),
  };
}

function installed(api: AdminApi): Chaos {
  const chaos = chaosAttachments.of(api);
  if (chaos === undefined) {
    throw new AdminError(
      'NOT_FOUND',
      'This engine has no chaos interceptor: create it with interceptors: [createChaos()] (cca-kit mock and createHandlers install one)',
    );
  }
  return chaos;
}

const KEYS: ReadonlySet<string> = new Set([
  'unknownFields',
  'bigIds',
  'latency',
  'errorRate',
  'dropRate',
  'seed',
]);

export const chaosAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/chaos',
    summary: 'The chaos modes in force and their counters',
    handle: ({ api }) => {
      const chaos = installed(api);
      return ok({ chaos: chaos.config(), stats: chaos.stats() });
    },
  },
  {
    method: 'PUT',
    path: '/__mock/chaos',
    summary:
      'Change chaos modes: {"unknownFields"?: bool, "bigIds"?: bool, "latency"?: "50-300" | null, "errorRate"?: 0..1, "dropRate"?: 0..1, "seed"?: n}',
    handle: ({ api, body }) => {
      const chaos = installed(api);
      let input: Record<string, unknown>;
      try {
        input = objectBody(body, 'like {"errorRate": 0.05}');
      } catch (cause) {
        throw new AdminError('BAD_REQUEST', cause instanceof Error ? cause.message : String(cause));
      }
      const unknown = Object.keys(input).filter((key) => !KEYS.has(key));
      if (unknown.length > 0) {
        throw new AdminError(
          'BAD_REQUEST',
          `unknown chaos option ${unknown.join(', ')}; known: ${[...KEYS].join(', ')}`,
        );
      }
      const config = configure(chaos, input as ChaosOptions);
      return ok({ chaos: config, stats: chaos.stats() });
    },
  },
  {
    method: 'DELETE',
    path: '/__mock/chaos',
    summary: 'Turn every chaos mode off',
    handle: ({ api }) => {
      const chaos = installed(api);
      return ok({ chaos: chaos.off(), stats: chaos.stats() });
    },
  },
];
