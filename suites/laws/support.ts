import type { Auth, ClientResult, HttpResult, QueryValue } from '../../src/client/types.ts';
import { violate } from '../../src/conformance/kit/check.ts';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import { declaredResponseKey } from '../../src/contract/validators.ts';
import { STATUSES_RULE, schemaRuleFor } from './rule-map.ts';

/** Input of one operation call: path parameters by name (sent percent-encoded), query, auth, body. */
export interface CallInput {
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, QueryValue | readonly QueryValue[]>>;
  readonly auth: Auth;
  readonly json?: unknown;
  readonly rawBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body sent `Transfer-Encoding: chunked` (see RequestSpec). */
  readonly chunked?: boolean;
  /** The target sent in absolute form (see RequestSpec). */
  readonly absoluteTarget?: boolean;
}

/** `application/json` or a `+json` type, parameters allowed. */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * Section 4: every response is JSON, errors included. Checked on every answer a law sees (`call` and
 * `callPath`), so a deployment that serves one error as text/html fails whatever law met it. The
 * Swagger UI page (`/docs`) is the one HTML answer the spec names.
 */
export function expectJsonMediaType(what: string, res: ClientResult): void {
  if (res.kind === 'network') return;
  const type = res.headers['content-type'];
  if (type === undefined || !JSON_MEDIA_TYPE.test(type))
    violate(
      'SCHEMA-JSON-MEDIA-TYPE',
      `media-type:${res.status}`,
      `${what}: the ${res.status} answer is served as ${type === undefined ? '(no Content-Type)' : JSON.stringify(type)}, not as JSON`,
    );
}

