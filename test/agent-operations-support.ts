/**
 * Set-up shared by the agent-operations tests: an engine on a frozen clock with self-check on (every
 * REST answer and every operation output is validated; a violation is recorded), keys, an agent
 * context per key, and a REST request helper through `engine.handle`.
 */

import { createOperationRegistry } from '../mocks/agent/operations/index.ts';
import type { AgentContext, OperationRegistry, Outcome } from '../mocks/agent/types.ts';
import { MockClock } from '../mocks/engine/clock.ts';
import { createEngine, type Engine } from '../mocks/engine/engine.ts';
import type { EngineOptions } from '../mocks/engine/options.ts';
import type { KeyProfile, Scope } from '../mocks/engine/types.ts';

export const START = Date.parse('2026-11-20T12:00:00Z');
export const ORG = 'org_acme';
export const OTHER_ORG = 'org_globex';

const SCOPES: Readonly<Record<KeyProfile, readonly Scope[]>> = {
  reporting: ['read'],
  write: ['write'],
  read_write: ['read', 'write'],
  import: ['ingest', 'ingest:read'],
};

export interface OperationsHarness {
  readonly engine: Engine;
  readonly registry: OperationRegistry;
  /** An agent context of the organization with the profile's scopes. */
  context(profile?: KeyProfile, organizationId?: string): AgentContext;
  call(id: string, input: unknown, ctx?: AgentContext): Promise<Outcome<unknown>>;
  /** Calls and returns the value; throws with the failure when the call failed. */
  value(id: string, input: unknown, ctx?: AgentContext): Promise<Record<string, unknown>>;
  rest(
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<{ status: number; body: unknown }>;
  readonly restKey: string;
  readonly importKey: string;
}

export function createOperationsHarness(options: EngineOptions = {}): OperationsHarness {
  const engine = createEngine({
    actions: 600,
    selfCheck: true,
    clock: new MockClock({ start: START }),
    ...options,
  });
  const registry = createOperationRegistry();
  const restKey = engine.admin.createKey({ organizationId: ORG, profile: 'reporting', expiry: 'none' }).key;
  const importKey = engine.admin.createKey({ organizationId: ORG, profile: 'import', expiry: 'none' }).key;
  const context = (profile: KeyProfile = 'read_write', organizationId = ORG): AgentContext => ({
    engine,
    identity: { organizationId, keyName: `test ${profile} key`, profile, scopes: SCOPES[profile] },
    publicOrigin: null,
    signal: new AbortController().signal,
  });
  const call = (id: string, input: unknown, ctx = context()) => registry.call(ctx, id, input);
  return {
    engine,
    registry,
    context,
    call,
    async value(id, input, ctx) {
      const outcome = await call(id, input, ctx);
      if (!outcome.ok) throw new Error(`${id} failed: ${JSON.stringify(outcome.failure)}`);
      return outcome.value as Record<string, unknown>;
    },
    async rest(method, path, body, key = restKey) {
      const init: RequestInit = { method, headers: { 'x-api-key': key } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] = 'application/json';
      }
      const response = await engine.handle(new Request(`http://mock.test${path}`, init), {
        remoteAddress: '127.0.0.1',
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    },
    restKey,
    importKey,
  };
}
