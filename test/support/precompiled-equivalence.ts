/**
 * Run by test/package-precompiled.test.ts under plain node (`node --import tsx`), not vitest: the shipped
 * `dist/src/contract/precompiled.js` must be loaded with node's own ESM/CommonJS interop, as an installed
 * package is (vitest's interop hands a CommonJS default export over differently). Prints a JSON verdict.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { arbitraryFromSchema } from '../../src/arbitraries/from-schema.ts';
import type { JsonSchema } from '../../src/arbitraries/json-schema.ts';
import { type Contract, createContract } from '../../src/contract/contract.ts';
import { contractDocument } from '../../src/contract/load.ts';
import { resolveLocalRef } from '../../src/contract/operations.ts';
import { componentSchemas, responseSchema, validatorSchemas } from '../../src/contract/validator-schemas.ts';
import type { PrecompiledValidators } from '../../src/contract/validators.ts';

const BUILT = join(process.argv[2] ?? '.', 'dist/src/contract/precompiled.js');

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

const doc = contractDocument;
const compiled = createContract(doc);
if (!existsSync(BUILT)) {
  console.log(JSON.stringify({ ok: false, reason: `${BUILT} is missing: run npm run build` }));
  process.exit(1);
}
const shipped = (await import(pathToFileURL(BUILT).href)) as { precompiledValidators: PrecompiledValidators };
const misses: string[] = [];
const precompiled = createContract(doc, {
  precompiled: (key) => {
    const found = shipped.precompiledValidators(key);
    if (found === undefined) misses.push(key);
    return found;
  },
});
outcomes(precompiled, doc, {}, new URLSearchParams());
const missing = [...misses];

const schemas = [...validatorSchemas(doc, compiled.operations)].map(([, schema]) => schema);
const query = fc
  .dictionary(
    fc.constantFrom(...[...compiled.operations.values()].flatMap((o) => o.parameters.map((p) => p.name))),
    fc.oneof(fc.string({ maxLength: 8 }), fc.integer().map(String), fc.constantFrom('true', '1.5', '')),
    { maxKeys: 4 },
  )
  .map((entries) => new URLSearchParams(entries));
const value = fc.constantFrom(...schemas).chain((schema) => valueFor(doc, schema));
const run = fc.check(
  fc.property(value, query, (v, q) =>
    isDeepStrictEqual(outcomes(precompiled, doc, v, q), outcomes(compiled, doc, v, q)),
  ),
  { numRuns: Number(process.argv[3] ?? '40'), seed: Number(process.argv[4] ?? '1') },
);
console.log(
  JSON.stringify({
    ok: missing.length === 0 && !run.failed,
    missing,
    checked: run.numRuns,
    counterexample: run.failed ? run.counterexample : null,
  }),
);
