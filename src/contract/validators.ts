import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { type IssueLocation, toIssues, type ValidationIssue } from './issues.ts';
import { type JsonSchema, type Operation, type OperationParameter, resolveLocalRef } from './operations.ts';

const addFormats = formatsModule.default;

/** What a request brings for validation. Path parameters are already percent-decoded. */
export interface RequestInput {
  readonly pathParams: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The parsed JSON body, or undefined when the request has none. */
  readonly body: unknown;
  readonly contentType: string | null;
}

export interface ValidateRequestOptions {
  /**
   * `full` (default) validates the whole body; `envelope` validates the top level and array sizes but
   * not array items (the moderation batch validates each case itself); `skip` leaves the body alone.
   */
  readonly body?: 'full' | 'envelope' | 'skip';
}

export type RequestValidation =
  | {
      readonly ok: true;
      /** Query parameters after coercion, with schema defaults filled in for absent ones. */
      readonly query: Record<string, unknown>;
      /** Path parameters, byte-identical to the decoded segments (ids are never converted). */
      readonly pathParams: Readonly<Record<string, string>>;
      readonly body: unknown;
    }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

export type Validation =
  | { readonly ok: true }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

export interface Validators {
  validateRequest(
    operationId: string,
    input: RequestInput,
    options?: ValidateRequestOptions,
  ): RequestValidation;
  validateResponse(operationId: string, status: number, body: unknown): Validation;
  validateSchema(componentName: string, value: unknown, location?: IssueLocation): Validation;
  /** Compiles every validator now instead of at first use (startup cost up front). */
  /**
   * Compiles validators now instead of at first use (startup cost up front). With `responses: false`
   * only the request side is compiled: what a mock without self-check needs.
   */
  compileAll(options?: { readonly responses?: boolean }): void;
  /** Names of the component schemas, in document order. */
  readonly componentNames: readonly string[];
}

/** The `$id` prefix under which every component schema is registered once. */
export const SCHEMA_ID_PREFIX = 'https://cca-kit.invalid/components/schemas/';
const LOCAL_SCHEMA_REF = '#/components/schemas/';

