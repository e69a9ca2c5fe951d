/**
 * The adapter over api-smart-diff: its findings (a JSON path in the dereferenced document, an action,
 * before and after values) mapped onto our table of checks (table.ts). The library's own level is
 * used only for what the table does not name (`other-breaking`, `other-change`): it misses nullability
 * and type changes in OpenAPI 3.1 and calls a removed optional response property non-breaking.
 */
import { apiCompare, type Diff } from 'api-smart-diff';
import { type DriftCheckId, type DriftLevel, type LevelOverrides, levelOf } from './table.ts';
import { isRecord, type JsonKey, nodeAt } from './walk.ts';

export interface DriftFinding {
  readonly checkId: DriftCheckId;
  readonly level: DriftLevel;
  /** `GET /v0/action/list`. */
  readonly operation: string;
  readonly operationId?: string;
  /** Where in the operation: `query parameter pageSize`, `response 200 application/json: data[].status`. */
  readonly location: string;
  /** What changed, in words, with the values. */
  readonly detail: string;
  /** JSON pointer of the change in the compared (dereferenced) documents. */
  readonly pointer: string;
  /** The diff library's own description and level, for comparison. */
  readonly library: { readonly type: string; readonly description: string };
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const MAX_KEYWORDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);
const MIN_KEYWORDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const DOC_KEYWORDS = new Set([
  'description',
  'summary',
  'example',
  'examples',
  'title',
  'tags',
  'externalDocs',
  'deprecated',
]);

type Direction = 'request' | 'response';

/** One finding, several (a replaced `required` array), or none (a change with no effect). */
type Classified = DriftFinding | readonly DriftFinding[] | undefined;

interface Context {
  readonly before: unknown;
  readonly after: unknown;
  readonly diff: Diff;
  readonly overrides: LevelOverrides;
  readonly operation: string;
  readonly operationId: string | undefined;
}

/** Bounded, readable text of a value. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function pointerOf(path: readonly JsonKey[]): string {
  return `/${path.map((k) => String(k).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

/** `data[].status` from the schema-relative path; empty at the schema's root. */
function schemaLocation(path: readonly JsonKey[]): string {
  let out = '';
  for (let i = 0; i < path.length; i += 1) {
    const key = path[i];
    if ((key === 'properties' || key === 'patternProperties') && i + 1 < path.length) {
      out += `${out === '' ? '' : '.'}${String(path[i + 1])}`;
      i += 1;
    } else if (key === 'items' || key === 'prefixItems') out += '[]';
    else if (key === 'additionalProperties') out += `${out === '' ? '' : '.'}*`;
  }
  return out;
}

function typesOf(schema: unknown): Set<string> {
  const out = new Set<string>();
  if (!isRecord(schema)) return out;
  const type = schema['type'];
  if (typeof type === 'string') out.add(type);
  else if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') out.add(t);
  if (schema['nullable'] === true) out.add('null');
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches))
      for (const b of branches) if (isRecord(b) && b['type'] === 'null') out.add('null');
  }
  return out;
}

const subset = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].every((x) => b.has(x));

function withoutNull(types: ReadonlySet<string>): Set<string> {
  return new Set([...types].filter((t) => t !== 'null'));
}

function make(ctx: Context, checkId: DriftCheckId, location: string, detail: string): DriftFinding {
  return {
    checkId,
    level: levelOf(checkId, ctx.overrides),
    operation: ctx.operation,
    ...(ctx.operationId === undefined ? {} : { operationId: ctx.operationId }),
    location,
    detail,
    pointer: pointerOf(ctx.diff.path),
    library: { type: ctx.diff.type, description: ctx.diff.description ?? '' },
  };
}

function fallback(ctx: Context, location: string): DriftFinding {
  const { diff } = ctx;
  const key = diff.path[diff.path.length - 1];
  const detail = `${diff.action} ${String(key)}: ${show(diff.before)} -> ${show(diff.after)}`;
  if (diff.type === 'annotation' || (typeof key === 'string' && DOC_KEYWORDS.has(key)))
    return make(ctx, 'documentation-changed', location, detail);
  return make(ctx, diff.type === 'breaking' ? 'other-breaking' : 'other-change', location, detail);
}

