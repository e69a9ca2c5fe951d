/**
 * Validators compiled ahead of time: ajv's standalone code for each validator of a contract, one small
 * CommonJS module per validator key. bin/bundle-cache.js writes them next to the CLI's bundle when it
 * builds it, for contract/openapi.json, and the bundle loads each one the first time it is needed (see
 * ./precompiled.ts): a bundled `cca-kit mock` creates no ajv instance and generates no validator code,
 * which is ~20 ms of ajv at start-up and at the first request. One module per validator rather than
 * one for all: the whole set is ~1 MB of code, which would cost about as much to parse at every start.
 *
 * @example
 * const modules = precompiledValidatorModules(document);
 * modules.get('query listActions'); // '"use strict";module.exports = validate10; ...'
 */
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { contractDocument } from './load.ts';
import { buildOperationTable } from './operations.ts';
import { compileIn, createAjv, validatorSchemas } from './validator-schemas.ts';

/**
 * The standalone module of each validator of a document (by default contract/openapi.json's), by key.
 * A module `require`s only ajv's runtime helpers (`ajv/dist/runtime/...`) and ajv-formats' formats.
 */
export function precompiledValidatorModules(
  document: OpenAPIV3_1.Document = contractDocument,
  operations = buildOperationTable(document),
): Map<string, string> {
  // `source: true` keeps each validator's code; ajv-formats points the formats at its own module.
  const ajv = createAjv(document, { source: true });
  const modules = new Map<string, string>();
  for (const [key, schema] of validatorSchemas(document, operations)) {
    modules.set(key, standaloneModule.default(ajv, compileIn(ajv, schema)));
  }
  return modules;
}
