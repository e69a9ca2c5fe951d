/**
 * ClosureAjv: the part of ajv's `Ajv2020` API this package uses (`addKeyword`, `getKeyword`,
 * `addFormat`, `addSchema`, `getSchema`, `compile`), with ajv's errors for misuse, over the schema
 * compiler of ./compiler.ts. Registered schemas are documents `$ref`s and `getSchema` resolve in; each
 * schema or fragment is compiled once.
 */
import type { Format, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { SchemaCompiler } from './compiler.ts';
import { isObj, UNSUPPORTED } from './keywords.ts';
import { normalizeId, pointer } from './refs.ts';
import { wrap } from './runtime.ts';
import { settingsOf, unsupported } from './settings.ts';
import type { Doc } from './types.ts';

const idOf = (schema: unknown) =>
  isObj(schema) && typeof schema['$id'] === 'string' ? normalizeId(schema['$id']) : undefined;

/**
 * ajv's `Ajv2020` API as used by this package (`addKeyword`, `getKeyword`, `addSchema`, `getSchema`,
 * `compile`, `addFormat`), validating through closures.
 *
 * @example
 * const ajv = new ClosureAjv({ strict: true, allErrors: true });
 * addFormats(ajv);
 * const validate = ajv.compile({ type: 'integer', maximum: 500 });
 * validate(501); // false; validate.errors[0].message === 'must be <= 500'
 */
export class ClosureAjv {
  private readonly compiler: SchemaCompiler;
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(options: Options = {}) {
    this.compiler = new SchemaCompiler(settingsOf(options));
  }

  /** Registers annotation keywords (a definition with nothing but `keyword`). */
  addKeyword(definition: string | { readonly keyword: string | readonly string[] }): this {
    const def = typeof definition === 'string' ? { keyword: definition } : definition;
    if (Object.keys(def).some((k) => k !== 'keyword')) throw unsupported('keywords that validate');
    for (const keyword of typeof def.keyword === 'string' ? [def.keyword] : def.keyword) {
      if (this.compiler.isKnown(keyword) || UNSUPPORTED.has(keyword))
        throw new Error(`Keyword ${keyword} is already defined`);
      if (!/^[a-z_$][a-z0-9_$:-]*$/i.test(keyword)) throw new Error(`Keyword ${keyword} has invalid name`);
      this.compiler.keywords.add(keyword);
    }
    return this;
  }

  /** The keyword's definition when it is a rule (as ajv: annotations such as `title` give false). */
  getKeyword(keyword: string): { readonly keyword: string } | false {
    return this.compiler.isRule(keyword) ? { keyword } : false;
  }

  addFormat(name: string, format: Format): this {
    const { formats } = this.compiler;
    if (typeof format === 'string' || format instanceof RegExp) {
      const rx = typeof format === 'string' ? new RegExp(format) : format;
      formats.set(name, ['string', (d: string) => rx.test(d)]);
    } else if (typeof format === 'function') {
      formats.set(name, ['string', format]);
    } else if (format === true) {
      formats.set(name, true);
    } else {
      if (format.async) throw unsupported(`async format ${name}`);
      const test = format.validate;
      const rx = typeof test === 'function' ? undefined : new RegExp(test);
      const fn = rx === undefined ? test : (d: string) => rx.test(d);
      formats.set(name, [format.type ?? 'string', fn as (d: never) => boolean]);
    }
    return this;
  }

  addSchema(schema: unknown, key?: string): this {
    const id = idOf(schema);
    const name = normalizeId(key ?? id ?? '');
    this.register({ schema, baseId: id ?? name, fns: new Map() }, name, id);
    return this;
  }

  private register(doc: Doc, ...keys: (string | undefined)[]): void {
    const { docs } = this.compiler;
    for (const key of new Set(keys)) {
      if (key === undefined || docs.get(key) === doc) continue;
      if (docs.has(key)) throw new Error(`schema with key or id "${key}" already exists`);
      docs.set(key, doc);
    }
  }

  /** The validator of a registered schema (`id`, optionally with a `#/json/pointer`), compiled once. */
  getSchema(id: string): ValidateFunction | undefined {
    const full = normalizeId(id);
    const hash = full.indexOf('#');
    const doc = this.compiler.docs.get(hash < 0 ? full : full.slice(0, hash));
    if (doc === undefined) return undefined;
    const target = pointer(this.compiler, doc, hash < 0 ? '' : full.slice(hash + 1));
    if (target === undefined) return undefined;
    const entry = this.compiler.entry(target.doc, target.frag, target.schema);
    entry.validate ??= wrap(entry.fn, target.schema);
    return entry.validate;
  }

  compile(schema: unknown): ValidateFunction {
    const cached = this.compiled.get(schema);
    if (cached !== undefined) return cached;
    const id = idOf(schema) ?? '';
    const registered = this.compiler.docs.get(id);
    const doc: Doc =
      registered !== undefined && registered.schema === schema
        ? registered
        : { schema, baseId: id, fns: new Map() };
    const validate = wrap(this.compiler.entry(doc, '', schema).fn, schema);
    if (id !== '') this.register(doc, id);
    this.compiled.set(schema, validate);
    return validate;
  }
}