/** A change inside a schema: `schemaPath` is the absolute path of the schema's root. */
function classifySchema(
  ctx: Context,
  direction: Direction,
  where: string,
  schemaPath: readonly JsonKey[],
): Classified {
  const { diff } = ctx;
  const rel = diff.path.slice(schemaPath.length);
  const last = rel[rel.length - 1];
  const parent = rel[rel.length - 2];
  const request = direction === 'request';
  const located = (path: readonly JsonKey[]): string => {
    const inner = schemaLocation(path);
    return inner === '' ? where : `${where}: ${inner}`;
  };
  const at = (n: number) => located(rel.slice(0, rel.length - n));
  const owner = (n: number) => diff.path.slice(0, diff.path.length - n);

  // A property added or removed.
  if (parent === 'properties' && typeof last === 'string' && diff.action !== 'replace') {
    const location = located(rel);
    const requiredIn = (doc: unknown): boolean => {
      const schema = nodeAt(doc, owner(2));
      return isRecord(schema) && Array.isArray(schema['required']) && schema['required'].includes(last);
    };
    if (diff.action === 'add') {
      if (!request) return make(ctx, 'response-property-added', location, `property ${last} added`);
      return requiredIn(ctx.after)
        ? make(ctx, 'request-property-added-required', location, `required property ${last} added`)
        : make(ctx, 'request-property-added-optional', location, `optional property ${last} added`);
    }
    if (request) return make(ctx, 'request-property-removed', location, `property ${last} removed`);
    return requiredIn(ctx.before)
      ? make(ctx, 'response-property-removed', location, `required property ${last} removed`)
      : make(ctx, 'response-optional-property-removed', location, `optional property ${last} removed`);
  }

  // `required` gained or lost a name (one element, or the whole array).
  if (parent === 'required' || last === 'required') {
    const whole = last === 'required';
    const schemaAt = owner(whole ? 1 : 2);
    const names = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.filter((v) => typeof v === 'string')
          : [];
    const gained = diff.action === 'remove' ? [] : names(diff.after);
    const lost = diff.action === 'add' ? [] : names(diff.before);
    // Only names of properties present on both sides: an added or removed property is its own finding.
    const inBoth = (name: string): boolean =>
      [ctx.before, ctx.after].every((doc) => {
        const props = nodeAt(doc, [...schemaAt, 'properties']);
        return isRecord(props) && Object.hasOwn(props, name);
      });
    const inner = schemaLocation(rel.slice(0, rel.length - (whole ? 1 : 2)));
    const prefix = inner === '' ? `${where}: ` : `${where}: ${inner}.`;
    const findings: DriftFinding[] = [];
    for (const name of gained.filter((n) => inBoth(n) && !lost.includes(n)))
      findings.push(
        request
          ? make(ctx, 'request-property-became-required', `${prefix}${name}`, `${name} became required`)
          : make(ctx, 'response-property-became-required', `${prefix}${name}`, `${name} became required`),
      );
    for (const name of lost.filter((n) => inBoth(n) && !gained.includes(n)))
      findings.push(
        request
          ? make(ctx, 'request-property-became-optional', `${prefix}${name}`, `${name} became optional`)
          : make(ctx, 'response-property-became-optional', `${prefix}${name}`, `${name} became optional`),
      );
    // A replaced `required` array may carry several names.
    return findings;
  }

  // Enum values.
  if (parent === 'enum' || last === 'enum' || last === 'const') {
    const whole = last === 'enum' || last === 'const';
    const location = at(whole ? 1 : 2);
    // A whole enum added narrows what is allowed; removed widens it.
    const widened = whole ? diff.action === 'remove' : diff.action === 'add';
    const narrowed = whole ? diff.action === 'add' : diff.action === 'remove';
    const detail = `${diff.action} ${whole ? String(last) : 'value'}: ${show(diff.before)} -> ${show(diff.after)}`;
    if (widened)
      return make(ctx, request ? 'request-enum-widened' : 'response-enum-widened', location, detail);
    if (narrowed)
      return make(ctx, request ? 'request-enum-narrowed' : 'response-enum-narrowed', location, detail);
    return make(ctx, 'type-changed', location, detail);
  }

  // Types and nullability (`type`, 3.0 `nullable`, a `{type: null}` branch of anyOf/oneOf).
  const typeChange =
    last === 'type' ||
    parent === 'type' ||
    last === 'nullable' ||
    ((parent === 'anyOf' || parent === 'oneOf') &&
      isRecord(diff.after ?? diff.before) &&
      (diff.after ?? diff.before)['type'] === 'null');
  if (typeChange) {
    const up = last === 'type' || last === 'nullable' ? 1 : 2;
    const location = at(up);
    const beforeTypes = typesOf(nodeAt(ctx.before, owner(up)));
    const afterTypes = typesOf(nodeAt(ctx.after, owner(up)));
    const detail = `type ${[...beforeTypes].join('|') || 'any'} -> ${[...afterTypes].join('|') || 'any'}`;
    const sameBesidesNull =
      subset(withoutNull(beforeTypes), withoutNull(afterTypes)) &&
      subset(withoutNull(afterTypes), withoutNull(beforeTypes));
    if (sameBesidesNull && !beforeTypes.has('null') && afterTypes.has('null'))
      return make(ctx, request ? 'request-became-nullable' : 'response-became-nullable', location, detail);
    if (sameBesidesNull && beforeTypes.has('null') && !afterTypes.has('null'))
      return make(
        ctx,
        request ? 'request-no-longer-nullable' : 'response-no-longer-nullable',
        location,
        detail,
      );
    if (sameBesidesNull) return undefined;
    if (request && subset(beforeTypes, afterTypes))
      return make(ctx, 'request-type-widened', location, detail);
    return make(ctx, 'type-changed', location, detail);
  }

  // Limits.
  if (typeof last === 'string' && (MAX_KEYWORDS.has(last) || MIN_KEYWORDS.has(last) || last === 'pattern')) {
    const location = at(1);
    const detail = `${last} ${show(diff.before)} -> ${show(diff.after)}`;
    let tightened: boolean;
    if (diff.action === 'add') tightened = true;
    else if (diff.action === 'remove') tightened = false;
    else if (last === 'pattern') tightened = true;
    else if (typeof diff.before === 'number' && typeof diff.after === 'number')
      tightened = MAX_KEYWORDS.has(last) ? diff.after < diff.before : diff.after > diff.before;
    else tightened = true;
    if (!request) return make(ctx, 'response-limit-changed', location, detail);
    return make(ctx, tightened ? 'request-limit-tightened' : 'request-limit-loosened', location, detail);
  }

  return fallback(ctx, at(0));
}