/** Calls an operation of the contract by operationId; the answer's media type must be JSON. */
export async function call(ctx: LawContext, operationId: string, input: CallInput): Promise<ClientResult> {
  const op = ctx.contract.getOperation(operationId);
  const path = op.pathTemplate.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = input.path?.[name];
    if (value === undefined) throw new Error(`${operationId}: missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const res = await ctx.client.request({
    method: op.method,
    path,
    auth: input.auth,
    operationId,
    ...(input.query === undefined ? {} : { query: input.query }),
    ...(input.json === undefined ? {} : { json: input.json }),
    ...(input.rawBody === undefined ? {} : { rawBody: input.rawBody }),
    ...(input.headers === undefined ? {} : { headers: input.headers }),
    ...(input.chunked === true ? { chunked: true } : {}),
    ...(input.absoluteTarget === true ? { absoluteTarget: true } : {}),
  });
  if (op.responseMediaTypes.get(declaredResponseKey(op, res.status) ?? '')?.includes('json') !== false)
    expectJsonMediaType(`${op.method} ${path}`, res);
  return res;
}

/** A request to a path outside the contract (routes that must not exist); the answer must be JSON. */
export async function callPath(
  ctx: LawContext,
  method: string,
  path: string,
  input: Omit<CallInput, 'path'>,
): Promise<ClientResult> {
  const res = await ctx.client.request({
    method,
    path,
    auth: input.auth,
    ...(input.query === undefined ? {} : { query: input.query }),
    ...(input.json === undefined ? {} : { json: input.json }),
    ...(input.headers === undefined ? {} : { headers: input.headers }),
  });
  expectJsonMediaType(`${method} ${path}`, res);
  return res;
}

/** An identifier key followed by a JSON number token in the raw text. */
const NUMERIC_ID = /"([A-Za-z]*(?:Id|ID)|id)"\s*:\s*(-?\d[\d.eE+-]*)/;

/** Finds an identifier written as a JSON number in raw response text. */
export function numericIdIn(raw: string): { key: string; token: string } | undefined {
  const m = NUMERIC_ID.exec(raw);
  return m === null ? undefined : { key: m[1] ?? '', token: m[2] ?? '' };
}

/** Normalises a JSON pointer for fingerprints: array indices become `*`. */
function normalPointer(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}

export interface ExpectOptions {
  /** Statuses that are acceptable here (default: any declared status). */
  readonly status?: number | readonly number[];
  /** Rule charged when the status is not one of `status`. */
  readonly statusRule?: string;
  /** Short description of the request for messages. */
  readonly what?: string;
  /**
   * Semantic checks on the parsed body, run after the status and raw-identifier checks and before
   * schema validation, so a semantic fault is charged to its own rule, not to the schema.
   */
  readonly before?: (parsed: unknown) => void;
}

function short(raw: string): string {
  return raw.length > 300 ? `${raw.slice(0, 300)}...` : raw;
}

/**
 * Checks one response against the contract: expected status, status declared for the operation,
 * JSON body, identifiers as JSON strings in the raw text, body schema for the status (unknown
 * extra fields tolerated). Returns the parsed body; throws a `Violation` naming the precise rule.
 */
export function expectConforming(
  ctx: LawContext,
  operationId: string,
  res: ClientResult,
  options: ExpectOptions = {},
): HttpResult & { readonly parsed: unknown } {
  const what = options.what ?? operationId;
  const statusRule = options.statusRule ?? STATUSES_RULE[operationId] ?? 'ERR-STATUS-IN-DECLARED-SET';
  if (res.kind === 'network') {
    return violate(
      statusRule,
      `network:${res.error.code}`,
      `${what}: no HTTP answer (${res.error.code}: ${res.error.message})`,
    );
  }
  const expected = options.status === undefined ? undefined : ([] as number[]).concat(options.status);
  if (expected !== undefined && !expected.includes(res.status)) {
    violate(
      statusRule,
      `status:${res.status}`,
      `${what}: expected status ${expected.join(' or ')}, got ${res.status}: ${short(res.raw)}`,
    );
  }
  const op = ctx.contract.getOperation(operationId);
  const key = declaredResponseKey(op, res.status);
  if (key === undefined) {
    violate(
      STATUSES_RULE[operationId] ?? 'ERR-STATUS-IN-DECLARED-SET',
      `undeclared:${res.status}`,
      `${what}: status ${res.status} is not declared for ${operationId} (declared: ${[...op.responses.keys()].join(', ')})`,
    );
  }
  const mediaType = op.responseMediaTypes.get(key);
  const isJson = mediaType === undefined || mediaType.includes('json');
  const parsed = res.ok ? res.body : res.error;
  if (!isJson) return { ...res, parsed };
  if (res.jsonError !== undefined) {
    violate(
      'SCHEMA-JSON-BODIES',
      `not-json:${res.status}`,
      `${what}: ${res.status} body is not JSON (${res.jsonError}): ${short(res.raw)}`,
    );
  }
  const numeric = numericIdIn(res.raw);
  if (numeric !== undefined) {
    violate(
      'ID-JSON-STRING-IN-RAW-BODY',
      `numeric-id:${numeric.key}`,
      `${what}: identifier "${numeric.key}" is the JSON number ${numeric.token} in the raw body (must be a JSON string)`,
    );
  }
  options.before?.(parsed);
  const validation = ctx.contract.validateResponse(operationId, res.status, parsed);
  if (!validation.ok) {
    const issue = validation.issues[0]!;
    const ruleId = schemaRuleFor(operationId, res.status, issue.pointer);
    violate(
      ruleId,
      `schema:${res.status}:${normalPointer(issue.pointer)}:${issue.keyword}`,
      `${what}: ${res.status} body does not match the contract: ${validation.issues
        .slice(0, 3)
        .map((i) => i.message)
        .join('; ')}`,
      { pointer: issue.pointer, body: parsed },
    );
  }
  return { ...res, parsed };
}

/** Narrow object access without casts sprinkled through laws. */
export type Json = Record<string, unknown>;

export function obj(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

export function arr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** Every `/v0` operation of the contract (those with a required scope). */
export function apiOperations(ctx: LawContext): readonly string[] {
  return [...ctx.contract.operations.values()]
    .filter((op) => op.requiredScope !== null)
    .map((op) => op.operationId);
}
