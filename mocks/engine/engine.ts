/**
 * The mock engine with every optional part (`full-parts.ts`): what the CLI, `cca-kit/mock`,
 * `cca-kit/agent` and `cca-kit/msw` in node run. The core and its parts are in `core.ts` and `parts.ts`.
 */
import { createEngineWith, type Engine } from './core.ts';
import { FULL_PARTS } from './full-parts.ts';
import type { EngineOptions } from './options.ts';

export type { Engine, SelfCheckFailure, UnexpectedError } from './core.ts';

/**
 * Creates an engine with its own state and clock.
 *
 * @example
 * const engine = createEngine({ seed: 42, clock: new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') }) });
 * const response = await engine.handle(new Request('http://mock/v0/agents', { headers: { 'x-api-key': key } }));
 */
export function createEngine(options: EngineOptions = {}): Engine {
  return createEngineWith(FULL_PARTS, options);
}
