import fc from 'fast-check';
import { exampleFromSchema } from './from-schema.ts';
import type { JsonSchema, RefResolver, SchemaObject } from './json-schema.ts';
import { deref, jsonTypeOf, noRefs, typesOf } from './json-schema.ts';

export type Constraint =
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'minLength'
  | 'maxLength'
  | 'minItems'
  | 'maxItems'
  | 'type'
  | 'enum'
  | 'required'
  | 'format'
  | 'pattern';

/** One value aimed at one constraint: just inside (`valid`) or just outside it. */
export interface AimedCase {
  /** Where the change is, e.g. `['media', 0, 'position']`; empty for the root. */
  readonly path: readonly (string | number)[];
  readonly constraint: Constraint;
  readonly valid: boolean;
  /** The whole value (the base with this one change). */
  readonly value: unknown;
  readonly description: string;
}

export interface AimedOptions {
  readonly resolve?: RefResolver;
  /** How deep to recurse into nested objects and arrays (default 4). */
  readonly maxDepth?: number;
  /** Builds a string of an exact length for a path (default: `'a'.repeat(n)`); lets laws keep prefixes. */
  readonly stringOfLength?: (path: readonly (string | number)[], length: number) => string;
  /** Paths (dotted, indices as numbers) to leave alone. */
  readonly skip?: readonly string[];
}

interface Leaf {
  readonly constraint: Constraint;
  readonly valid: boolean;
  readonly value: unknown;
  readonly note: string;
}

const WRONG_TYPE_CANDIDATES: readonly unknown[] = [
  'cca-conform-wrong-type',
  12345,
  true,
  { wrong: 'type' },
  ['wrong'],
];

function admits(types: readonly string[], value: unknown): boolean {
  const t = jsonTypeOf(value);
  if (types.includes(t)) return true;
  return t === 'integer' && types.includes('number');
}

function numericLeaves(s: SchemaObject, integer: boolean): Leaf[] {
  const step = integer ? 1 : 0.001;
  const out: Leaf[] = [];
  if (s.minimum !== undefined) {
    out.push({ constraint: 'minimum', valid: true, value: s.minimum, note: `= minimum ${s.minimum}` });
    out.push({
      constraint: 'minimum',
      valid: false,
      value: s.minimum - step,
      note: `below minimum ${s.minimum}`,
    });
  }
  if (s.maximum !== undefined) {
    out.push({ constraint: 'maximum', valid: true, value: s.maximum, note: `= maximum ${s.maximum}` });
    out.push({
      constraint: 'maximum',
      valid: false,
      value: s.maximum + step,
      note: `above maximum ${s.maximum}`,
    });
  }
  if (s.exclusiveMinimum !== undefined) {
    const m = s.exclusiveMinimum;
    out.push({ constraint: 'exclusiveMinimum', valid: true, value: m + step, note: `just above ${m}` });
    out.push({ constraint: 'exclusiveMinimum', valid: false, value: m, note: `= exclusiveMinimum ${m}` });
  }
  if (s.exclusiveMaximum !== undefined) {
    const m = s.exclusiveMaximum;
    out.push({ constraint: 'exclusiveMaximum', valid: true, value: m - step, note: `just below ${m}` });
    out.push({ constraint: 'exclusiveMaximum', valid: false, value: m, note: `= exclusiveMaximum ${m}` });
  }
  if (integer) out.push({ constraint: 'type', valid: false, value: 1.5, note: 'not an integer' });
  return out;
}

