import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { agentContract } from '../../../src/contract/agent.ts';
import { advertisedOutputSchema, portabilityIssues } from './advertised-schema.ts';

describe('advertised output schema: the success schema, portable', () => {
  const contract = agentContract();

  it.each(contract.tools.map((t) => t.name))(
    '%s: no type arrays, a validation keyword in every schema, and it compiles under 2020-12 and draft-07',
    (name) => {
      const schemas = contract.toolSchemas(name);
      expect(schemas).toBeDefined();
      if (schemas === undefined) return;
      const advertised = advertisedOutputSchema(schemas.outputSchema);
      expect(portabilityIssues(advertised)).toEqual([]);
      expect(JSON.stringify(advertised)).not.toMatch(/"\$comment"|"x-spec-gap"/);
      for (const ajv of [new Ajv2020({ strict: false }), new Ajv({ strict: false })]) ajv.compile(advertised);
    },
  );

  it('the contract schemas themselves are not portable (what the rewrite is for)', () => {
    const issues = contract.tools.flatMap((t) =>
      portabilityIssues(contract.toolSchemas(t.name)?.outputSchema),
    );
    expect(issues.length).toBeGreaterThan(0);
  });

  it('a type array becomes an anyOf that accepts and refuses the same values; any-JSON stays any JSON', () => {
    const output = {
      type: 'object',
      required: ['n', 'any'],
      properties: {
        n: { type: ['integer', 'null'], minimum: 0, description: 'd' },
        any: { description: 'x' },
      },
    };
    const advertised = advertisedOutputSchema(output);
    expect(portabilityIssues(advertised)).toEqual([]);
    const validate = new Ajv2020({ strict: false }).compile(advertised);
    const original = new Ajv2020({ strict: false }).compile(output);
    for (const value of [
      { n: 1, any: 'a' },
      { n: null, any: null },
      { n: -1, any: 1 },
      { n: 'x', any: [] },
      { n: 1.5, any: {} },
      { any: true },
    ])
      expect(validate(value), JSON.stringify(value)).toBe(original(value));
  });
});
