/**
 * The chaos interceptor: what a real service may do to a client, opt-in and seeded. It touches only
 * REST requests (`/v0/...`): the admin API and the docs stay reliable, so a test can always turn chaos
 * off again. Faults are decided before the engine runs (latency, then a drop, then a 500); rewrites
 * (big ids, unknown fields) apply to the engine's result before the self-check and serialisation.
 */
import { createRandom, type Random } from '../../../fixtures/generate/prng.ts';
import type { AdminApi } from '../admin/api.ts';
import { ERROR_CODE_HEADER, INTERNAL_SERVER_ERROR } from '../errors.ts';
import { DROP, type EngineRequest, type EngineResponse } from '../exchange.ts';
import { jsonResponse } from '../respond.ts';
import { type HandlerResult, SerialisedJson } from '../types.ts';
import { registerAliasResolver } from '../violations/registry.ts';
import { type ChaosOptions, normalizeChaos } from './config.ts';
import { IdAliases } from './ids.ts';
import { chaosAttachments } from './registry.ts';
import type { Chaos } from './types.ts';
import { addUnknownFields } from './unknown-fields.ts';

export type { Chaos, ChaosStats } from './types.ts';

/** The error code header value of an injected 500 (debugging aid; a real service sends none). */
export const CHAOS_ERROR_CODE = 'CHAOS_INJECTED_ERROR';

const REST_PATH = /^\/v\d+(?:\/|$)/;

/** The chaos interceptor installed in the engine owning `admin`, if any (the admin routes find it here). */
export const chaosOf = (admin: AdminApi): Chaos | undefined => chaosAttachments.of(admin);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates the chaos interceptor (every mode off unless given); install it with
 * `createEngine({ interceptors: [chaos] })`, one engine per instance.
 *
 * @example
 * const chaos = createChaos({ unknownFields: true, errorRate: 0.05, seed: 7 });
 * const engine = createEngine({ interceptors: [chaos] });
 * chaos.configure({ latency: '50-300' });
 */
export function createChaos(options: ChaosOptions = {}): Chaos {
  let config = normalizeChaos(options);
  let faults: Random;
  let fields: Random;
  let aliases: IdAliases;
  let counts = {
    requests: 0,
    delayed: 0,
    delayedMs: 0,
    errors: 0,
    drops: 0,
    unknownFields: 0,
    idsRewritten: 0,
  };
  const reseed = (): void => {
    faults = createRandom(`${String(config.seed)}:faults`);
    fields = createRandom(`${String(config.seed)}:fields`);
    aliases = new IdAliases(config.seed);
    counts = {
      requests: 0,
      delayed: 0,
      delayedMs: 0,
      errors: 0,
      drops: 0,
      unknownFields: 0,
      idsRewritten: 0,
    };
  };
  reseed();
  const isRest = (request: EngineRequest): boolean =>
    request.method !== 'OPTIONS' && REST_PATH.test(request.url.pathname);

  const injectFault = async (request: EngineRequest): Promise<EngineResponse | undefined> => {
    const latency = config.latency;
    if (latency !== null) {
      const ms = latency.minMs + faults.int(latency.maxMs - latency.minMs + 1);
      counts.delayed += 1;
      counts.delayedMs += ms;
      await sleep(ms);
    }
    if (config.dropRate > 0 && faults.chance(config.dropRate)) {
      counts.drops += 1;
      return DROP;
    }
    if (config.errorRate > 0 && faults.chance(config.errorRate)) {
      counts.errors += 1;
      return jsonResponse(
        500,
        { success: false, error: INTERNAL_SERVER_ERROR },
        { [ERROR_CODE_HEADER]: CHAOS_ERROR_CODE },
        request.method === 'HEAD',
      );
    }
    return undefined;
  };

  const chaos: Chaos = {
    kind: 'chaos',
    attach(host) {
      chaosAttachments.set(host.admin, chaos);
      registerAliasResolver(host.admin, (id) => aliases.original(id));
    },
    onRequest(request) {
      // With every mode off (the default of `cca-kit mock`) this is all a request pays: no promise.
      const faults = config.latency !== null || config.dropRate > 0 || config.errorRate > 0;
      if (!faults && !config.bigIds && !config.unknownFields) return undefined;
      if (!isRest(request)) return undefined;
      counts.requests += 1;
      return faults ? injectFault(request) : undefined;
    },
    rewriteRequest(request) {
      return config.bigIds && isRest(request) ? aliases.rewriteRequest(request) : undefined;
    },
    onResult({ request, result }) {
      if (!(config.bigIds || config.unknownFields) || !isRest(request)) return undefined;
      // Rewriting needs the value; a pre-serialised page is parsed only while these modes are on.
      let body = result.body instanceof SerialisedJson ? result.body.value() : result.body;
      if (typeof body !== 'object' || body === null) return undefined;
      if (config.bigIds) {
        const rewrite = aliases.rewriteBody(body);
        counts.idsRewritten += rewrite.rewritten;
        body = rewrite.body;
      }
      if (config.unknownFields) {
        const extended = addUnknownFields(body, fields);
        counts.unknownFields += extended.added;
        body = extended.body;
      }
      const next: HandlerResult = { ...result, body };
      return next;
    },
    config: () => config,
    configure(patch) {
      config = normalizeChaos(patch, config);
      if (patch.seed !== undefined) reseed();
      return config;
    },
    off() {
      config = normalizeChaos(
        { unknownFields: false, bigIds: false, latency: null, errorRate: 0, dropRate: 0 },
        config,
      );
      return config;
    },
    stats: () => ({ ...counts, aliases: aliases.size }),
    originalId: (servedId) => aliases.original(servedId),
  };
  return chaos;
}
