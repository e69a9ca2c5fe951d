/**
 * What each validator of a contract checks: the JSON Schema it compiles, derived from the document
 * and named by a key, and the one ajv configuration they all compile in. The validators
 * (./validators.ts) compile these at first use; the package build compiles them ahead of time
 * (scripts/build.js). Both go through this module, so both check the same thing. ajv itself is loaded
 * only when `createAjv` first runs (./ajv-load.ts): a start-up that finds every validator precompiled
 * never loads it.
 */
import type { Ajv2020, CodeOptions, ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { AjvModules } from './ajv-load.ts';
import { type JsonSchema, type Operation, type OperationParameter, resolveLocalRef } from './operations.ts';
import { loadAjv } from './precompiled.ts';

/** The `$id` prefix under which every component schema is registered once. */
export const SCHEMA_ID_PREFIX = 'https://cca-kit.invalid/components/schemas/';
const LOCAL_SCHEMA_REF = '#/components/schemas/';

/** OpenAPI keywords ajv does not know; registered as annotations so strict mode accepts them. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

export type Obj = Record<string, unknown>;
export const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The name of each validator: one per part of an operation's request, per response, per component. */
export const validatorKey = {
  query: (operationId: string) => `query ${operationId}`,
  path: (operationId: string) => `path ${operationId}`,
  body: (operationId: string) => `body ${operationId}`,
  envelope: (operationId: string) => `envelope ${operationId}`,
  response: (operationId: string, status: string) => `response ${operationId} ${status}`,
  component: (name: string) => `component ${name}`,
} as const;

/** Deep-copies a schema, pointing `#/components/schemas/X` references at the registered ids. */
export function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!isObject(value)) return value;
  const out: Obj = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith(LOCAL_SCHEMA_REF)) {
      const [name, ...rest] = child.slice(LOCAL_SCHEMA_REF.length).split('/');
      out[key] = `${SCHEMA_ID_PREFIX}${name}${rest.length > 0 ? `#/${rest.join('/')}` : ''}`;
    } else if (key === 'example' || key === 'examples') {
      out[key] = child;
    } else {
      out[key] = rewriteRefs(child);
    }
  }
  return out;
}

/** Every `x-` key used anywhere in the document (examples excluded), for registration as no-op keywords. */
function extensionKeys(value: unknown, found: Set<string>): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) extensionKeys(item, found);
  } else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-')) found.add(key);
      if (key !== 'example' && key !== 'examples') extensionKeys(child, found);
    }
  }
  return found;
}

/** The keywords a validator of `doc` must accept as annotations: OpenAPI's own and every `x-` key used. */
export function annotationKeywords(doc: unknown): string[] {
  return [...OPENAPI_KEYWORDS, ...extensionKeys(doc, new Set())];
}

/** The component schemas of a document, by name. */
export function componentSchemas(doc: OpenAPIV3_1.Document): Obj {
  return isObject(doc.components?.schemas) ? doc.components.schemas : {};
}

/**
 * The ajv instance every validator of a document compiles in: 2020-12 in strict mode, formats, the
 * OpenAPI and `x-` keywords as annotations, every component schema registered once under its own id.
 * `code` is passed to ajv (`{ source: true }` keeps the generated code, for standalone modules).
 * `modules` is the compiler: ajv by default; the browser build's closure compiler has the same interface
 * (./schema-closures/), which a benchmark and a test pass here to compare the two on equal set-up.
 */
export function createAjv(
  doc: OpenAPIV3_1.Document,
  code?: CodeOptions,
  modules: AjvModules = loadAjv(),
): Ajv2020 {
  // `validateSchema: false`: ajv would otherwise compile the meta-schema and check each registered
  // schema against it here, ~40 ms of every mock's start-up. Strict mode still rejects unknown keywords
  // and malformed keyword values when a validator compiles; `compileAll` runs the meta-schema check.
  const { Ajv2020, addFormats } = modules;
  const ajv = new Ajv2020({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    validateFormats: true,
    validateSchema: false,
    ...(code === undefined ? {} : { code }),
  });
  addFormats(ajv);
  for (const keyword of annotationKeywords(doc)) {
    if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  }
  const schemas = componentSchemas(doc);
  for (const name of Object.keys(schemas)) {
    ajv.addSchema(rewriteRefs(schemas[name]) as Obj, `${SCHEMA_ID_PREFIX}${name}`);
  }
  return ajv;
}

