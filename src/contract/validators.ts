import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import { type IssueLocation, toIssues, type ValidationIssue } from './issues.ts';
import { type JsonSchema, type Operation, type OperationParameter, resolveLocalRef } from './operations.ts';
import {
  compileIn,
  componentSchemas,
  createAjv,
  isJsonContentType,
  isObject,
  requestSchemas,
  responseSchema,
  rewriteRefs,
  SCHEMA_ID_PREFIX,
  validatorKey,
} from './validator-schemas.ts';

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
  /**
   * Compiles validators now instead of at first use, and checks every schema against the JSON Schema
   * 2020-12 meta-schema (which loading the contract skips: it costs ~40 ms per contract). Throws on
   * the first schema that is invalid or does not compile in strict mode. With `responses: false`
   * only the request side is compiled.
   */
  compileAll(options?: { readonly responses?: boolean }): void;
  /** Names of the component schemas, in document order. */
  readonly componentNames: readonly string[];
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

/** Finds the declared response key for a status: exact, then `4XX`-style range, then `default`. */
export function declaredResponseKey(operation: Operation, status: number): string | undefined {
  const exact = String(status);
  if (operation.responses.has(exact)) return exact;
  const range = `${exact[0] ?? ''}XX`;
  if (operation.responses.has(range)) return range;
  return operation.responses.has('default') ? 'default' : undefined;
}

/**
 * Validators compiled ahead of time for one document, looked up by key (`validatorKey`); undefined
 * for a key it does not have. See ./precompiled.ts and scripts/build.js.
 */
export type PrecompiledValidators = (key: string) => ValidateFunction | undefined;

export interface CreateValidatorsOptions {
  /**
   * Validators compiled ahead of time for this very document, used instead of compiling them. The
   * package's `contract` (./index.ts) passes those of contract/openapi.json (./precompiled.ts).
   */
  readonly precompiled?: PrecompiledValidators | undefined;
}

/**
 * Creates the validators of a contract: one ajv 2020-12 instance in strict mode with every component
 * schema registered once under its own id (created at the first compilation), and per-operation
 * validators compiled at first use (or all at once with `compileAll`), unless precompiled.
 */
export function createValidators(
  doc: OpenAPIV3_1.Document,
  operations: ReadonlyMap<string, Operation>,
  options: CreateValidatorsOptions = {},
): Validators {
  const schemas = componentSchemas(doc);
  const componentNames = Object.keys(schemas);
  let instance: ReturnType<typeof createAjv> | undefined;
  const ajv = () => {
    instance ??= createAjv(doc);
    return instance;
  };

  /** The validator named `key`: precompiled, else compiled from `schema` now. */
  const compile = (key: string, schema: unknown): ValidateFunction =>
    options.precompiled?.(key) ?? compileIn(ajv(), schema);

  const perOperation = new Map<string, OperationValidators>();
  const responseValidators = new Map<string, ValidateFunction | null>();
  const componentValidators = new Map<string, ValidateFunction>();

  const operationOf = (operationId: string): Operation => {
    const operation = operations.get(operationId);
    if (operation === undefined) throw new Error(`unknown operationId ${operationId}`);
    return operation;
  };

  const validatorsOf = (operationId: string): OperationValidators => {
    const cached = perOperation.get(operationId);
    if (cached !== undefined) return cached;
    const operation = operationOf(operationId);
    const { query, path, body, envelope } = requestSchemas(doc, operation);
    const built: OperationValidators = {
      queryPlans: operation.parameters.filter((p) => p.in === 'query').map((p) => planParameter(doc, p)),
      pathPlans: operation.parameters.filter((p) => p.in === 'path').map((p) => planParameter(doc, p)),
      query: query === undefined ? undefined : compile(validatorKey.query(operationId), query),
      path: path === undefined ? undefined : compile(validatorKey.path(operationId), path),
      body: body === undefined ? undefined : compile(validatorKey.body(operationId), body),
      bodyEnvelope:
        envelope === undefined ? undefined : compile(validatorKey.envelope(operationId), envelope),
    };
    perOperation.set(operationId, built);
    return built;
  };

  const responseValidatorOf = (operation: Operation, status: string): ValidateFunction | null => {
    const key = validatorKey.response(operation.operationId, status);
    const cached = responseValidators.get(key);
    if (cached !== undefined) return cached;
    const schema = responseSchema(operation, status);
    const validator = schema === undefined ? null : compile(key, schema);
    responseValidators.set(key, validator);
    return validator;
  };

  const componentValidator = (componentName: string): ValidateFunction => {
    const cached = componentValidators.get(componentName);
    if (cached !== undefined) return cached;
    const validate = Object.hasOwn(schemas, componentName)
      ? (options.precompiled?.(validatorKey.component(componentName)) ??
        ajv().getSchema(`${SCHEMA_ID_PREFIX}${componentName}`))
      : undefined;
    if (validate === undefined) throw new Error(`unknown component schema ${componentName}`);
    componentValidators.set(componentName, validate);
    return validate;
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
      // A primitive default needs no copy (structuredClone costs about a microsecond a call, per request).
      if (!(plan.name in query) && plan.hasDefault)
        query[plan.name] =
          typeof plan.defaultValue === 'object' && plan.defaultValue !== null
            ? structuredClone(plan.defaultValue)
            : plan.defaultValue;
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
    const validate = componentValidator(componentName);
    if (validate(value)) return { ok: true };
    return { ok: false, issues: toIssues(location, validate.errors ?? [], value) };
  };

  const checkSchema = (where: string, schema: unknown): void => {
    if (schema === undefined || ajv().validateSchema(rewriteRefs(schema) as Record<string, unknown>)) return;
    throw new Error(`${where} is not a valid JSON Schema: ${ajv().errorsText(ajv().errors)}`);
  };

  const compileAll: Validators['compileAll'] = ({ responses = true } = {}) => {
    for (const name of componentNames) checkSchema(`component schema ${name}`, schemas[name]);
    for (const operation of operations.values()) {
      const id = operation.operationId;
      for (const p of operation.parameters) checkSchema(`parameter ${p.name} of ${id}`, p.schema);
      checkSchema(`request body of ${id}`, operation.requestBodySchema);
      for (const [key, schema] of operation.responses) checkSchema(`response ${key} of ${id}`, schema);
    }
    if (responses) for (const name of componentNames) componentValidator(name);
    for (const operation of operations.values()) {
      validatorsOf(operation.operationId);
      if (responses) for (const key of operation.responses.keys()) responseValidatorOf(operation, key);
    }
  };

  return { validateRequest, validateResponse, validateSchema, compileAll, componentNames };
}