/** OpenAPI keywords ajv does not know; registered as annotations so strict mode accepts them. */
const OPENAPI_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deep-copies a schema, pointing `#/components/schemas/X` references at the registered ids. */
function rewriteRefs(value: unknown): unknown {
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

type Kind = 'integer' | 'number' | 'boolean' | 'string' | 'array' | 'other';

interface ParamPlan {
  readonly name: string;
  readonly kind: Kind;
  readonly itemKind: Kind;
  /** Comma-separated array (`style: form, explode: false`). */
  readonly commaSeparated: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
}

const CANONICAL_INTEGER = /^-?(?:0|[1-9]\d*)$/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Converts one parameter string by the contract's coercion rules: only integer, number and boolean
 * schemas convert, strictly (canonical decimal integers, JSON-grammar numbers, `true`/`false`). Anything
 * else stays the exact string, so the validator reports it with the value the client sent.
 */
export function coerceParameterValue(raw: string, kind: Kind): unknown {
  switch (kind) {
    case 'integer': {
      if (!CANONICAL_INTEGER.test(raw)) return raw;
      const n = Number.parseInt(raw, 10);
      return Number.isSafeInteger(n) ? n : raw;
    }
    case 'number': {
      if (!JSON_NUMBER.test(raw)) return raw;
      const n = Number.parseFloat(raw);
      return Number.isFinite(n) ? n : raw;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    default:
      return raw;
  }
}

function kindOf(doc: unknown, schema: JsonSchema): Kind {
  const resolved = resolveLocalRef(doc, schema);
  if (!isObject(resolved)) return 'other';
  const type = resolved['type'];
  const types = Array.isArray(type) ? type : typeof type === 'string' ? [type] : [];
  if (types.includes('string')) return 'string';
  if (types.includes('array')) return 'array';
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'number';
  if (types.includes('boolean')) return 'boolean';
  return types.length === 0 ? 'other' : 'string';
}

function planParameter(doc: unknown, param: OperationParameter): ParamPlan {
  const resolved = resolveLocalRef(doc, param.schema);
  const kind = kindOf(doc, param.schema);
  const items = isObject(resolved) ? resolved['items'] : undefined;
  const hasDefault = isObject(resolved) && 'default' in resolved;
  return {
    name: param.name,
    kind,
    itemKind:
      kind === 'array' && (isObject(items) || typeof items === 'boolean') ? kindOf(doc, items) : 'other',
    commaSeparated: kind === 'array' && param.explode === false,
    hasDefault,
    defaultValue: hasDefault ? resolved['default'] : undefined,
  };
}

interface OperationValidators {
  readonly queryPlans: readonly ParamPlan[];
  readonly pathPlans: readonly ParamPlan[];
  readonly query: ValidateFunction | undefined;
  readonly path: ValidateFunction | undefined;
  readonly body: ValidateFunction | undefined;
  readonly bodyEnvelope: ValidateFunction | undefined;
}

function objectSchemaOf(params: readonly OperationParameter[]): Obj | undefined {
  if (params.length === 0) return undefined;
  const properties: Obj = {};
  const required: string[] = [];
  for (const p of params) {
    properties[p.name] = rewriteRefs(p.schema);
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

function isJsonContentType(contentType: string): boolean {
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return (
    mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'))
  );
}

/** Finds the declared response key for a status: exact, then `4XX`-style range, then `default`. */
export function declaredResponseKey(operation: Operation, status: number): string | undefined {
  const exact = String(status);
  if (operation.responses.has(exact)) return exact;
  const range = `${exact[0] ?? ''}XX`;
  if (operation.responses.has(range)) return range;
  return operation.responses.has('default') ? 'default' : undefined;
}

/**
 * Creates the validators of a contract: one ajv 2020-12 instance in strict mode with every component
 * schema registered once under its own id, and per-operation validators compiled at first use (or all
 * at once with `compileAll`).
 */
export function createValidators(
  doc: OpenAPIV3_1.Document,
  operations: ReadonlyMap<string, Operation>,
): Validators {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv);
  for (const keyword of [...OPENAPI_KEYWORDS, ...extensionKeys(doc, new Set())]) {
    if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  }
  const schemas = isObject(doc.components?.schemas) ? doc.components.schemas : {};
  const componentNames = Object.keys(schemas);
  for (const name of componentNames) {
    ajv.addSchema(rewriteRefs(schemas[name]) as Obj, `${SCHEMA_ID_PREFIX}${name}`);
  }

  const compile = (schema: unknown): ValidateFunction => {
    if (typeof schema === 'boolean') return ajv.compile(schema);
    // A bare reference to a component (the usual response and body schema) shares that component's validator.
    const ref = isObject(schema) ? schema['$ref'] : undefined;
    if (
      typeof ref === 'string' &&
      Object.keys(schema as Obj).length === 1 &&
      ref.startsWith(LOCAL_SCHEMA_REF)
    ) {
      const shared = ajv.getSchema(`${SCHEMA_ID_PREFIX}${ref.slice(LOCAL_SCHEMA_REF.length)}`);
      if (shared !== undefined) return shared;
    }
    return ajv.compile(rewriteRefs(schema) as Obj);
  };

  const perOperation = new Map<string, OperationValidators>();
  const responseValidators = new Map<string, ValidateFunction | null>();

  const operationOf = (operationId: string): Operation => {
    const operation = operations.get(operationId);
    if (operation === undefined) throw new Error(`unknown operationId ${operationId}`);
    return operation;
  };

  const validatorsOf = (operationId: string): OperationValidators => {
    const cached = perOperation.get(operationId);
    if (cached !== undefined) return cached;
    const operation = operationOf(operationId);
    const queryParams = operation.parameters.filter((p) => p.in === 'query');
    const pathParams = operation.parameters.filter((p) => p.in === 'path');
    const querySchema = objectSchemaOf(queryParams);
    const pathSchema = objectSchemaOf(pathParams);
    const bodySchema = operation.requestBodySchema;
    const built: OperationValidators = {
      queryPlans: queryParams.map((p) => planParameter(doc, p)),
      pathPlans: pathParams.map((p) => planParameter(doc, p)),
      query: querySchema ? ajv.compile(querySchema) : undefined,
      path: pathSchema ? ajv.compile(pathSchema) : undefined,
      body: bodySchema === undefined ? undefined : compile(bodySchema),
      bodyEnvelope: bodySchema === undefined ? undefined : compile(envelopeOf(doc, bodySchema)),
    };
    perOperation.set(operationId, built);
    return built;
  };

  const responseValidatorOf = (operation: Operation, key: string): ValidateFunction | null => {
    const cacheKey = `${operation.operationId} ${key}`;
    const cached = responseValidators.get(cacheKey);
    if (cached !== undefined) return cached;
    const schema = operation.responses.get(key);
    const mediaType = operation.responseMediaTypes.get(key);
    const isJson = mediaType === undefined || isJsonContentType(mediaType);
    const validator = schema === undefined || !isJson ? null : compile(schema);
    responseValidators.set(cacheKey, validator);
    return validator;
  };

  const validateRequest: Validators['validateRequest'] = (operationId, input, options = {}) => {
    const v = validatorsOf(operationId);
    const operation = operationOf(operationId);
    const issues: ValidationIssue[] = [];

    const query: Record<string, unknown> = {};
    for (const plan of v.queryPlans) {
      if (plan.kind === 'array') {
        const all = input.query.getAll(plan.name);
        const raw = plan.commaSeparated ? all.flatMap((s) => s.split(',')) : all;
        if (raw.length > 0) query[plan.name] = raw.map((s) => coerceParameterValue(s, plan.itemKind));
      } else {
        const raw = input.query.get(plan.name);
        if (raw !== null) query[plan.name] = coerceParameterValue(raw, plan.kind);
      }
      if (!(plan.name in query) && plan.hasDefault) query[plan.name] = structuredClone(plan.defaultValue);
    }
    if (v.query && !v.query(query)) issues.push(...toIssues('query', v.query.errors ?? [], query));

    if (v.path) {
      const coerced: Record<string, unknown> = {};
      for (const plan of v.pathPlans) {
        const raw = input.pathParams[plan.name];
        if (raw !== undefined) coerced[plan.name] = coerceParameterValue(raw, plan.kind);
      }
      if (!v.path(coerced)) issues.push(...toIssues('path', v.path.errors ?? [], coerced));
    }

    const mode = options.body ?? 'full';
    if (mode !== 'skip' && operation.requestBodySchema !== undefined) {
      if (input.body === undefined) {
        if (operation.requestBodyRequired) {
          issues.push({
            location: 'body',
            pointer: '',
            field: '',
            keyword: 'required',
            message: `operation ${operationId} requires a JSON request body`,
          });
        }
      } else if (input.contentType === null || !isJsonContentType(input.contentType)) {
        issues.push({
          location: 'header',
          pointer: 'content-type',
          field: 'content-type',
          keyword: 'contentType',
          message: `header content-type must be application/json (got ${JSON.stringify(input.contentType ?? '')})`,
        });
      } else {
        const validate = mode === 'envelope' ? v.bodyEnvelope : v.body;
        if (validate && !validate(input.body))
          issues.push(...toIssues('body', validate.errors ?? [], input.body));
      }
    }

    if (issues.length > 0) return { ok: false, issues };
    return { ok: true, query, pathParams: input.pathParams, body: input.body };
  };

  const validateResponse: Validators['validateResponse'] = (operationId, status, body) => {
    const operation = operationOf(operationId);
    const key = declaredResponseKey(operation, status);
    if (key === undefined) {
      const declared = [...operation.responses.keys()].join(', ');
      return {
        ok: false,
        issues: [
          {
            location: 'response',
            pointer: '',
            field: 'status',
            keyword: 'status',
            message: `status ${status} is not declared for operation ${operationId} (declared: ${declared})`,
          },
        ],
      };
    }
    const validate = responseValidatorOf(operation, key);
    if (validate === null || validate(body)) return { ok: true };
    return { ok: false, issues: toIssues('response', validate.errors ?? [], body) };
  };

  const validateSchema: Validators['validateSchema'] = (componentName, value, location = 'body') => {
    const validate = ajv.getSchema(`${SCHEMA_ID_PREFIX}${componentName}`);
    if (validate === undefined) throw new Error(`unknown component schema ${componentName}`);
    if (validate(value)) return { ok: true };
    return { ok: false, issues: toIssues(location, validate.errors ?? [], value) };
  };

  const compileAll: Validators['compileAll'] = ({ responses = true } = {}) => {
    if (responses) for (const name of componentNames) ajv.getSchema(`${SCHEMA_ID_PREFIX}${name}`);
    for (const operation of operations.values()) {
      validatorsOf(operation.operationId);
      if (responses) for (const key of operation.responses.keys()) responseValidatorOf(operation, key);
    }
  };

  return { validateRequest, validateResponse, validateSchema, compileAll, componentNames };
}