function leavesOf(s: SchemaObject, path: readonly (string | number)[], opts: Required<AimedOptions>): Leaf[] {
  const types = typesOf(s);
  const out: Leaf[] = [];
  if (s.enum !== undefined) {
    // Every value of the enum is accepted: a deployment that knows only some of them refuses the rest.
    for (const value of s.enum)
      out.push({ constraint: 'enum', valid: true, value, note: `enum value ${JSON.stringify(value)}` });
    out.push({
      constraint: 'enum',
      valid: false,
      value: 'CCA_CONFORM_NOT_IN_ENUM',
      note: 'outside the enum',
    });
    // The near miss a lenient parser accepts: a member in the other letter case (a column compared
    // without case, a value upper-cased before the lookup) is still outside the enum.
    const member = s.enum.find((v): v is string => typeof v === 'string' && /[a-z]/i.test(v));
    if (member !== undefined) {
      const swapped = member === member.toUpperCase() ? member.toLowerCase() : member.toUpperCase();
      if (!s.enum.includes(swapped))
        out.push({
          constraint: 'enum',
          valid: false,
          value: swapped,
          note: `enum value ${JSON.stringify(member)} in the other letter case`,
        });
    }
  }
  if (types.includes('integer')) out.push(...numericLeaves(s, true));
  else if (types.includes('number')) out.push(...numericLeaves(s, false));
  if (types.includes('string') && s.enum === undefined) {
    const str = (n: number): string => opts.stringOfLength(path, n);
    if (s.minLength !== undefined && s.minLength > 0) {
      // A field named as a time (createdAt, submittedAt) with no format given is still a time to the
      // deployment that reads it: a one-character string is not proven valid, so it is not sent as
      // one. The string just too short stays invalid whatever the field means.
      const name = path[path.length - 1];
      const timeByName = typeof name === 'string' && /[a-z]At$/.test(name) && s.format === undefined;
      if (!timeByName)
        out.push({
          constraint: 'minLength',
          valid: true,
          value: str(s.minLength),
          note: `length = minLength ${s.minLength}`,
        });
      out.push({
        constraint: 'minLength',
        valid: false,
        value: str(s.minLength - 1),
        note: `length < minLength ${s.minLength}`,
      });
    }
    if (s.maxLength !== undefined) {
      out.push({
        constraint: 'maxLength',
        valid: true,
        value: str(s.maxLength),
        note: `length = maxLength ${s.maxLength}`,
      });
      out.push({
        constraint: 'maxLength',
        valid: false,
        value: str(s.maxLength + 1),
        note: `length > maxLength ${s.maxLength}`,
      });
    }
    if (s.format === 'date-time' || s.format === 'date' || s.format === 'uri' || s.format === 'url') {
      out.push({ constraint: 'format', valid: false, value: 'not a valid value', note: `not a ${s.format}` });
    }
    // A date given as a format or as a date-shaped pattern: the near misses a lenient parser such as
    // Date.parse accepts, each refused by the constraint itself (a pattern keeps only those it rejects).
    const datePattern = s.pattern !== undefined && new RegExp(s.pattern, 'u').test('2024-01-01');
    if (s.format === 'date-time' || s.format === 'date' || datePattern) {
      for (const near of DATE_NEAR_MISSES) {
        if (s.pattern !== undefined && new RegExp(s.pattern, 'u').test(near)) continue;
        out.push({
          constraint: 'format',
          valid: false,
          value: near,
          note: `date near miss ${JSON.stringify(near)}`,
        });
      }
    }
    // A URL: the near misses a lenient parser (the WHATWG URL parser, a scheme-blind check) repairs or
    // lets through, each refused by the constraint itself (a pattern keeps the ones it rejects, as an
    // http-only pattern does every other scheme).
    if (s.format === 'uri' || s.format === 'url') {
      const pattern = s.pattern === undefined ? undefined : new RegExp(s.pattern, 'u');
      for (const near of URI_NEAR_MISSES) out.push(uriNearMiss(near));
      if (pattern !== undefined) {
        for (const near of SCHEME_NEAR_MISSES) if (!pattern.test(near)) out.push(uriNearMiss(near));
      }
    }
    const offPattern = 'cca conform: not matching';
    if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(offPattern)) {
      out.push({
        constraint: 'pattern',
        valid: false,
        value: offPattern,
        note: `does not match ${s.pattern}`,
      });
    }
  }
  if (types.length > 0) {
    const wrong = WRONG_TYPE_CANDIDATES.find((v) => !admits(types, v));
    if (wrong !== undefined)
      out.push({ constraint: 'type', valid: false, value: wrong, note: `wrong type (${jsonTypeOf(wrong)})` });
  }
  return out;
}

