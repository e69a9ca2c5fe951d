import fc from 'fast-check';
import type { JsonSchema, RefResolver, SchemaObject } from './json-schema.ts';
import { deref, noRefs, typesOf } from './json-schema.ts';

export interface FromSchemaOptions {
  readonly resolve?: RefResolver;
  /** How many optional properties to include: none, some (random subset) or all. Default `some`. */
  readonly optional?: 'none' | 'some' | 'all';
  /** Extra items generated above `minItems` (bounded by `maxItems`). Default 3. */
  readonly extraItems?: number;
  /** Extra characters above `minLength` (bounded by `maxLength`). Default 16. */
  readonly extraChars?: number;
}

interface Ctx {
  readonly resolve: RefResolver;
  readonly optional: 'none' | 'some' | 'all';
  readonly extraItems: number;
  readonly extraChars: number;
  readonly depth: number;
}

const MIN_DATE = new Date('2001-01-01T00:00:00.000Z');
const MAX_DATE = new Date('2035-12-31T23:59:59.999Z');

function stringArb(s: SchemaObject): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? min + 16;
  // Values a format or a pattern draws keep to the schema's own bounds only: an implied cap would
  // reject every match of a pattern whose shortest string is longer (a SHA-256 in hex), and the
  // filter would never let a value through.
  const withinBounds = (v: string): boolean =>
    v.length >= min && (s.maxLength === undefined || v.length <= s.maxLength);
  switch (s.format) {
    case 'date-time':
      return fc.date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: MIN_DATE, max: MAX_DATE, noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'uri':
    case 'url':
      return fc.webUrl({ validSchemes: ['https', 'http'] }).filter(withinBounds);
    case 'email':
      return fc.emailAddress().filter(withinBounds);
    case 'uuid':
      return fc.uuid();
    default:
      break;
  }
  if (s.pattern !== undefined) {
    return fc.stringMatching(new RegExp(s.pattern)).filter(withinBounds);
  }
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 16) });
}

function numberArb(s: SchemaObject, integer: boolean): fc.Arbitrary<number> {
  let min =
    s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : s.exclusiveMinimum + (integer ? 1 : 1e-9));
  let max =
    s.maximum ?? (s.exclusiveMaximum === undefined ? undefined : s.exclusiveMaximum - (integer ? 1 : 1e-9));
  if (integer) {
    min = min === undefined ? -1_000_000 : Math.ceil(min);
    max = max === undefined ? Math.max(min, 0) + 1_000_000 : Math.floor(max);
    return fc.integer({
      min: Math.max(min, Number.MIN_SAFE_INTEGER),
      max: Math.min(max, Number.MAX_SAFE_INTEGER),
    });
  }
  min ??= -1e6;
  max ??= min + 2e6;
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
}

function build(schema: JsonSchema, ctx: Ctx): fc.Arbitrary<unknown> {
  if (schema === true) return fc.jsonValue({ maxDepth: 1 });
  if (schema === false) throw new Error('no value satisfies the schema `false`');
  const s = deref(schema, ctx.resolve);
  const next = { ...ctx, depth: ctx.depth + 1 };
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum !== undefined) return fc.constantFrom(...s.enum);
  const branches = s.oneOf ?? s.anyOf;
  if (branches !== undefined) {
    const { oneOf: _o, anyOf: _a, ...base } = s;
    return fc.oneof(...branches.map((b) => build({ ...base, ...deref(b, ctx.resolve) }, next)));
  }
  const types = typesOf(s);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 1 });
  if (types.length > 1) return fc.oneof(...types.map((t) => build({ ...s, type: t }, ctx)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'string':
      return stringArb(s);
    case 'array': {
      const item = build(s.items ?? true, next);
      const minLength = s.minItems ?? 0;
      const maxLength = Math.min(s.maxItems ?? minLength + ctx.extraItems, minLength + ctx.extraItems);
      return s.uniqueItems === true
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object': {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const keys = Object.keys(props).filter((k) => required.has(k) || ctx.optional !== 'none');
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const k of keys) model[k] = build(props[k] ?? true, next);
      if (ctx.optional === 'all') return fc.record(model);
      return fc.record(model, { requiredKeys: keys.filter((k) => required.has(k)) });
    }
    default:
      throw new Error(`unsupported schema type ${String(types[0])}`);
  }
}

/**
 * A fast-check arbitrary of values valid against a JSON Schema: types, `enum`/`const`, numeric and
 * length bounds, `minItems`/`maxItems`, `required`, formats `date-time`, `date`, `uri`, `email`.
 *
 * @example
 * ```ts
 * const pageSize = arbitraryFromSchema({ type: 'integer', minimum: 1, maximum: 500 });
 * fc.assert(fc.property(pageSize, (n) => n >= 1 && n <= 500));
 * ```
 */
export function arbitraryFromSchema(
  schema: JsonSchema,
  options: FromSchemaOptions = {},
): fc.Arbitrary<unknown> {
  return build(schema, {
    resolve: options.resolve ?? noRefs,
    optional: options.optional ?? 'some',
    extraItems: options.extraItems ?? 3,
    extraChars: options.extraChars ?? 16,
    depth: 0,
  });
}

/** A deterministic small valid value: required keys only, lower bounds, first enum member. */
export function exampleFromSchema(schema: JsonSchema, resolve: RefResolver = noRefs, depth = 0): unknown {
  if (typeof schema === 'boolean') return 'x';
  const s = deref(schema, resolve);
  if (s.const !== undefined) return s.const;
  if (s.enum !== undefined) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const branches = s.oneOf ?? s.anyOf;
  if (branches?.[0] !== undefined) return exampleFromSchema(branches[0], resolve, depth + 1);
  const types = typesOf(s).filter((t) => t !== 'null');
  const type = types[0] ?? (typesOf(s).includes('null') ? 'null' : 'string');
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return false;
    case 'integer':
    case 'number': {
      if (s.minimum !== undefined) return s.minimum;
      if (s.exclusiveMinimum !== undefined) return s.exclusiveMinimum + 1;
      if (s.maximum !== undefined) return Math.min(s.maximum, 1);
      return 1;
    }
    case 'string': {
      if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
      if (s.format === 'date') return '2026-01-01';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/cca-conform';
      if (s.format === 'email') return 'cca-conform@example.com';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    }
    case 'array': {
      const n = s.minItems ?? 0;
      const item = exampleFromSchema(s.items ?? true, resolve, depth + 1);
      return Array.from({ length: n }, () => structuredClone(item));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? [])
        out[k] = exampleFromSchema(s.properties?.[k] ?? true, resolve, depth + 1);
      return out;
    }
    default:
      return 'x';
  }
}
