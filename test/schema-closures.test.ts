/**
 * ClosureAjv (src/contract/schema-closures/) against ajv itself: the same validity and the same errors
 * (instancePath, schemaPath, keyword, params, message, in the same order) for every validator of the
 * contract, for contract/data.schema.json, through the contract's own API, and keyword by keyword.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import dataSchema from '../contract/data.schema.json' with { type: 'json' };
import type { JsonSchema } from '../src/arbitraries/json-schema.ts';
import { createContract } from '../src/contract/contract.ts';
import { contractDocument } from '../src/contract/load.ts';
import { buildOperationTable, resolveLocalRef } from '../src/contract/operations.ts';
import {
  addFormats,
  ClosureAjv,
  closureAjvModules,
  ucs2length,
} from '../src/contract/schema-closures/index.ts';
import { compileIn, createAjv, responseSchema, validatorSchemas } from '../src/contract/validator-schemas.ts';
import { valuesFor } from './support/schema-closures-values.ts';

// createAjv takes the compiler: both run the same set-up steps (formats, annotation keywords, components).
const closureAjvOf = (doc: OpenAPIV3_1.Document): ReturnType<typeof createAjv> =>
  createAjv(doc, undefined, closureAjvModules);

const doc = contractDocument;
const operations = buildOperationTable(doc);
const validators = [...validatorSchemas(doc, operations)];
const resolveInDoc = (ref: string) => resolveLocalRef(doc, { $ref: ref }) as JsonSchema;

/** ajv's and ClosureAjv's outcome for one value, as one comparable object. */
const outcome = (validate: ValidateFunction, value: unknown) => ({
  valid: validate(value),
  errors: validate.errors,
});

describe('every validator of the contract', () => {
  const ajv = createAjv(doc);
  const closures = closureAjvOf(doc);
  const pairs = validators.map(([key, schema]) => ({
    key,
    schema,
    ajv: compileIn(ajv, schema),
    closure: compileIn(closures, schema),
  }));

  it('compiles all of them with ClosureAjv', () => {
    expect(pairs.length).toBeGreaterThan(150);
    expect(closures).toBeInstanceOf(ClosureAjv);
  });

  it('gives ajv’s validity and errors, in order, on fitting, broken and arbitrary values', () => {
    let invalid = 0;
    for (const [i, pair] of pairs.entries()) {
      fc.assert(
        fc.property(valuesFor(pair.schema, resolveInDoc), (value) => {
          const expected = outcome(pair.ajv, value);
          if (!expected.valid) invalid++;
          expect({ key: pair.key, ...outcome(pair.closure, value) }).toStrictEqual({
            key: pair.key,
            ...expected,
          });
        }),
        { numRuns: 40, seed: 20261124 + i },
      );
    }
    // The generated values exercise the error paths, not only the happy one.
    expect(invalid).toBeGreaterThan(pairs.length * 10);
  });
});

describe('contract/data.schema.json with mocks/engine/data-file/schema.ts options', () => {
  const options: Options = { strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true };
  const ajv = new Ajv2020(options).addSchema(dataSchema);
  const closures = new ClosureAjv(options).addSchema(dataSchema);
  // The whole file's validator as data-file/schema.ts compiles it, and each record kind's, by fragment.
  const targets = [null, ...Object.keys(dataSchema.$defs)].map((name) => {
    const id = name === null ? dataSchema.$id : `${dataSchema.$id}#/$defs/${name}`;
    return { id, ajv: ajv.getSchema(id), closure: closures.getSchema(id) };
  });
  // Values come from a copy whose UUID pattern is a `format: uuid` (arbitraryFromSchema caps a pattern's
  // strings at 16 characters); the validators check the schema as shipped.
  const forValues = structuredClone(dataSchema);
  Object.assign(forValues.$defs.replyRequest.properties.requestId, { format: 'uuid' });
  const resolve = (ref: string) => resolveLocalRef(forValues, { $ref: ref }) as JsonSchema;
  const schemas: unknown[] = [forValues, ...Object.values(forValues.$defs)];
  const cases = fc
    .nat(targets.length - 1)
    .chain((i) => valuesFor(schemas[i], resolve).map((value) => ({ i, value })));

  it('gives ajv’s validity and errors on generated data files and records', () => {
    expect(new ClosureAjv(options).compile(dataSchema)).toBeTypeOf('function');
    const seen = { valid: 0, invalid: 0, validFiles: 0 };
    fc.assert(
      fc.property(cases, ({ i, value }) => {
        const target = targets[i];
        if (target?.ajv === undefined || target.closure === undefined) throw new Error(`no validator ${i}`);
        const expected = outcome(target.ajv, value);
        seen[expected.valid ? 'valid' : 'invalid']++;
        if (i === 0 && expected.valid) seen.validFiles++;
        expect({ id: target.id, ...outcome(target.closure, value) }).toStrictEqual({
          id: target.id,
          ...expected,
        });
      }),
      { numRuns: 600, seed: 7 },
    );
    expect(seen.valid).toBeGreaterThan(100);
    expect(seen.invalid).toBeGreaterThan(100);
    expect(seen.validFiles).toBeGreaterThan(5);
  });
});

