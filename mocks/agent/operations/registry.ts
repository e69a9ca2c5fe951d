/**
 * The registry behind `execute`: `list()` and `spec(id)` from the catalog, `call(ctx, id, input)`
 * checks in a fixed order (unknown id, input against the schema, scope), settles due ingestion (as
 * the REST pipeline does before every handler, so both interfaces see the same actions), then runs the
 * operation. With the engine's `selfCheck` on, every output is validated against the catalog and a
 * violation is recorded in `engine.selfCheckFailures` and answered as a failure. Inputs and outputs are
 * checked against the catalog as the caller's engine serves it (its choices: `catalogFor`).
 */

import type { Choices } from '../../../src/contract/choice-points.ts';
import { DEFAULT_CHOICES } from '../../engine/choices/defaults.ts';
import { settleIngestion } from '../../engine/ingestion/index.ts';
import type { Scope } from '../../engine/types.ts';
import type {
  AgentContext,
  AgentFailure,
  AgentOperation,
  OperationDescriptor,
  OperationRegistry,
  OperationSpec,
  Outcome,
} from '../types.ts';
import { fail } from '../types.ts';
import { CATALOG, catalogFor } from './catalog.ts';
import { forbidden, invalidInput } from './failures.ts';

const SCOPE_OF_EFFECT: Readonly<Record<OperationSpec['effect'], Scope>> = { read: 'read', write: 'write' };

/** An operation's implementation; its id, summary, effect and schemas come from the catalog. */
export type OperationRun = AgentOperation['run'];

/**
 * The registry of the catalog's operations; throws at once when one has no implementation. `list()`
 * and `spec(id)` serve the catalog of `choices` (default: the mock's defaults); `call` checks against
 * the catalog of the calling engine's choices.
 */
export function buildRegistry(
  runs: Readonly<Record<string, OperationRun>>,
  choices: Choices = DEFAULT_CHOICES,
): OperationRegistry {
  const byId = new Map<string, AgentOperation>();
  for (const spec of CATALOG) {
    const run = runs[spec.id];
    if (run === undefined) throw new Error(`operation ${spec.id} of the catalog has no implementation`);
    byId.set(spec.id, { id: spec.id, summary: spec.summary, effect: spec.effect, run });
  }
  const descriptors: readonly OperationDescriptor[] = CATALOG.map(({ id, summary, effect }) => ({
    id,
    summary,
    effect,
  }));
  const specs = new Map(catalogFor(choices).operations.map((spec) => [spec.id, spec]));

  return {
    list: () => descriptors,
    spec: (id) => specs.get(id),
    async call(ctx: AgentContext, id: string, input: unknown): Promise<Outcome<unknown>> {
      const spec = typeof id === 'string' ? specs.get(id) : undefined;
      const operation = typeof id === 'string' ? byId.get(id) : undefined;
      if (spec === undefined || operation === undefined) {
        return fail(
          invalidInput(
            '/operationId',
            `unknown operation ${JSON.stringify(id)}; spec() lists the operations: ${descriptors.map((d) => d.id).join(', ')}`,
          ),
        );
      }
      const served = catalogFor(ctx.engine.options.choices);
      const issue = served.checkInput(id, input);
      if (issue !== undefined) return fail(invalidInput(issue.field, `${id}: ${issue.message}`));
      const scope = SCOPE_OF_EFFECT[spec.effect];
      if (!ctx.identity.scopes.includes(scope)) {
        return fail(
          forbidden(
            scope,
            `${id} is a ${spec.effect} operation and needs the ${scope} scope; this key (profile ${ctx.identity.profile}) has ${ctx.identity.scopes.join(', ') || 'no scopes'}`,
          ),
        );
      }
      const engine = ctx.engine;
      let outcome: Outcome<unknown>;
      try {
        settleIngestion(engine.state.ingestion, engine.state.data);
        outcome = await operation.run(ctx, input);
      } catch (error) {
        engine.unexpectedErrors.push({ operationId: id, method: 'CALL', url: `agent:${id}`, error });
        return fail(internal(id));
      }
      if (outcome.ok && engine.options.selfCheck) {
        const violation = served.checkOutput(id, outcome.value);
        if (violation !== undefined) {
          engine.selfCheckFailures.push({
            operationId: id,
            method: 'CALL',
            url: `agent:${id}`,
            status: 200,
            issues: [
              {
                location: 'response',
                pointer: violation.field,
                field: violation.field,
                keyword: 'schema',
                message: violation.message,
              },
            ],
          });
          return fail(internal(id));
        }
      }
      return outcome;
    },
  };
}

/** An operation that threw: a bug of the mock, answered without details (recorded for tests). */
const internal = (id: string): AgentFailure => ({
  kind: 'script_error',
  code: 'SCRIPT_ERROR',
  message: `${id} failed inside the mock (an internal error, recorded in engine.unexpectedErrors)`,
});