/**
 * The registered id of the component a schema only refers to (`{ $ref: '#/components/schemas/X' }`
 * and nothing else, the usual body and response schema): such a validator is the component's own.
 */
export function componentIdOf(schema: unknown): string | undefined {
  const ref = isObject(schema) ? schema['$ref'] : undefined;
  if (typeof ref !== 'string' || !ref.startsWith(LOCAL_SCHEMA_REF)) return undefined;
  if (Object.keys(schema as Obj).length !== 1) return undefined;
  return `${SCHEMA_ID_PREFIX}${ref.slice(LOCAL_SCHEMA_REF.length)}`;
}

/**
 * Compiles one validator's schema in a contract's ajv instance. A bare reference to a component is
 * that component's validator, shared.
 */
export function compileIn(ajv: Ajv2020, schema: unknown): ValidateFunction {
  if (typeof schema === 'boolean') return ajv.compile(schema);
  const componentId = componentIdOf(schema);
  const shared = componentId === undefined ? undefined : ajv.getSchema(componentId);
  return shared ?? ajv.compile(rewriteRefs(schema) as Obj);
}

/** One object schema over a set of parameters, so that one validator reports every bad parameter. */
function objectSchemaOf(params: readonly OperationParameter[]): Obj | undefined {
  if (params.length === 0) return undefined;
  const properties: Obj = {};
  const required: string[] = [];
  for (const p of params) {
    properties[p.name] = p.schema;
    if (p.required) required.push(p.name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The body schema with array items left unchecked (sizes still checked): the batch envelope. */
function envelopeOf(doc: unknown, schema: JsonSchema): unknown {
  const resolved = resolveLocalRef(doc, schema);
  if (!isObject(resolved) || !isObject(resolved['properties'])) return schema;
  const properties: Obj = {};
  for (const [name, raw] of Object.entries(resolved['properties'])) {
    const prop = resolveLocalRef(doc, raw);
    properties[name] = isObject(prop) && prop['type'] === 'array' ? { ...prop, items: true } : raw;
  }
  return { ...resolved, properties };
}

export function isJsonContentType(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return (
    mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'))
  );
}

/** The schemas of an operation's request validators, as written in the document (see `rewriteRefs`). */
export interface RequestSchemas {
  readonly query?: Obj;
  readonly path?: Obj;
  readonly body?: JsonSchema;
  readonly envelope?: unknown;
}

export function requestSchemas(doc: OpenAPIV3_1.Document, operation: Operation): RequestSchemas {
  const query = objectSchemaOf(operation.parameters.filter((p) => p.in === 'query'));
  const path = objectSchemaOf(operation.parameters.filter((p) => p.in === 'path'));
  const body = operation.requestBodySchema;
  return {
    ...(query === undefined ? {} : { query }),
    ...(path === undefined ? {} : { path }),
    ...(body === undefined ? {} : { body, envelope: envelopeOf(doc, body) }),
  };
}

/** The schema a declared response's validator compiles; undefined when there is no JSON body to check. */
export function responseSchema(operation: Operation, key: string): JsonSchema | undefined {
  const schema = operation.responses.get(key);
  const mediaType = operation.responseMediaTypes.get(key);
  return mediaType === undefined || isJsonContentType(mediaType) ? schema : undefined;
}

/** Every validator of a contract: its key and the schema it compiles (what scripts/build.js compiles ahead of time). */
export function* validatorSchemas(
  doc: OpenAPIV3_1.Document,
  operations: ReadonlyMap<string, Operation>,
): Generator<readonly [key: string, schema: unknown]> {
  for (const name of Object.keys(componentSchemas(doc))) {
    yield [validatorKey.component(name), { $ref: `${LOCAL_SCHEMA_REF}${name}` }];
  }
  for (const operation of operations.values()) {
    const id = operation.operationId;
    const request = requestSchemas(doc, operation);
    if (request.query !== undefined) yield [validatorKey.query(id), request.query];
    if (request.path !== undefined) yield [validatorKey.path(id), request.path];
    if (request.body !== undefined) yield [validatorKey.body(id), request.body];
    if (request.envelope !== undefined) yield [validatorKey.envelope(id), request.envelope];
    for (const key of operation.responses.keys()) {
      const schema = responseSchema(operation, key);
      if (schema !== undefined) yield [validatorKey.response(id, key), schema];
    }
  }
}