function classifyOperationPart(
  ctx: Context,
  rest: readonly JsonKey[],
  opPath: readonly JsonKey[],
): Classified {
  const { diff } = ctx;
  const [part, a, b, c] = rest;
  if (part === 'parameters' && typeof a === 'number') {
    const param = nodeAt(diff.action === 'add' ? ctx.after : ctx.before, [...opPath, 'parameters', a]);
    const name = isRecord(param)
      ? `${String(param['in'])} parameter ${String(param['name'])}`
      : `parameter ${a}`;
    if (rest.length === 2) {
      if (diff.action === 'remove') return make(ctx, 'param-removed', name, `${name} removed`);
      if (diff.action === 'add') {
        const required = isRecord(diff.after) && diff.after['required'] === true;
        return required
          ? make(ctx, 'param-added-required', name, `required ${name} added`)
          : make(ctx, 'param-added-optional', name, `optional ${name} added`);
      }
    }
    if (b === 'required' && rest.length === 3) {
      const now = diff.action !== 'remove' && diff.after === true;
      return now
        ? make(ctx, 'param-became-required', name, `${name} became required`)
        : make(ctx, 'param-became-optional', name, `${name} became optional`);
    }
    if (b === 'schema') return classifySchema(ctx, 'request', name, [...opPath, 'parameters', a, 'schema']);
    // A path parameter renamed with its template (`{id}` to `{actionId}`): the URL on the wire is the same.
    if (b === 'name' && rest.length === 3 && isRecord(param) && param['in'] === 'path')
      return make(
        ctx,
        'documentation-changed',
        name,
        `path parameter renamed ${show(diff.before)} -> ${show(diff.after)}`,
      );
    return fallback(ctx, name);
  }
  if (part === 'requestBody') {
    if (a === 'required' && rest.length === 2) {
      const now = diff.action !== 'remove' && diff.after === true;
      return make(
        ctx,
        now ? 'body-became-required' : 'body-became-optional',
        'request body',
        `required ${show(diff.before)} -> ${show(diff.after)}`,
      );
    }
    if (a === 'content' && typeof b === 'string') {
      const where = `request body ${b}`;
      if (rest.length === 3 && diff.action !== 'replace')
        return make(
          ctx,
          diff.action === 'remove' ? 'request-media-type-removed' : 'request-media-type-added',
          where,
          `${b} ${diff.action === 'remove' ? 'removed' : 'added'}`,
        );
      if (c === 'schema')
        return classifySchema(ctx, 'request', where, [...opPath, 'requestBody', 'content', b, 'schema']);
      return fallback(ctx, where);
    }
    return fallback(ctx, 'request body');
  }
  if (part === 'responses' && typeof a === 'string') {
    const where = `response ${a}`;
    if (rest.length === 2 && diff.action !== 'replace') {
      if (diff.action === 'add') return make(ctx, 'status-added', where, `status ${a} added`);
      return a.startsWith('2') || a === '2XX'
        ? make(ctx, 'success-status-removed', where, `status ${a} removed`)
        : make(ctx, 'error-status-removed', where, `status ${a} removed`);
    }
    if (b === 'content' && typeof c === 'string') {
      const media = `${where} ${c}`;
      if (rest.length === 4 && diff.action !== 'replace')
        return make(
          ctx,
          diff.action === 'remove' ? 'response-media-type-removed' : 'response-media-type-added',
          media,
          `${c} ${diff.action === 'remove' ? 'removed' : 'added'}`,
        );
      if (rest[4] === 'schema')
        return classifySchema(ctx, 'response', media, [...opPath, 'responses', a, 'content', c, 'schema']);
      return fallback(ctx, media);
    }
    return fallback(ctx, where);
  }
  return fallback(ctx, String(part ?? 'operation'));
}

