/**
 * Tiny builders for JSON Schema 2020-12 fragments, so the contract reads like the spec's tables:
 * `nullable(str)` is the spec's "string / null" (key required, value may be null) and `obj()` takes
 * the required keys from the property list unless they are marked optional.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Schema = { [key: string]: Json };

/** Marks a property as optional inside `obj()`; everything else is required. */
export interface Optional {
  readonly optional: Schema;
}

export const optional = (schema: Schema): Optional => ({ optional: schema });

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const num = (extra: Schema = {}): Schema => ({ type: 'number', ...extra });
export const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
export const bool = (extra: Schema = {}): Schema => ({ type: 'boolean', ...extra });

/** "string / null": the key is present, the value a string or null. */
export const nullableStr = (extra: Schema = {}): Schema => ({ type: ['string', 'null'], ...extra });
export const nullableNum = (extra: Schema = {}): Schema => ({ type: ['number', 'null'], ...extra });
export const nullableInt = (extra: Schema = {}): Schema => ({ type: ['integer', 'null'], ...extra });

/** A timestamp string. Durations (firstResponseTime, handleTime) must never use this. */
export const timestamp = (description: string): Schema => ({
  type: 'string',
  format: 'date-time',
  description,
});
export const nullableTimestamp = (description: string): Schema => ({
  type: ['string', 'null'],
  format: 'date-time',
  description,
});

/** An identifier: always a JSON string, preserved byte for byte (spec section 2). */
export const id = (description: string): Schema => ({ type: 'string', description });

/** Absolute http or https URL (the scheme is case-insensitive). */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+';
export const httpUrl = (description: string): Schema => ({
  type: 'string',
  format: 'uri',
  pattern: HTTP_URL_PATTERN,
  description,
});

export const arr = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });

/** Any JSON value: the spec's "value any JSON" (no `type`, so null, objects and arrays all pass). */
export const anyJson = (description: string): Schema => ({ description });

/** An object whose shape the spec does not show: open, with the gap recorded. */
export const openObject = (gap: string): Schema => ({
  type: 'object',
  additionalProperties: true,
  'x-spec-gap': gap,
});

/**
 * An object schema. Properties are required unless wrapped in `optional()`. Response objects stay
 * open (section 9: clients must tolerate additions), so `additionalProperties` is never set here.
 */
export function obj(properties: Record<string, Schema | Optional>, extra: Schema = {}): Schema {
  const props: { [key: string]: Json } = {};
  const required: string[] = [];
  for (const [name, value] of Object.entries(properties)) {
    if ('optional' in value && Object.keys(value).length === 1) {
      props[name] = (value as Optional).optional;
    } else {
      props[name] = value as Schema;
      required.push(name);
    }
  }
  const schema: Schema = { type: 'object', ...extra, properties: props };
  if (required.length > 0) schema['required'] = required;
  return schema;
}
