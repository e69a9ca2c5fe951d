/** The subset of JSON Schema (2020-12, as OpenAPI 3.1 uses it) the arbitraries understand. */

export type JsonSchema = boolean | SchemaObject;

export interface SchemaObject {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly items?: JsonSchema;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly default?: unknown;
  readonly [extension: `x-${string}`]: unknown;
}

/** Resolves a `$ref` (e.g. `#/components/schemas/ModerationSubmission`) to its schema. */
export type RefResolver = (ref: string) => JsonSchema;

/** Follows `$ref`s and merges `allOf` into one object schema (shallow: enough for the contract). */
export function deref(schema: JsonSchema, resolve: RefResolver, depth = 0): SchemaObject {
  if (typeof schema === 'boolean') return {};
  if (depth > 32) throw new Error('schema $ref chain too deep');
  if (schema.$ref !== undefined) {
    const { $ref, ...rest } = schema;
    const target = deref(resolve($ref), resolve, depth + 1);
    return Object.keys(rest).length === 0 ? target : { ...target, ...rest };
  }
  if (schema.allOf !== undefined && schema.allOf.length > 0) {
    const { allOf, ...rest } = schema;
    let merged: SchemaObject = rest;
    for (const part of allOf) {
      const p = deref(part, resolve, depth + 1);
      merged = {
        ...p,
        ...merged,
        properties: { ...p.properties, ...merged.properties },
        required: [...(p.required ?? []), ...(merged.required ?? [])],
      };
    }
    return merged;
  }
  return schema;
}

/** The types a schema admits, inferred from `type`, `enum` or `const` when `type` is absent. */
export function typesOf(schema: SchemaObject): readonly string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as readonly string[];
  if (schema.properties !== undefined || schema.required !== undefined) return ['object'];
  if (schema.items !== undefined) return ['array'];
  return [];
}

/** Type of a JSON value in JSON Schema terms. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export const noRefs: RefResolver = (ref) => {
  throw new Error(`unresolved $ref ${ref}: pass a resolver`);
};