function operationIdOf(doc: unknown, path: readonly JsonKey[]): string | undefined {
  const op = nodeAt(doc, path);
  return isRecord(op) && typeof op['operationId'] === 'string' ? op['operationId'] : undefined;
}

function classifyDiff(
  before: unknown,
  after: unknown,
  diff: Diff,
  overrides: LevelOverrides,
): DriftFinding[] {
  const [root, route, method, ...rest] = diff.path;
  if (root !== 'paths' || typeof route !== 'string') return [];
  const base = { before, after, diff, overrides };
  // A whole path item added or removed: one finding per operation in it.
  if (method === undefined) {
    const item = diff.action === 'add' ? diff.after : diff.before;
    if (!isRecord(item) || diff.action === 'replace') return [];
    return Object.keys(item)
      .filter((m) => METHODS.has(m))
      .map((m) => {
        const op = item[m];
        const operationId =
          isRecord(op) && typeof op['operationId'] === 'string' ? op['operationId'] : undefined;
        const ctx: Context = { ...base, operation: `${m.toUpperCase()} ${route}`, operationId };
        return make(
          ctx,
          diff.action === 'add' ? 'op-added' : 'op-removed',
          'operation',
          `${m.toUpperCase()} ${route} ${diff.action === 'add' ? 'added' : 'removed'}`,
        );
      });
  }
  if (typeof method !== 'string' || !METHODS.has(method)) {
    const ctx: Context = { ...base, operation: `* ${route}`, operationId: undefined };
    return [fallback(ctx, `path item ${String(method)}`)];
  }
  const opPath = ['paths', route, method];
  const operationId = operationIdOf(diff.action === 'add' ? after : before, opPath);
  const ctx: Context = { ...base, operation: `${method.toUpperCase()} ${route}`, operationId };
  if (rest.length === 0) {
    if (diff.action === 'replace') return [fallback(ctx, 'operation')];
    return [
      make(
        ctx,
        diff.action === 'add' ? 'op-added' : 'op-removed',
        'operation',
        `${ctx.operation} ${diff.action === 'add' ? 'added' : 'removed'}`,
      ),
    ];
  }
  return [classifyOperationPart(ctx, rest, opPath) ?? []].flat();
}

/**
 * Every difference from `before` (the contract) to `after` (the live document), classified.
 * Both are parsed OpenAPI 3.x documents (see document.ts for the checks that come first).
 */
export function classifyDrift(
  before: unknown,
  after: unknown,
  overrides: LevelOverrides = new Map(),
): DriftFinding[] {
  const { diffs } = apiCompare(before, after);
  const findings = diffs.flatMap((d) => classifyDiff(before, after, d, overrides));
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.checkId} ${f.operation} ${f.location} ${f.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
