import type { OpenAPIV3_1 } from 'openapi-types';

/**
 * The operation table: every operation of the contract, flattened once (references resolved, parameters
 * merged from the path item and the operation), plus a router that maps a method and a pathname to an
 * operation without scanning every template.
 */

/** A JSON Schema as it appears in the contract (2020-12 dialect). */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

export type RequiredScope = 'read' | 'write' | 'ingest';
export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface OperationParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly schema: JsonSchema;
  readonly style: string | undefined;
  readonly explode: boolean | undefined;
}

export interface Operation {
  readonly operationId: string;
  /** Upper-case HTTP method. */
  readonly method: string;
  readonly pathTemplate: string;
  readonly pathParamNames: readonly string[];
  readonly requiredScope: RequiredScope | null;
  readonly requiresModerationMode: 'ad_policy' | null;
  readonly tags: readonly string[];
  readonly parameters: readonly OperationParameter[];
  /** The `application/json` request body schema, when the operation takes a body. */
  readonly requestBodySchema?: JsonSchema;
  readonly requestBodyRequired: boolean;
  /** Declared responses by status key (`"200"`, `"4XX"`, `"default"`); undefined for a body-less response. */
  readonly responses: ReadonlyMap<string, JsonSchema | undefined>;
  /** Media type of each declared response (`application/json`, `text/html`...), when it has content. */
  readonly responseMediaTypes: ReadonlyMap<string, string>;
}

export type RouteMatch =
  | { readonly kind: 'match'; readonly operation: Operation; readonly pathParams: Record<string, string> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'bad-path-encoding'; readonly operation: Operation; readonly segment: string }
  | { readonly kind: 'not-found' };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows a local `$ref` (`#/components/...`) inside the document; non-reference objects pass through. */
export function resolveLocalRef(doc: unknown, value: unknown): unknown {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current['$ref'] === 'string'; hops++) {
    const ref = current['$ref'];
    if (hops > 32 || !ref.startsWith('#/')) throw new Error(`cannot resolve reference ${ref}`);
    let target: unknown = doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      target = isObject(target) ? target[key] : undefined;
    }
    if (target === undefined) throw new Error(`unresolved reference ${ref}`);
    current = target;
  }
  return current;
}

function readParameter(doc: unknown, raw: unknown): OperationParameter {
  const param = resolveLocalRef(doc, raw);
  if (!isObject(param) || typeof param['name'] !== 'string') throw new Error('malformed parameter object');
  const location = param['in'];
  if (location !== 'path' && location !== 'query' && location !== 'header' && location !== 'cookie') {
    throw new Error(`parameter ${param['name']} has an unknown location`);
  }
  const schema = param['schema'];
  return {
    name: param['name'],
    in: location,
    required: location === 'path' || param['required'] === true,
    schema: isObject(schema) || typeof schema === 'boolean' ? schema : true,
    style: typeof param['style'] === 'string' ? param['style'] : undefined,
    explode: typeof param['explode'] === 'boolean' ? param['explode'] : undefined,
  };
}

function jsonSchemaOf(doc: unknown, content: unknown): { schema: JsonSchema; mediaType: string } | undefined {
  if (!isObject(content)) return undefined;
  const mediaTypes = Object.keys(content);
  const mediaType = mediaTypes.find((m) => m === 'application/json') ?? mediaTypes[0];
  if (mediaType === undefined) return undefined;
  const media = resolveLocalRef(doc, content[mediaType]);
  const schema = isObject(media) ? media['schema'] : undefined;
  return { schema: isObject(schema) || typeof schema === 'boolean' ? schema : true, mediaType };
}

function readScope(value: unknown, operationId: string): RequiredScope | null {
  if (value === undefined) return null;
  if (value === 'read' || value === 'write' || value === 'ingest') return value;
  throw new Error(`operation ${operationId} has an unknown x-required-scope ${String(value)}`);
}

