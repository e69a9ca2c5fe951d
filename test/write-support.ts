/**
 * Shared set-up of the write-side tests: an in-process engine on a frozen clock with self-check on
 * (every response is validated against the contract; a violation becomes a 500 and is recorded),
 * keys of every profile, and small request helpers.
 */
import { MockClock } from '../mocks/engine/clock.ts';
import { createEngine, type Engine } from '../mocks/engine/engine.ts';
import type { EngineOptions } from '../mocks/engine/options.ts';
import type { KeyProfile } from '../mocks/engine/types.ts';

export const START = Date.parse('2026-11-20T12:00:00Z');
/** In `ad_policy` mode in the seeded data set. */
export const AD_ORG = 'org_acme';
/** In `standard` mode in the seeded data set. */
export const STANDARD_ORG = 'org_globex';

export interface WriteHarness {
  readonly engine: Engine;
  readonly keys: Readonly<Record<KeyProfile, string>>;
  /** A read_write key of the standard-mode organization. */
  readonly standardKey: string;
  request(
    method: string,
    path: string,
    key: string | null,
    body?: unknown,
  ): Promise<{ status: number; body: unknown; text: string }>;
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

export function createHarness(options: EngineOptions = {}): WriteHarness {
  const engine = createEngine({
    actions: 40,
    selfCheck: true,
    clock: new MockClock({ start: START }),
    ...options,
  });
  const key = (organizationId: string, profile: KeyProfile) =>
    engine.admin.createKey({ organizationId, profile, expiry: 'none' }).key;
  const keys = {
    reporting: key(AD_ORG, 'reporting'),
    write: key(AD_ORG, 'write'),
    read_write: key(AD_ORG, 'read_write'),
    import: key(AD_ORG, 'import'),
  };
  const standardKey = key(STANDARD_ORG, 'read_write');
  const send = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const response = await engine.handle(new Request(`http://mock.test${path}`, init), {
      remoteAddress: '127.0.0.1',
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), text };
  };
  return {
    engine,
    keys,
    standardKey,
    request: (method, path, apiKey, body) =>
      send(method, path, apiKey === null ? {} : { 'x-api-key': apiKey }, body),
    admin: (method, path, body) => send(method, path, {}, body),
  };
}

/** Narrows a JSON body to an object for property access in tests. */
export function obj(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`not an object: ${String(value)}`);
  return value as Record<string, unknown>;
}
