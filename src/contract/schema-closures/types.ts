/**
 * The shapes the modules of ClosureAjv share: a compiled check, the documents references resolve in,
 * the compile-time context of one schema, the settings taken from ajv's options, and the `Compiler`
 * interface the keyword compilers call back into (kept here so they do not import the class).
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

export type Obj = Record<string, unknown>;
/** A compiled schema: checks `data` found at `path`, pushing errors; `pn` is set inside `propertyNames`. */
export type Check = (data: unknown, path: string, errors: ErrorObject[], pn: string | undefined) => void;
export type FormatCheck = readonly [type: string, test: (data: never) => boolean];

/** A document references resolve in: a registered or compiled root schema and its compiled fragments. */
export interface Doc {
  readonly schema: unknown;
  readonly baseId: string;
  readonly fns: Map<string, Entry>;
}
export interface Entry {
  fn: Check;
  validate?: ValidateFunction;
}
/** A schema found by a reference or a pointer, with the document and fragment it sits at. */
export interface Target {
  readonly doc: Doc;
  readonly frag: string;
  readonly schema: unknown;
}
/** Compile-time context of one schema (ajv's `it`): where it is, the data types known, defined properties. */
export interface Cx {
  readonly doc: Doc;
  readonly sp: string;
  types: readonly string[];
  defined: Set<string>;
}

export interface Settings {
  readonly strictSchema: boolean;
  readonly strictTypes: boolean;
  readonly strictTuples: boolean;
  readonly strictRequired: boolean;
  readonly strictNumbers: boolean;
  readonly allowUnionTypes: boolean;
  readonly allowMatchingProperties: boolean;
  readonly validateFormats: boolean;
}

/** What a keyword compiler may ask of the schema compiler (./compiler.ts). */
export interface Compiler {
  readonly settings: Settings;
  readonly formats: ReadonlyMap<string, FormatCheck | true>;
  /** One schema in a context. */
  schema(schema: unknown, cx: Cx): Check;
  /** A subschema that validates the same data. */
  inPlace(schema: unknown, cx: Cx, sp: string): Check;
  /** A subschema for a part of the data. */
  descend(schema: unknown, cx: Cx, sp: string, types?: readonly string[]): Check;
  /** ajv's `checkStrictMode`. */
  strict(message: string, on?: boolean): void;
  /** ajv's `alwaysValidSchema`. */
  alwaysValid(schema: unknown): boolean;
  resolve(ref: string, doc: Doc): Target;
  entry(doc: Doc, frag: string, schema: unknown): Entry;
}

/**
 * Compiles one keyword of a schema: its value `v`, its schema path `sp`, the keyword `kw`, the schema
 * `s` it sits in, the context and the typed group it is compiled in ('' for untyped keywords).
 */
export type KeywordCompiler = (
  c: Compiler,
  v: unknown,
  sp: string,
  kw: string,
  s: Obj,
  cx: Cx,
  group: string,
) => Check;