/** Builds the operation table of a contract. Throws on a malformed document (a bug in the contract). */
export function buildOperationTable(doc: OpenAPIV3_1.Document): ReadonlyMap<string, Operation> {
  const table = new Map<string, Operation>();
  for (const [pathTemplate, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = resolveLocalRef(doc, rawItem);
    if (!isObject(item)) continue;
    const shared = Array.isArray(item['parameters']) ? item['parameters'] : [];
    for (const method of HTTP_METHODS) {
      const op = resolveLocalRef(doc, item[method]);
      if (!isObject(op)) continue;
      const operationId = op['operationId'];
      if (typeof operationId !== 'string') throw new Error(`${method} ${pathTemplate} has no operationId`);
      if (table.has(operationId)) throw new Error(`duplicate operationId ${operationId}`);
      const byKey = new Map<string, OperationParameter>();
      const own = Array.isArray(op['parameters']) ? op['parameters'] : [];
      for (const raw of [...shared, ...own]) {
        const p = readParameter(doc, raw);
        byKey.set(`${p.in}:${p.name}`, p);
      }
      const requestBody = resolveLocalRef(doc, op['requestBody']);
      const body = isObject(requestBody) ? jsonSchemaOf(doc, requestBody['content']) : undefined;
      const responses = new Map<string, JsonSchema | undefined>();
      const responseMediaTypes = new Map<string, string>();
      for (const [status, rawResponse] of Object.entries(isObject(op['responses']) ? op['responses'] : {})) {
        const response = resolveLocalRef(doc, rawResponse);
        const content = isObject(response) ? jsonSchemaOf(doc, response['content']) : undefined;
        const key = status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase();
        responses.set(key, content?.schema);
        if (content) responseMediaTypes.set(key, content.mediaType);
      }
      const moderation = op['x-requires-moderation-mode'];
      table.set(operationId, {
        operationId,
        method: method.toUpperCase(),
        pathTemplate,
        pathParamNames: [...pathTemplate.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? ''),
        requiredScope: readScope(op['x-required-scope'], operationId),
        requiresModerationMode: moderation === 'ad_policy' ? 'ad_policy' : null,
        tags: Array.isArray(op['tags']) ? op['tags'].filter((t): t is string => typeof t === 'string') : [],
        parameters: [...byKey.values()],
        ...(body ? { requestBodySchema: body.schema } : {}),
        requestBodyRequired: isObject(requestBody) && requestBody['required'] === true,
        responses,
        responseMediaTypes,
      });
    }
  }
  return table;
}

/** One segment of a compiled path template: a literal to compare, or a parameter to capture. */
type Segment = { readonly literal: string } | { readonly param: string };

interface CompiledPath {
  readonly segments: readonly Segment[];
  readonly byMethod: ReadonlyMap<string, Operation>;
  readonly allowed: readonly string[];
}

export type Router = (method: string, pathname: string) => RouteMatch;

const NOT_FOUND: RouteMatch = { kind: 'not-found' };

/** Literal segments sort before parameters, position by position, so `/cases/batch` beats `/cases/{id}`. */
function bySpecificity(a: CompiledPath, b: CompiledPath): number {
  for (let i = 0; i < a.segments.length; i++) {
    const la = 'literal' in (a.segments[i] ?? {});
    const lb = 'literal' in (b.segments[i] ?? {});
    if (la !== lb) return la ? -1 : 1;
  }
  return 0;
}

/**
 * Compiles the path templates once into a table keyed by segment count; a match compares at most the
 * handful of templates with the same number of segments, literal-first. A path that exists with other
 * methods gives `method-not-allowed` (the caller answers 405 with `Allow`).
 */
export function createRouter(operations: Iterable<Operation>): Router {
  const byTemplate = new Map<string, Map<string, Operation>>();
  for (const op of operations) {
    const methods = byTemplate.get(op.pathTemplate) ?? new Map<string, Operation>();
    methods.set(op.method, op);
    byTemplate.set(op.pathTemplate, methods);
  }
  const byCount = new Map<number, CompiledPath[]>();
  for (const [template, byMethod] of byTemplate) {
    const segments: Segment[] = template
      .split('/')
      .slice(1)
      .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s }));
    const allowed = [...byMethod.keys()];
    if (byMethod.has('GET') && !byMethod.has('HEAD')) allowed.push('HEAD');
    const list = byCount.get(segments.length) ?? [];
    list.push({ segments, byMethod, allowed });
    byCount.set(segments.length, list);
  }
  for (const list of byCount.values()) list.sort(bySpecificity);

  return (method, pathname) => {
    if (pathname.charCodeAt(0) !== 47 /* '/' */) return NOT_FOUND;
    const parts = pathname.split('/');
    const candidates = byCount.get(parts.length - 1);
    if (candidates === undefined) return NOT_FOUND;
    for (const candidate of candidates) {
      if (!segmentsMatch(candidate.segments, parts)) continue;
      const operation = candidate.byMethod.get(method === 'HEAD' ? 'GET' : method);
      if (operation === undefined) return { kind: 'method-not-allowed', allowed: candidate.allowed };
      const pathParams: Record<string, string> = {};
      for (let i = 0; i < candidate.segments.length; i++) {
        const segment = candidate.segments[i];
        if (segment === undefined || !('param' in segment)) continue;
        const raw = parts[i + 1] ?? '';
        try {
          pathParams[segment.param] = decodeURIComponent(raw);
        } catch {
          return { kind: 'bad-path-encoding', operation, segment: raw };
        }
      }
      return { kind: 'match', operation, pathParams };
    }
    return NOT_FOUND;
  };
}

function segmentsMatch(segments: readonly Segment[], parts: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const part = parts[i + 1];
    if (segment === undefined || part === undefined) return false;
    if ('literal' in segment) {
      if (segment.literal !== part) return false;
    } else if (part.length === 0) {
      return false;
    }
  }
  return true;
}
