import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { arbitraryFromSchema } from '../arbitraries/from-schema.ts';
import type { JsonSchema } from '../arbitraries/json-schema.ts';
import { type Contract, createContract } from './contract.ts';
import { contractDocument } from './load.ts';
import { miniDocument } from './mini-document.ts';
import { resolveLocalRef } from './operations.ts';
import { precompiledValidatorModules } from './precompile.ts';
import { componentSchemas, responseSchema, validatorSchemas } from './validator-schemas.ts';
import type { PrecompiledValidators } from './validators.ts';

const require = createRequire(import.meta.url);

/** Evaluates generated modules as the CLI's bundle does, counting the keys asked for but not found. */
function load(modules: ReadonlyMap<string, string>, misses: string[] = []): PrecompiledValidators {
  return (key) => {
    const code = modules.get(key);
    if (code === undefined) {
      misses.push(key);
      return undefined;
    }
    const module: { exports: unknown } = { exports: {} };
    new Function('module', 'exports', 'require', code)(module, module.exports, require);
    return module.exports as ValidateFunction;
  };
}

const documents: readonly [string, OpenAPIV3_1.Document][] = [
  ['the mini document', miniDocument],
  ['contract/openapi.json', contractDocument],
];

/** A value for a schema: usually one that fits, sometimes any JSON value at all. */
function valueFor(doc: OpenAPIV3_1.Document, schema: unknown): fc.Arbitrary<unknown> {
  const resolve = (ref: string) => resolveLocalRef(doc, { $ref: ref }) as JsonSchema;
  return fc.oneof(
    { weight: 3, arbitrary: arbitraryFromSchema(schema as JsonSchema, { resolve }) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/** Every outcome a contract gives for one value, through each validator that can check it. */
function outcomes(contract: Contract, doc: OpenAPIV3_1.Document, value: unknown, query: URLSearchParams) {
  const results: unknown[] = [];
  for (const name of Object.keys(componentSchemas(doc))) results.push(contract.validateSchema(name, value));
  for (const operation of contract.operations.values()) {
    const id = operation.operationId;
    const pathParams = Object.fromEntries(
      operation.pathParamNames.map((name) => [name, query.get(name) ?? '']),
    );
    const input = { pathParams, query, body: value, contentType: 'application/json' };
    results.push(
      contract.validateRequest(id, input),
      contract.validateRequest(id, input, { body: 'envelope' }),
    );
    for (const status of operation.responses.keys()) {
      const code = /^\d+$/.test(status) ? Number(status) : 500;
      if (responseSchema(operation, status) !== undefined)
        results.push(contract.validateResponse(id, code, value));
    }
  }
  return results;
}

describe.each(documents)('validators compiled ahead of time, for %s', (_name, doc) => {
  const modules = precompiledValidatorModules(doc);
  const compiled = createContract(doc);

  it('one module per validator, and a contract using them compiles none itself', () => {
    const keys = [...validatorSchemas(doc, compiled.operations)].map(([key]) => key);
    expect([...modules.keys()].sort()).toEqual([...keys].sort());
    const misses: string[] = [];
    const precompiled = createContract(doc, { precompiled: load(modules, misses) });
    outcomes(precompiled, doc, {}, new URLSearchParams());
    expect(misses).toEqual([]);
  });

  it('give the same outcome and the same issues as validators compiled at first use', () => {
    const precompiled = createContract(doc, { precompiled: load(modules) });
    const schemas = [...validatorSchemas(doc, compiled.operations)].map(([, schema]) => schema);
    const query = fc
      .dictionary(
        fc.constantFrom(...[...compiled.operations.values()].flatMap((o) => o.parameters.map((p) => p.name))),
        fc.oneof(fc.string({ maxLength: 8 }), fc.integer().map(String), fc.constantFrom('true', '1.5', '')),
        { maxKeys: 4 },
      )
      .map((entries) => new URLSearchParams(entries));
    const value = fc.constantFrom(...schemas).chain((schema) => valueFor(doc, schema));
    fc.assert(
      fc.property(value, query, (v, q) => {
        expect(outcomes(precompiled, doc, v, q)).toEqual(outcomes(compiled, doc, v, q));
      }),
      { numRuns: 40 },
    );
  });
});
