/**
 * The output schema a tool advertises in tools/list: its contract output schema OR an AgentFailure.
 *
 * Why both: a failure is an `isError` result whose structuredContent is the failure, and MCP clients
 * on the 1.x TypeScript SDK (the inspector, most desktop clients; checked on 1.32.2) validate
 * structuredContent against the advertised outputSchema even on an error result. Advertising the union
 * keeps failures structured for every client. Each part is kept whole under `$defs`, its local
 * references rebased, so the union is exact.
 */
import type { AgentJsonSchema } from '../../../src/contract/agent.ts';
import { rebaseRefs } from '../../../src/contract/schema-refs.ts';

type Json = Record<string, unknown>;

function part(schema: AgentJsonSchema, base: string): unknown {
  if (typeof schema === 'boolean') return schema;
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rebaseRefs(rest, base);
}

/**
 * Builds `{ type: 'object', anyOf: [result, failure] }` with both parts under `$defs`.
 *
 * @example
 * advertisedOutputSchema({ type: 'object', properties: { ok: { type: 'boolean' } } }, failureSchema);
 */
export function advertisedOutputSchema(output: AgentJsonSchema, failure: AgentJsonSchema): Json {
  return {
    type: 'object',
    anyOf: [{ $ref: '#/$defs/result' }, { $ref: '#/$defs/failure' }],
    $defs: {
      result: part(output, '#/$defs/result'),
      failure: part(failure, '#/$defs/failure'),
    },
  };
}
