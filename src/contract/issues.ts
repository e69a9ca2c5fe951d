import type { ErrorObject } from 'ajv/dist/2020.js';

/** Where a validation issue was found. */
export type IssueLocation = 'path' | 'query' | 'body' | 'response' | 'header';

/**
 * One reason a value does not match the contract, in a form both machines and people can use.
 *
 * @example
 * { location: 'query', pointer: 'pageSize', field: 'pageSize', keyword: 'maximum',
 *   message: 'query parameter pageSize must be <= 500 (got 501)' }
 */
export interface ValidationIssue {
  readonly location: IssueLocation;
  /** A JSON pointer within the body (`/records/3/score`), or the parameter name for path and query. */
  readonly pointer: string;
  /** A human path: `pageSize`, `records[3].score`, `media[0].type` (for `required`, the missing key included). */
  readonly field: string;
  /** The JSON Schema keyword that failed (`required`, `maximum`, `type`, `enum`, `format`...). */
  readonly keyword: string;
  readonly missingProperty?: string;
  /** A full sentence naming the field and what was expected. */
  readonly message: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Walks a JSON pointer through a value, returning the human path and the value found there. */
function walk(root: unknown, pointer: string): { path: string; value: unknown } {
  let path = '';
  let value = root;
  if (pointer === '') return { path, value };
  for (const raw of pointer.slice(1).split('/')) {
    const key = unescapePointer(raw);
    if (Array.isArray(value)) {
      path += `[${key}]`;
      value = value[Number.parseInt(key, 10)];
      continue;
    }
    path += IDENTIFIER.test(key) ? (path === '' ? key : `.${key}`) : `[${JSON.stringify(key)}]`;
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return { path, value };
}

function appendKey(path: string, key: string): string {
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** A short rendering of the offending value for a message: `501`, `"1.5"`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return `${JSON.stringify(shown)}${value.length > 60 ? ` (${value.length} characters)` : ''}`;
  }
  return String(value);
}

function subject(location: IssueLocation, field: string): string {
  switch (location) {
    case 'query':
      return `query parameter ${field}`;
    case 'path':
      return `path parameter ${field}`;
    case 'header':
      return `header ${field}`;
    case 'body':
      return field === '' ? 'request body' : `body field ${field}`;
    case 'response':
      return field === '' ? 'response body' : `response field ${field}`;
  }
}

function expectation(error: ErrorObject, value: unknown): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const type = params['type'];
      const expected = Array.isArray(type) ? type.join(' or ') : String(type);
      return `must be ${expected === 'integer' ? 'an integer' : `of type ${expected}`} (got ${describeValue(value)})`;
    }
    case 'enum': {
      const allowed = Array.isArray(params['allowedValues']) ? params['allowedValues'] : [];
      return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')} (got ${describeValue(value)})`;
    }
    case 'const':
      // ajv says "must be equal to constant" without the constant: name it.
      return `must be ${JSON.stringify(params['allowedValue'])} (got ${describeValue(value)})`;
    case 'format':
      return `must be a valid ${String(params['format'])} (got ${describeValue(value)})`;
    case 'minLength':
    case 'maxLength':
      return `${error.message ?? 'has an invalid length'} (got ${typeof value === 'string' ? value.length : 0})`;
    case 'minItems':
    case 'maxItems':
      return `${error.message ?? 'has an invalid number of items'} (got ${Array.isArray(value) ? value.length : 0})`;
    case 'minProperties':
    case 'maxProperties':
      return error.message ?? 'has an invalid number of properties';
    default:
      return `${error.message ?? `fails ${error.keyword}`}${
        typeof value === 'object' && value !== null ? '' : ` (got ${describeValue(value)})`
      }`;
  }
}

/**
 * Turns ajv errors into issues. For parameters the root object maps names to values and the first
 * pointer segment is the parameter name; for bodies the pointer is kept as a JSON pointer.
 */
export function toIssues(
  location: IssueLocation,
  errors: readonly ErrorObject[],
  data: unknown,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const params = error.params as Record<string, unknown>;
    const at = walk(data, error.instancePath);
    let pointer = error.instancePath;
    let field = at.path;
    let message: string;
    let missingProperty: string | undefined;
    if (error.keyword === 'required' && typeof params['missingProperty'] === 'string') {
      missingProperty = params['missingProperty'];
      pointer = `${pointer}/${escapePointer(missingProperty)}`;
      field = appendKey(field, missingProperty);
      message = `${subject(location, field)} is required`;
    } else if (error.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
      const extra = params['additionalProperty'];
      pointer = `${pointer}/${escapePointer(extra)}`;
      field = appendKey(field, extra);
      message = `${subject(location, field)} is not allowed here (unknown property)`;
    } else {
      message = `${subject(location, field)} ${expectation(error, at.value)}`;
    }
    if (location === 'query' || location === 'path' || location === 'header') {
      pointer = field;
    }
    const key = `${pointer}\u0000${error.keyword}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({
      location,
      pointer,
      field,
      keyword: error.keyword,
      ...(missingProperty === undefined ? {} : { missingProperty }),
      message,
    });
  }
  return issues;
}
