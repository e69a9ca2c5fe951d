/**
 * The browser build's contract (src/contract/lean-document.ts, written to dist/contract/openapi.browser.json
 * by scripts/build.js): the full contract minus its prose, still a valid OpenAPI 3.1 document that
 * describes every operation, and compiling to validators that check exactly what the full one's check.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { arbitraryFromSchema } from '../src/arbitraries/from-schema.ts';
import type { JsonSchema } from '../src/arbitraries/json-schema.ts';
import { createContract } from '../src/contract/contract.ts';
import { LEAN_NOTE, leanDocument } from '../src/contract/lean-document.ts';
import { contractDocument } from '../src/contract/load.ts';
import { buildOperationTable, resolveLocalRef } from '../src/contract/operations.ts';
import { validatorSchemas } from '../src/contract/validator-schemas.ts';
import { ROOT } from './support/processes.ts';

const PROSE = ['description', 'summary', 'example', 'examples', 'x-spec-gap', 'x-invalid-examples'];
const lean = leanDocument(contractDocument);

/** Every key of a JSON value with the path to it, map keys of `properties` excluded (they are names). */
function* keysOf(value: unknown, path = ''): Generator<[string, string]> {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) yield* keysOf(item, `${path}/${index}`);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'enum' || key === 'const' || key === 'default') continue;
      if (key === 'properties' && child !== null && typeof child === 'object') {
        for (const [name, schema] of Object.entries(child))
          yield* keysOf(schema, `${path}/properties/${name}`);
        continue;
      }
      yield [key, `${path}/${key}`];
      yield* keysOf(child, `${path}/${key}`);
    }
  }
}

describe('the lean contract of the browser build', () => {
  it('is a valid OpenAPI 3.1 document describing every operation, with no prose left and a note where it went', async () => {
    const result = await new Validator().validate(lean as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const leftover = [...keysOf(lean)].filter(
      ([key, path]) =>
        PROSE.includes(key) && !/\/responses\/[^/]+\/description$/.test(path) && path !== '/info/description',
    );
    expect(leftover).toEqual([]);
    expect(lean.info.description).toBe(LEAN_NOTE);
    expect([...buildOperationTable(lean).keys()]).toEqual([...buildOperationTable(contractDocument).keys()]);
    // Most of the document was prose: the point of the lean copy.
    expect(JSON.stringify(lean).length).toBeLessThan(JSON.stringify(contractDocument).length / 2);
  });

  it('keeps property names that look like prose keys, enums, defaults and the x- keywords the engine reads', () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 't', version: '1', description: 'long prose' },
      paths: {
        '/v0/x': {
          get: {
            operationId: 'getX',
            summary: 'prose',
            'x-required-scope': 'read',
            parameters: [
              {
                name: 'q',
                in: 'query',
                description: 'prose',
                example: 'a',
                schema: { type: 'string', default: 'x' },
              },
            ],
            responses: {
              '200': {
                description: 'prose',
                content: {
                  'application/json': {
                    example: { summary: 'a' },
                    schema: {
                      type: 'object',
                      description: 'prose',
                      properties: {
                        summary: { type: 'string', description: 'prose' },
                        description: { enum: [{ description: 'kept' }], default: { example: 1 } },
                      },
                      required: ['summary', 'description'],
                    },
                  },
                },
              },
              '404': { $ref: '#/components/responses/NotFound' },
            },
          },
        },
      },
      components: { responses: { NotFound: { description: 'prose' } } },
    };
    expect(leanDocument(doc)).toEqual({
      openapi: '3.1.0',
      info: { title: 't', version: '1', description: LEAN_NOTE },
      paths: {
        '/v0/x': {
          get: {
            operationId: 'getX',
            'x-required-scope': 'read',
            parameters: [{ name: 'q', in: 'query', schema: { type: 'string', default: 'x' } }],
            responses: {
              '200': {
                description: '',
                content: {
                  'application/json': {
                    schema: {
                      type: 'object',
                      properties: {
                        summary: { type: 'string' },
                        description: { enum: [{ description: 'kept' }], default: { example: 1 } },
                      },
                      required: ['summary', 'description'],
                    },
                  },
                },
              },
              '404': { $ref: '#/components/responses/NotFound' },
            },
          },
        },
      },
      components: { responses: { NotFound: { description: '' } } },
    });
  });

  it('compiles to validators that give the same verdict and issues as the full contract (property)', () => {
    const full = createContract(contractDocument);
    const slim = createContract(lean as OpenAPIV3_1.Document);
    const schemas = [...validatorSchemas(contractDocument, buildOperationTable(contractDocument))]
      .filter(([key]) => key.startsWith('component '))
      .map(([key]) => key.slice('component '.length));
    const resolve = (ref: string) => resolveLocalRef(contractDocument, { $ref: ref }) as JsonSchema;
    for (const name of schemas) {
      const schema = { $ref: `#/components/schemas/${name}` } as JsonSchema;
      fc.assert(
        fc.property(
          fc.oneof(arbitraryFromSchema(schema, { resolve }), fc.jsonValue({ maxDepth: 3 })),
          (value) => {
            expect(slim.validateSchema(name, value)).toEqual(full.validateSchema(name, value));
          },
        ),
        { numRuns: 15, seed: 7 },
      );
    }
    for (const id of full.operations.keys()) {
      const query = new URLSearchParams('pageSize=501&from=yesterday&platform=nowhere');
      const input = { pathParams: {}, query, body: { records: [{}] }, contentType: 'application/json' };
      expect(slim.validateRequest(id, input)).toEqual(full.validateRequest(id, input));
    }
  });

  it('is what the build wrote to dist/contract/openapi.browser.json, and what the browser loader imports', () => {
    const written = JSON.parse(readFileSync(join(ROOT, 'dist/contract/openapi.browser.json'), 'utf8'));
    expect(written).toEqual(lean);
    const loader = readFileSync(join(ROOT, 'dist/src/contract/load.browser.js'), 'utf8');
    expect(loader).toContain("'../../contract/openapi.browser.json'");
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      browser: Record<string, string>;
    };
    expect(manifest.browser['./dist/src/contract/load.js']).toBe('./dist/src/contract/load.browser.js');
  });
});
