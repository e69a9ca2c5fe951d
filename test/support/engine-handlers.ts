/**
 * Test support for the engine's read handlers, kept out of the shipped engine: a fresh engine state on a
 * fixed clock and a way to call one handler the way the pipeline does (organization and key resolved,
 * query coerced).
 */

import { MockClock } from '../../mocks/engine/clock.ts';
import { applyCommand } from '../../mocks/engine/commands/apply.ts';
import type { Command, OutcomeOf } from '../../mocks/engine/commands/types.ts';
import { FULL_PARTS } from '../../mocks/engine/full-parts.ts';
import type { Handler } from '../../mocks/engine/handlers/context.ts';
import { normalizeOptions } from '../../mocks/engine/options.ts';
import { createEngineState, type EngineState } from '../../mocks/engine/state.ts';
import { type HandlerResult, SerialisedJson } from '../../mocks/engine/types.ts';
import type { OperationId } from '../../src/contract/index.ts';
import { validateResponse } from '../../src/contract/index.ts';

/** A fixed "now" for tests: 2026-11-20T12:00:00.000Z. */
export const TEST_NOW = Date.UTC(2026, 10, 20, 12, 0, 0, 0);

export function testState(
  options: { actions?: number; seed?: number; now?: number; searchCap?: number } = {},
): EngineState {
  const clock = new MockClock({ start: options.now ?? TEST_NOW });
  return createEngineState(
    normalizeOptions({
      seed: options.seed ?? 42,
      actions: options.actions ?? 2000,
      clock,
      ...(options.searchCap !== undefined ? { searchCap: options.searchCap } : {}),
    }),
    FULL_PARTS.dataFiles?.loadBaseline,
  );
}

export interface CallInput {
  readonly org?: string;
  readonly query?: Record<string, unknown>;
  readonly pathParams?: Record<string, string>;
  readonly body?: unknown;
}

/** Calls a handler like the pipeline would, with the organization's read_write key. */
export async function call(
  state: EngineState,
  operationId: OperationId,
  handler: Handler<EngineState>,
  input: CallInput = {},
): Promise<HandlerResult> {
  const orgId = input.org ?? 'org_acme';
  const organization = state.organizations.get(orgId);
  if (organization === undefined) throw new Error(`no organization ${orgId}`);
  const record = [...state.keys.byHash.values()].find(
    (k) => k.organizationId === orgId && k.profile === 'read_write' && !k.revoked,
  );
  if (record === undefined) throw new Error(`no read_write key of ${orgId} in the state`);
  const result = await handler({
    operationId,
    organization,
    key: record,
    pathParams: input.pathParams ?? {},
    query: input.query ?? {},
    body: input.body,
    rawBody: input.body === undefined ? '' : JSON.stringify(input.body),
    state,
    clock: state.data.clock,
    execute: async <C extends Command>(command: C) => {
      const clock = state.data.clock;
      if (!(clock instanceof MockClock)) throw new Error('test states run on a MockClock');
      const target = {
        state,
        clock,
        reset: () => {
          throw new Error('no reset in handler tests');
        },
      };
      const applied = applyCommand(target, { real: clock.realTime(), command });
      if (!applied.ok) throw applied.error;
      return applied.value as OutcomeOf<C>;
    },
  });
  // Tests read values: a pre-serialised page is parsed as the engine does before inspecting it.
  return result.body instanceof SerialisedJson ? { ...result, body: result.body.value() } : result;
}

/** The contract's verdict on a handler result (self-check). */
export function contractIssues(operationId: OperationId, result: HandlerResult): string[] {
  const verdict = validateResponse(operationId, result.status, result.body);
  return verdict.ok ? [] : verdict.issues.map((i) => `${i.field}: ${i.message}`);
}
