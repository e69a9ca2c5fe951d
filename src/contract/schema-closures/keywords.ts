/**
 * The keyword tables of ClosureAjv, as ajv's lib/compile/rules.ts orders them: the untyped keywords,
 * the typed groups in order (the order errors come in), the keywords known only as annotations, those
 * ajv knows and ClosureAjv does not, and the JSON types each keyword's value may have. Also the data
 * type tests (`type`, `nullable`) every group and `uniqueItems` need.
 */
import type { Obj } from './types.ts';

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const UNTYPED = ['$ref', 'const', 'enum', 'not', 'anyOf', 'oneOf', 'allOf', 'if', 'then', 'else'];
/** ajv's typed rule groups in order, each with its keywords in ajv's order (lib/compile/rules.ts). */
export const GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['number', ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format']],
  ['string', ['maxLength', 'minLength', 'pattern', 'format']],
  [
    'array',
    ['maxItems', 'minItems', 'prefixItems', 'items', 'contains', 'uniqueItems', 'maxContains', 'minContains'],
  ],
  [
    'object',
    [
      'maxProperties',
      'minProperties',
      'required',
      'propertyNames',
      'additionalProperties',
      'properties',
      'patternProperties',
      'dependentRequired',
    ],
  ],
];
export const RULES = new Set([
  ...UNTYPED,
  ...GROUPS.flatMap(([, kws]) => kws),
  'type',
  'nullable',
  '$comment',
]);
export const ANNOTATIONS = new Set(
  '$schema $id $defs $vocabulary definitions title description default deprecated readOnly writeOnly examples contentMediaType contentEncoding contentSchema'.split(
    ' ',
  ),
);
export const UNSUPPORTED = new Set(
  'id $async $dynamicAnchor $dynamicRef $recursiveAnchor $recursiveRef dependencies dependentSchemas unevaluatedItems unevaluatedProperties formatMaximum formatMinimum formatExclusiveMaximum formatExclusiveMinimum'.split(
    ' ',
  ),
);
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const NUM = ['number'];
const SCHEMA = ['object', 'boolean'];
/** The JSON types each keyword's value may have (ajv's `schemaType`). */
export const VALUE_TYPES: Readonly<Record<string, readonly string[]>> = {
  $ref: ['string'],
  type: ['string', 'array'],
  nullable: ['boolean'],
  enum: ['array'],
  not: SCHEMA,
  anyOf: ['array'],
  oneOf: ['array'],
  allOf: ['array'],
  if: SCHEMA,
  // `then` and `else` the same; not written as properties, so the table is not a thenable.
  ...Object.fromEntries(['then', 'else'].map((k) => [k, SCHEMA])),
  maximum: NUM,
  minimum: NUM,
  exclusiveMaximum: NUM,
  exclusiveMinimum: NUM,
  multipleOf: NUM,
  format: ['string'],
  maxLength: NUM,
  minLength: NUM,
  pattern: ['string'],
  maxItems: NUM,
  minItems: NUM,
  prefixItems: ['array'],
  items: SCHEMA,
  contains: SCHEMA,
  uniqueItems: ['boolean'],
  maxContains: NUM,
  minContains: NUM,
  maxProperties: NUM,
  minProperties: NUM,
  required: ['array'],
  propertyNames: SCHEMA,
  additionalProperties: ['boolean', 'object'],
  properties: ['object'],
  patternProperties: ['object'],
  dependentRequired: ['object'],
};

/** ajv's `validSchemaType`: whether a keyword's value `v` is of JSON type `type`. */
export function fits(type: string, v: unknown): boolean {
  if (type === 'array') return Array.isArray(v);
  if (type === 'object') return isObj(v);
  return typeof v === type;
}

/** Whether data `d` is of JSON type `type` (ajv's `checkDataType`). */
export function typeIs(type: string, d: unknown, strictNumbers: boolean): boolean {
  switch (type) {
    case 'null':
      return d === null;
    case 'array':
      return Array.isArray(d);
    case 'object':
      return isObj(d);
    case 'integer':
      return typeof d === 'number' && !(d % 1) && !Number.isNaN(d) && (!strictNumbers || Number.isFinite(d));
    case 'number':
      return typeof d === 'number' && (!strictNumbers || Number.isFinite(d));
    default:
      return typeof d === type;
  }
}

/** ajv's `getSchemaTypes`: `type` as a list, `null` added by `nullable: true`. */
export function schemaTypes(schema: Obj): string[] {
  const type = schema['type'];
  const types: unknown[] = Array.isArray(type) ? [...type] : type === undefined ? [] : [type];
  if (!types.every((t) => typeof t === 'string' && JSON_TYPES.has(t)))
    throw new Error(`type must be JSONType or JSONType[]: ${types.join(',')}`);
  const names = types as string[];
  if (names.includes('null')) {
    if (schema['nullable'] === false) throw new Error('type: null contradicts nullable: false');
  } else {
    if (names.length === 0 && schema['nullable'] !== undefined)
      throw new Error('"nullable" cannot be used without "type"');
    if (schema['nullable'] === true) names.push('null');
  }
  return names;
}