/** Not ISO 8601, yet Date.parse (V8) reads each of them as a date. */
export const DATE_NEAR_MISSES: readonly string[] = [
  '2024-1-1',
  '2024/01/01',
  'January 1, 2024',
  '2024-01-01 10:00',
];

/** Not an absolute URI, yet the WHATWG URL parser (with a base, or by repair) reads each of them. */
export const URI_NEAR_MISSES: readonly string[] = [
  'cdn.example/near-miss.png',
  '//cdn.example/near-miss.png',
  'https://cdn.example/near miss.png',
];

/** Absolute URIs of a scheme other than HTTP(S), and an HTTP URI without its authority. */
export const SCHEME_NEAR_MISSES: readonly string[] = [
  'ftp://cdn.example/near-miss.png',
  'file:///etc/near-miss.png',
  'mailto:near-miss@cdn.example',
  'https:/cdn.example/near-miss.png',
];

function uriNearMiss(near: string): Leaf {
  return { constraint: 'format', valid: false, value: near, note: `URL near miss ${JSON.stringify(near)}` };
}

function setAt(base: unknown, path: readonly (string | number)[], value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy: Record<string | number, unknown> | unknown[] = Array.isArray(base)
    ? [...(base as unknown[])]
    : { ...(typeof base === 'object' && base !== null ? (base as Record<string, unknown>) : {}) };
  const current = (copy as Record<string | number, unknown>)[head];
  if (rest.length === 0 && remove) {
    if (Array.isArray(copy)) copy.splice(Number(head), 1);
    else delete copy[head];
  } else {
    (copy as Record<string | number, unknown>)[head] = setAt(current, rest, value, remove);
  }
  return copy;
}