describe('the contract built from ClosureAjv validators', () => {
  const closures = closureAjvOf(doc);
  const compiled = new Map(validators.map(([key, schema]) => [key, compileIn(closures, schema)]));
  const viaClosures = createContract(doc, { precompiled: (key) => compiled.get(key) });
  const viaAjv = createContract(doc);
  const parameterNames = [...operations.values()].flatMap((o) => o.parameters.map((p) => p.name));
  const query = fc
    .dictionary(
      fc.constantFrom(...parameterNames),
      fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.integer().map(String),
        fc.constantFrom('true', '1.5', '', '-1'),
      ),
      { maxKeys: 4 },
    )
    .map((entries) => new URLSearchParams(entries));
  const body = fc
    .constantFrom(...validators.map(([, schema]) => schema))
    .chain((s) => valuesFor(s, resolveInDoc));

  it('answers validateRequest, validateResponse and validateSchema exactly as ajv’s', () => {
    const outcomes = (contract: typeof viaAjv, value: unknown, q: URLSearchParams) => {
      const results: unknown[] = [];
      for (const name of contract.componentNames) results.push(contract.validateSchema(name, value));
      for (const operation of operations.values()) {
        const pathParams = Object.fromEntries(operation.pathParamNames.map((n) => [n, q.get(n) ?? '']));
        const input = { pathParams, query: q, body: value, contentType: 'application/json' };
        results.push(contract.validateRequest(operation.operationId, input));
        results.push(contract.validateRequest(operation.operationId, input, { body: 'envelope' }));
        for (const status of operation.responses.keys())
          if (responseSchema(operation, status) !== undefined)
            results.push(
              contract.validateResponse(operation.operationId, /^\d+$/.test(status) ? +status : 500, value),
            );
      }
      return results;
    };
    fc.assert(
      fc.property(body, query, (value, q) => {
        expect(outcomes(viaClosures, value, q)).toStrictEqual(outcomes(viaAjv, value, q));
      }),
      { numRuns: 60, seed: 3 },
    );
  });
});

/**
 * Compiles in ajv and in ClosureAjv with the data file's options (strict, but `required` may name
 * properties declared elsewhere) and compares outcomes value by value.
 */
function same(
  schema: unknown,
  values: readonly unknown[],
  extra: Options = {},
  setUp?: (a: Ajv2020) => void,
) {
  const options: Options = {
    strict: true,
    strictRequired: false,
    allErrors: true,
    allowUnionTypes: true,
    ...extra,
  };
  const ajv = new Ajv2020(options);
  const closures = new ClosureAjv(options);
  formatsModule.default(ajv);
  addFormats(closures);
  setUp?.(ajv);
  setUp?.(closures as unknown as Ajv2020);
  const a = ajv.compile(schema as object);
  const c = closures.compile(schema);
  for (const value of values)
    expect({ value, ...outcome(c, value) }).toStrictEqual({ value, ...outcome(a, value) });
  return { ajv: a, closure: c };
}

