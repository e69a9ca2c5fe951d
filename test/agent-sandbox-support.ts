/**
 * A small operation registry for the sandbox tests (the real one is mocks/agent/operations): `echo`
 * answers its input, `fail.field` fails `invalid_input` naming `/limit`, `write.thing` needs the
 * `write` scope, `slow` answers after `ms` milliseconds. Every call is recorded.
 */
import type {
  AgentContext,
  AgentFailure,
  OperationRegistry,
  OperationSpec,
  Outcome,
} from '../mocks/agent/types.ts';

const SPECS: readonly OperationSpec[] = [
  {
    id: 'echo',
    summary: 'Answers its input',
    effect: 'read',
    inputSchema: { type: 'object' },
    outputSchema: true,
  },
  {
    id: 'fail.field',
    summary: 'Always invalid input on /limit',
    effect: 'read',
    inputSchema: { type: 'object' },
    outputSchema: false,
  },
  {
    id: 'write.thing',
    summary: 'A write',
    effect: 'write',
    inputSchema: { type: 'object' },
    outputSchema: true,
  },
  {
    id: 'slow',
    summary: 'Answers after `ms` milliseconds',
    effect: 'read',
    inputSchema: { type: 'object' },
    outputSchema: true,
  },
];

export interface FakeRegistry extends OperationRegistry {
  readonly received: { operationId: string; input: unknown }[];
}

function failure(f: AgentFailure): Outcome<never> {
  return { ok: false, failure: f };
}

export function fakeRegistry(): FakeRegistry {
  const received: { operationId: string; input: unknown }[] = [];
  return {
    received,
    list: () => SPECS.map(({ id, summary, effect }) => ({ id, summary, effect })),
    spec: (id) => SPECS.find((s) => s.id === id),
    async call(ctx: AgentContext, id: string, input: unknown): Promise<Outcome<unknown>> {
      received.push({ operationId: id, input });
      switch (id) {
        case 'echo':
          return { ok: true, value: { input } };
        case 'fail.field':
          return failure({
            kind: 'invalid_input',
            code: 'INVALID_INPUT',
            field: '/limit',
            message: 'limit must be at most 100',
          });
        case 'write.thing':
          return ctx.identity.scopes.includes('write')
            ? { ok: true, value: { written: true } }
            : failure({
                kind: 'forbidden',
                code: 'FORBIDDEN',
                missingScope: 'write',
                message: 'this key lacks scope write',
              });
        case 'slow': {
          const ms = typeof input === 'object' && input !== null && 'ms' in input ? Number(input.ms) : 50;
          await new Promise((resolve) => setTimeout(resolve, ms));
          return { ok: true, value: { waited: ms } };
        }
        default:
          return failure({
            kind: 'invalid_input',
            code: 'INVALID_INPUT',
            field: '',
            message: `unknown operation "${id}"`,
          });
      }
    },
  };
}

/** A context for a reporting (read-only) key; the engine is not used by the fake registry. */
export function readerContext(signal: AbortSignal = new AbortController().signal): AgentContext {
  return {
    engine: undefined as never,
    identity: { organizationId: 'org-1', keyName: 'test-key', profile: 'reporting', scopes: ['read'] },
    publicOrigin: null,
    signal,
  };
}
