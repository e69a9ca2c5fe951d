/**
 * The contract, loaded once. A JSON import with an import attribute (no `fs`), so the same module works
 * in node, under tsx and vitest, and in a browser bundle.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import document from '../../contract/openapi.json' with { type: 'json' };
import type { components, Platform, SchemaName } from './types.ts';

/** `contract/openapi.json`, typed. Treat it as read-only: every validator is compiled from it. */
export const contractDocument: OpenAPIV3_1.Document = document as unknown as OpenAPIV3_1.Document;

/**
 * The source-platform enum of the ingestion batch (spec 4.17), in contract order: the one list of
 * platforms that the fixtures, the arbitraries and the mock use.
 */
export const PLATFORMS: readonly Platform[] = document.components.schemas.Platform.enum as Platform[];

interface ComponentView {
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, { readonly enum?: readonly string[] }>>;
}

const component = (name: SchemaName): ComponentView =>
  (document.components.schemas as unknown as Record<string, ComponentView>)[name] ?? {};

/** The required keys of a component schema, so hand-written generators never restate them. */
export function requiredKeysOf<N extends SchemaName>(name: N): (keyof components['schemas'][N] & string)[] {
  return [...(component(name).required ?? [])] as (keyof components['schemas'][N] & string)[];
}

/** The enum of one property of a component schema (empty when the property has none). */
export function enumOf(name: SchemaName, property: string): string[] {
  return [...(component(name).properties?.[property]?.enum ?? [])];
}
