import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { agentContract } from '../../../src/contract/agent.ts';
import type { AgentFailure } from '../types.ts';
import { advertisedOutputSchema } from './advertised-schema.ts';

const failures: AgentFailure[] = [
  { kind: 'invalid_input', code: 'INVALID_INPUT', field: '/script', message: 'script must be a string' },
  {
    kind: 'approval_required',
    code: 'APPROVAL_REQUIRED',
    requestId: 'r',
    approvalUrl: 'http://x/agent/replies/t',
    message: 'm',
  },
  { kind: 'limit_exceeded', code: 'LIMIT_EXCEEDED', limit: 'time', value: 5000, message: 'm' },
];

describe('advertised output schema: the tool output or an AgentFailure', () => {
  const contract = agentContract();
  const failure = contract.schemaAt('failures.json', '/schema') ?? true;

  it.each(contract.tools.map((t) => t.name))(
    '%s: failures validate, a non-failure non-output does not (2020-12 and draft-07 validators)',
    (name) => {
      const schemas = contract.toolSchemas(name);
      expect(schemas).toBeDefined();
      if (schemas === undefined) return;
      const advertised = advertisedOutputSchema(schemas.outputSchema, failure);
      // Clients compile the advertised schema with their own validator: the 1.x SDK uses ajv's default
      // (draft-07) with `$defs` understood; strict mode off as clients run it.
      for (const ajv of [new Ajv2020({ strict: false }), new Ajv({ strict: false })]) {
        const validate = ajv.compile(advertised);
        for (const f of failures) expect(validate(f), `${name} ${f.kind}`).toBe(true);
        expect(validate({ kind: 'invented', code: 'X', message: 'm', zzz: 1 }), name).toBe(false);
      }
    },
  );

  it('keeps a part whole: local references are rebased under $defs', () => {
    const output = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' } },
      $defs: { A: { type: 'string' } },
    };
    const advertised = advertisedOutputSchema(output, { type: 'object', required: ['kind'] });
    const validate = new Ajv2020({ strict: false }).compile(advertised);
    expect(validate({ a: 'text' })).toBe(true);
    expect(validate({ a: 1 })).toBe(false);
    expect(JSON.stringify(advertised)).toContain('#/$defs/result/$defs/A');
  });
});