function getAt(base: unknown, path: readonly (string | number)[]): unknown {
  let cur = base;
  for (const seg of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

function walk(
  schema: JsonSchema,
  root: unknown,
  path: readonly (string | number)[],
  depth: number,
  opts: Required<AimedOptions>,
  out: AimedCase[],
): void {
  if (opts.skip.includes(path.join('.'))) return;
  const s = deref(schema, opts.resolve);
  const where = path.length === 0 ? '(root)' : path.join('.');
  for (const leaf of leavesOf(s, path, opts)) {
    out.push({
      path,
      constraint: leaf.constraint,
      valid: leaf.valid,
      value: setAt(root, path, leaf.value),
      description: `${where}: ${leaf.note}`,
    });
  }
  if (depth >= opts.maxDepth) return;
  const types = typesOf(s);
  const current = getAt(root, path);
  if (types.includes('object') && s.properties !== undefined) {
    const required = new Set(s.required ?? []);
    for (const [name, propSchema] of Object.entries(s.properties)) {
      const p = [...path, name];
      if (opts.skip.includes(p.join('.'))) continue;
      if (required.has(name)) {
        out.push({
          path: p,
          constraint: 'required',
          valid: false,
          value: setAt(root, p, undefined, true),
          description: `${p.join('.')}: required key missing`,
        });
      }
      const hasValue = typeof current === 'object' && current !== null && name in current;
      const withProp = hasValue ? root : setAt(root, p, exampleFromSchema(propSchema, opts.resolve));
      walk(propSchema, withProp, p, depth + 1, opts, out);
    }
  }
  if (types.includes('array') && Array.isArray(current)) {
    const item = current[0] ?? exampleFromSchema(s.items ?? true, opts.resolve);
    const filled = (n: number): unknown[] =>
      Array.from({ length: n }, (_, i) => structuredClone(current[i] ?? item));
    if (s.minItems !== undefined && s.minItems > 0) {
      out.push({
        path,
        constraint: 'minItems',
        valid: true,
        value: setAt(root, path, filled(s.minItems)),
        description: `${where}: ${s.minItems} items (= minItems)`,
      });
      out.push({
        path,
        constraint: 'minItems',
        valid: false,
        value: setAt(root, path, filled(s.minItems - 1)),
        description: `${where}: ${s.minItems - 1} items (< minItems)`,
      });
    }
    if (s.maxItems !== undefined) {
      out.push({
        path,
        constraint: 'maxItems',
        valid: true,
        value: setAt(root, path, filled(s.maxItems)),
        description: `${where}: ${s.maxItems} items (= maxItems)`,
      });
      out.push({
        path,
        constraint: 'maxItems',
        valid: false,
        value: setAt(root, path, filled(s.maxItems + 1)),
        description: `${where}: ${s.maxItems + 1} items (> maxItems)`,
      });
    }
    if (current.length > 0 && s.items !== undefined) walk(s.items, root, [...path, 0], depth + 1, opts, out);
  }
}

/**
 * Values aimed at every constraint of a schema, each a copy of a valid `base` with one change:
 * just inside and just outside every min and max, wrong types, missing required keys, values
 * outside enums, over-long strings, malformed formats.
 *
 * @example
 * ```ts
 * const cases = aimedCases({ type: 'integer', minimum: 1, maximum: 500 }, 50);
 * // [{constraint:'minimum', valid:true, value:1}, {constraint:'minimum', valid:false, value:0}, ... value: 501 ...]
 * ```
 */
export function aimedCases(schema: JsonSchema, base: unknown, options: AimedOptions = {}): AimedCase[] {
  const opts: Required<AimedOptions> = {
    resolve: options.resolve ?? noRefs,
    maxDepth: options.maxDepth ?? 4,
    stringOfLength: options.stringOfLength ?? ((_p, n) => 'a'.repeat(n)),
    skip: options.skip ?? [],
  };
  const out: AimedCase[] = [];
  walk(schema, base, [], 0, opts, out);
  return out;
}

/** The aimed cases as an arbitrary (shrinks towards the first case). */
export function aimedArbitrary(
  schema: JsonSchema,
  base: unknown,
  options: AimedOptions = {},
): fc.Arbitrary<AimedCase> {
  const cases = aimedCases(schema, base, options);
  if (cases.length === 0) throw new Error('schema has no constraint to aim at');
  return fc.constantFrom(...cases);
}

/** Query-parameter flavour: values rendered as they travel on the wire (strings). */
export function aimedQueryCases(
  name: string,
  schema: JsonSchema,
  resolve: RefResolver = noRefs,
  stringOfLength?: (length: number) => string,
): AimedCase[] {
  const s = deref(schema, resolve);
  const types = typesOf(s);
  const cases = aimedCases(s, exampleFromSchema(s, resolve), {
    resolve,
    maxDepth: 0,
    ...(stringOfLength === undefined
      ? {}
      : { stringOfLength: (_p: readonly (string | number)[], n: number) => stringOfLength(n) }),
    // On the wire every value is text: only a non-integer number is a type error worth sending as is.
  }).filter(
    (c) =>
      c.constraint !== 'type' ||
      (!types.includes('string') && typeof c.value === 'number' && !Number.isInteger(c.value)),
  );
  const extra: AimedCase[] = [];
  if (types.includes('integer') || types.includes('number')) {
    extra.push({
      path: [],
      constraint: 'type',
      valid: false,
      value: 'abc',
      description: `${name}: not a number`,
    });
  }
  if (types.includes('boolean')) {
    extra.push({
      path: [],
      constraint: 'type',
      valid: false,
      value: 'maybe',
      description: `${name}: not a boolean`,
    });
  }
  return [...cases, ...extra].map((c) => ({
    ...c,
    path: [name],
    value: String(c.value),
    description: c.description.replace('(root)', name),
  }));
}