describe('keywords, one by one, against ajv', () => {
  it('type: single, union, integer, nullable; checked up front or inside its group', () => {
    same({ type: 'integer', minimum: 1 }, [1, 0, 1.5, 'a', null, 2 ** 60]);
    same({ type: ['string', 'null'], minLength: 2 }, ['ab', 'a', null, 3, {}]);
    same({ type: 'string', minLength: 1, enum: ['a', 'b'] }, ['a', '', 'c', 5]);
    same({ type: 'string', enum: ['a', 'b'] }, [5, 'c']);
    same({ type: 'object', required: ['a'], allOf: [{ required: ['b'] }] }, [{}, [], 'x']);
    same({ type: 'number', nullable: true, maximum: 3 }, [null, 4, 'x']);
  });

  it('enum and const compare deeply', () => {
    same({ enum: [1, 'a', { b: [1, 2] }, null] }, [1, 'a', { b: [1, 2] }, { b: [2, 1] }, null, [1]]);
    same({ const: { a: [1, { b: null }] } }, [{ a: [1, { b: null }] }, { a: [1, { b: 0 }] }, 1]);
  });

  it('object keywords: required in schema order, properties only when present, additional in key order', () => {
    const object = {
      type: 'object',
      required: ['z', 'a', 'm'],
      minProperties: 2,
      maxProperties: 4,
      properties: {
        a: { type: 'string' },
        'x/y~z': { type: 'integer' },
        'é🙂': { maxLength: 1, type: 'string' },
      },
      patternProperties: { '^p\\d$': { type: 'boolean' } },
      additionalProperties: false,
      dependentRequired: { a: ['b', 'c'], q: ['r'] },
      propertyNames: { maxLength: 3 },
    };
    same(object, [{}, { a: 1, q: 1, 'x/y~z': 'n', 'é🙂': '🙂🙂', p1: 'no', long: 1, z: 0, m: 0 }, { z: 1 }]);
    same({ type: 'object', additionalProperties: { type: 'number' }, properties: { a: true } }, [
      { a: 'x', b: 'y', c: 1 },
    ]);
    same({ type: 'object', propertyNames: { pattern: '^[a-z]+$', maxLength: 2 } }, [
      { ab: 1, ABC: 2, 'a b': 3 },
    ]);
    // Through an inlined $ref the errors carry `propertyName`; through a compiled one (it has refs) not.
    const names = (a: Ajv2020) => {
      const id = 'https://cca-kit.invalid/components/schemas/';
      a.addSchema({ type: 'string', maxLength: 2 }, `${id}Short`);
      a.addSchema(
        { type: 'string', maxLength: 2, not: { $ref: '#/$defs/zz' }, $defs: { zz: { const: 'zz' } } },
        `${id}Refs`,
      );
    };
    const viaRef = (name: string) => ({
      type: 'object',
      propertyNames: { $ref: `https://cca-kit.invalid/components/schemas/${name}` },
    });
    same(viaRef('Short'), [{ abc: 1, ab: 2 }], {}, names);
    same(viaRef('Refs'), [{ abc: 1, zz: 2, ab: 3 }], {}, names);
  });

  it('array keywords: items, prefixItems, contains, uniqueItems, sizes', () => {
    same({ type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 3 }, [
      [],
      [1, 'a'],
      [1, 2, 3, 4.5],
    ]);
    same({ type: 'array', prefixItems: [{ type: 'string' }], minItems: 1, items: false }, [
      ['a'],
      [1, 2],
      [],
    ]);
    same({ type: 'array', prefixItems: [{ type: 'string' }], minItems: 1, maxItems: 1 }, [[2]]);
    same({ type: 'array', prefixItems: [true], minItems: 1, items: { type: 'null' } }, [[1, null, 2]], {
      strictTuples: false,
    });
    same({ type: 'array', items: false }, [[], [1, 2]]);
    same({ type: 'array', contains: { type: 'string' } }, [[], [1, 2], [1, 'a']]);
    same({ type: 'array', contains: false, minContains: 0, maxContains: 1 }, [[], [1, 2]]);
    same({ type: 'array', contains: { type: 'string' }, minContains: 2, maxContains: 3 }, [
      ['a'],
      ['a', 'b'],
      ['a', 'b', 'c', 'd'],
    ]);
    same({ type: 'array', uniqueItems: true }, [
      [1, 2, 1],
      [{ a: 1 }, { a: 1 }],
      ['1', 1],
      [[1], [1]],
    ]);
    same({ type: 'array', uniqueItems: true, items: { type: ['string', 'number'] } }, [
      ['1', 1, 2, '1'],
      [3, 3],
    ]);
    same({ type: 'array', uniqueItems: true, items: { type: 'number' } }, [[1, 'x', 'x', 2, 1]]);
  });

  it('string keywords count code points and match patterns with the u flag', () => {
    same({ type: 'string', minLength: 2, maxLength: 3, pattern: '^\\p{L}+$' }, [
      'é',
      '🙂',
      '🙂🙂',
      'abcd',
      '😀😀😀😀',
      'a1',
    ]);
    expect(ucs2length('a🙂é\uD800')).toBe(4);
  });

  it('formats are ajv-formats’ own, on strings and on numbers; one the build does not carry does not compile', () => {
    same({ type: 'string', format: 'date-time' }, ['2024-01-01T00:00:00Z', '2024-13-01T00:00:00Z', 'x', 5]);
    same({ type: 'string', format: 'uri', maxLength: 30 }, ['https://a.b/c', 'not a uri', '']);
    same({ type: ['string', 'number'], format: 'date-time' }, [
      '2024-02-29T23:59:60Z',
      '2023-02-29T00:00:00Z',
      3,
    ]);
    // ClosureAjv carries the contract's formats only (./formats.ts, test/schema-closures-formats.test.ts).
    const closures = addFormats(new ClosureAjv({ strict: true, allErrors: true }));
    expect(() => closures.compile({ type: 'integer', format: 'int32' })).toThrow(
      'unknown format "int32" ignored in schema at path "#" (registered formats: date-time, uri)',
    );
  });

  it('number keywords: limits, exclusive limits, multipleOf', () => {
    const numbers = [0, 1, 9.99, 10, 10.01, -5, 0.3];
    same({ type: 'number', minimum: 0, maximum: 10, exclusiveMinimum: -1, exclusiveMaximum: 10 }, numbers);
    same({ type: 'number', multipleOf: 0.01 }, [...numbers, 0.123, 1e21]);
  });

  it('allOf, anyOf, oneOf (none, one, two, three passing), not, if/then/else', () => {
    same({ allOf: [{ type: 'string' }, { minLength: 2, type: 'string' }] }, ['a', 1, 'ab']);
    same({ anyOf: [{ type: 'string' }, { type: 'integer', minimum: 5 }] }, ['a', 1, 7, null]);
    const three = { oneOf: [{ type: 'number' }, { type: 'integer' }, { minimum: 0, type: 'number' }] };
    same(three, ['x', 1.5, -1, 1, -1.5]);
    same({ not: { type: 'string' } }, ['a', 1]);
    const conditional = {
      type: 'object',
      if: { properties: { a: { const: 1 } }, required: ['a'] },
      // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here
      then: { required: ['b'] },
      else: { required: ['c'] },
    };
    same(conditional, [{ a: 1 }, { a: 2 }, { a: 1, b: 1 }, { c: 1 }]);
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword here
    const thenOnly = { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } };
    same(thenOnly, [{ a: 1 }, {}]);
  });

  it('false schemas, $ref with siblings, recursion, registered ids and fragments', () => {
    same({ type: 'object', properties: { no: false } }, [{ no: 1 }, {}]);
    const tree = {
      $defs: {
        node: {
          type: 'object',
          required: ['v'],
          properties: { v: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#/$defs/node' } } },
        },
      },
      $ref: '#/$defs/node',
      type: 'object',
      maxProperties: 2,
    };
    same(tree, [{ v: 1, kids: [{ v: 2, kids: [{ v: 'x' }, {}] }] }, { v: 1, kids: [], extra: 1 }, 'x']);
    const register = (a: Ajv2020) => {
      a.addSchema(
        { type: 'object', properties: { n: { type: 'string', maxLength: 2 } } },
        'https://cca-kit.invalid/components/schemas/Uni',
      );
      a.addSchema(
        { type: 'object', properties: { self: { $ref: 'https://cca-kit.invalid/components/schemas/Loop' } } },
        'https://cca-kit.invalid/components/schemas/Loop',
      );
    };
    const refs = {
      type: 'object',
      properties: {
        whole: { $ref: 'https://cca-kit.invalid/components/schemas/Uni' },
        part: { $ref: 'https://cca-kit.invalid/components/schemas/Uni#/properties/n' },
        local: { $ref: '#/$defs/%C3%A9~1%F0%9F%99%82' },
        loop: { $ref: 'https://cca-kit.invalid/components/schemas/Loop' },
      },
    };
    const withDefs = { ...refs, $defs: { 'é/🙂': { type: 'string', maxLength: 1 } } };
    same(
      withDefs,
      [{ whole: { n: 'abc' }, part: 5, loop: { self: { self: 1 } }, local: '🙂🙂' }, { whole: 1 }],
      {},
      register,
    );
    // ajv percent-encodes a non-ASCII reference but looks ids up as registered: it cannot resolve one.
    const unicodeId = 'https://cca-kit.invalid/components/schemas/Ünï';
    for (const engine of [new Ajv2020({ allErrors: true }), new ClosureAjv({ allErrors: true })]) {
      engine.addSchema({ type: 'string' }, unicodeId);
      expect(engine.getSchema(unicodeId)?.(1)).toBe(false);
      expect(() => engine.compile({ $ref: unicodeId })).toThrow(/can't resolve reference/);
    }
  });

  it('throws at compile time where ajv throws, naming the keyword or format', () => {
    const throwsBoth = (schema: object, name: RegExp) => {
      expect(() => new Ajv2020({ strict: true, allErrors: true }).compile(schema)).toThrow();
      expect(() => new ClosureAjv({ strict: true, allErrors: true }).compile(schema)).toThrow(name);
    };
    throwsBoth({ type: 'string', minLenght: 1 }, /unknown keyword: "minLenght"/);
    throwsBoth({ type: 'string', format: 'date-time' }, /unknown format "date-time"/);
    throwsBoth({ type: 'string', minLength: 'x' }, /minLength value must be/);
    throwsBoth({ type: 'strin' }, /type must be JSONType/);
    throwsBoth({ minLength: 1 }, /missing type "string" for keyword "minLength"/);
    throwsBoth({ type: 'object', required: ['a'] }, /required property "a" is not defined/);
    throwsBoth({ type: 'array', prefixItems: [true] }, /"prefixItems" is 1-tuple/);
    throwsBoth({ $ref: 'https://cca-kit.invalid/components/schemas/Missing' }, /can't resolve reference/);
    expect(() => new ClosureAjv({ allErrors: true }).compile({ unevaluatedProperties: false })).toThrow(
      /unevaluatedProperties/,
    );
    expect(() => new ClosureAjv({ allErrors: false })).toThrow(/allErrors/);
  });

  it('generates no code: compiles and validates under node --disallow-code-generation-from-strings', () => {
    const script = fileURLToPath(new URL('./support/schema-closures-csp.ts', import.meta.url));
    const run = (engineName: string) => {
      const child = spawnSync(
        process.execPath,
        ['--disallow-code-generation-from-strings', '--import', 'tsx', script, engineName],
        { encoding: 'utf8', cwd: fileURLToPath(new URL('..', import.meta.url)) },
      );
      return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as { ok: boolean; error?: string };
    };
    expect(run('closures')).toMatchObject({ ok: true, dataValid: true });
    // The control: ajv's compiler needs `new Function` and fails in the same child.
    expect(run('ajv')).toMatchObject({ ok: false, error: expect.stringContaining('Code generation') });
  });
});
