/**
 * The schema compiler behind ClosureAjv (ajv's `subschemaCode` and `typeAndKeywords`): a schema becomes
 * one closure that checks the type up front (unless a single type whose keyword group is used, then
 * inside that group), then the untyped keywords, then the number, string, array and object groups, each
 * keyword in ajv's order, so errors come in ajv's order. It also holds what the compiled schemas depend
 * on: the settings, the added keywords and formats, and the registered documents.
 */
import { applicators } from './applicators.ts';
import { arrays } from './arrays.ts';
import {
  ANNOTATIONS,
  fits,
  GROUPS,
  isObj,
  RULES,
  typeIs,
  UNSUPPORTED,
  UNTYPED,
  VALUE_TYPES,
} from './keywords.ts';
import { limits } from './limits.ts';
import { objects } from './objects.ts';
import { type Registry, resolve } from './refs.ts';
import { all, PASS, report } from './runtime.ts';
import { unsupported } from './settings.ts';
import { typesOf } from './strict-types.ts';
import type {
  Check,
  Compiler,
  Cx,
  Doc,
  Entry,
  FormatCheck,
  KeywordCompiler,
  Obj,
  Settings,
  Target,
} from './types.ts';
import { values } from './values.ts';

const COMPILERS: Readonly<Record<string, KeywordCompiler>> = {
  ...applicators,
  ...values,
  ...limits,
  ...arrays,
  ...objects,
};

export class SchemaCompiler implements Compiler, Registry {
  readonly settings: Settings;
  readonly keywords = new Set<string>();
  readonly formats = new Map<string, FormatCheck | true>();
  readonly docs = new Map<string, Doc>();

  constructor(settings: Settings) {
    this.settings = settings;
  }

  isRule(keyword: string): boolean {
    return RULES.has(keyword) || this.keywords.has(keyword);
  }

  isKnown(keyword: string): boolean {
    return this.isRule(keyword) || ANNOTATIONS.has(keyword);
  }

  hasRules(s: Obj, except?: string): boolean {
    return Object.keys(s).some((k) => k !== except && this.isRule(k));
  }

  /** The compiled function of a document's fragment; a placeholder first, so recursive refs can call it. */
  entry(doc: Doc, frag: string, schema: unknown): Entry {
    const found = doc.fns.get(frag);
    if (found !== undefined) return found;
    const entry: Entry = { fn: PASS };
    doc.fns.set(frag, entry);
    try {
      entry.fn = this.schema(schema, { doc, sp: '#', types: [], defined: new Set() });
    } catch (error) {
      doc.fns.delete(frag);
      throw error;
    }
    return entry;
  }

  resolve(ref: string, doc: Doc): Target {
    return resolve(this, ref, doc);
  }

  /** ajv's `checkStrictMode`: throws when that strict option is on (a warning only in ajv's "log" mode). */
  strict(message: string, on = this.settings.strictSchema): void {
    if (on) throw new Error(`strict mode: ${message}`);
  }

  /** ajv's `checkUnknownRules`, plus the keywords ajv knows and this validator does not. */
  private checkKeys(schema: Obj): void {
    for (const key of Object.keys(schema)) {
      if (UNSUPPORTED.has(key)) throw unsupported(`keyword "${key}"`);
      if (!this.isKnown(key)) this.strict(`unknown keyword: "${key}"`);
    }
  }

  /** ajv's `alwaysValidSchema`: true, or an object without rules. */
  alwaysValid(schema: unknown): boolean {
    if (typeof schema === 'boolean') return schema;
    if (!isObj(schema)) return false;
    this.checkKeys(schema);
    return !this.hasRules(schema);
  }

  /** One schema (ajv's `subschemaCode` and `typeAndKeywords`). */
  schema(schema: unknown, cx: Cx): Check {
    if (schema === true) return PASS;
    if (schema === false)
      return (_d, p, e, pn) =>
        report(e, p, `${cx.sp}/false schema`, 'false schema', {}, 'boolean schema is false', pn);
    if (!isObj(schema)) throw new Error(`schema must be object or boolean at "${cx.doc.baseId}${cx.sp}"`);
    this.checkKeys(schema);
    if (!this.hasRules(schema)) return PASS;
    if (schema['$id'] !== undefined && schema !== cx.doc.schema) throw unsupported('$id in a subschema');
    if (schema['$ref'] && !this.hasRules(schema, '$ref')) return this.keyword('$ref', schema, cx, '');

    const types = typesOf(this, schema, cx);
    const used = GROUPS.filter(([, kws]) => kws.some((k) => schema[k] !== undefined));
    const checkTypes = types.length > 0 && !(types.length === 1 && used.some(([t]) => t === types[0]));
    const typeError: Check = (_d, p, e, pn) =>
      report(
        e,
        p,
        `${cx.sp}/type`,
        'type',
        { type: schema['type'] },
        `must be ${String(schema['type'])}`,
        pn,
      );
    const { strictNumbers } = this.settings;
    const checks: Check[] = [];
    if (checkTypes)
      checks.push((d, p, e, pn) => {
        if (!types.some((t) => typeIs(t, d, strictNumbers))) typeError(d, p, e, pn);
      });
    for (const kw of UNTYPED) if (schema[kw] !== undefined) checks.push(this.keyword(kw, schema, cx, ''));
    for (const [type, kws] of used) {
      const inner = all(
        kws.filter((k) => schema[k] !== undefined).map((k) => this.keyword(k, schema, cx, type)),
      );
      const onWrongType = types.length === 1 && types[0] === type && !checkTypes ? typeError : PASS;
      checks.push((d, p, e, pn) => (typeIs(type, d, strictNumbers) ? inner : onWrongType)(d, p, e, pn));
    }
    return all(checks.filter((c) => c !== PASS));
  }

  /** A subschema that validates the same data (ajv's in-place subschema: same types, same defined properties). */
  inPlace(schema: unknown, cx: Cx, sp: string): Check {
    return this.schema(schema, { doc: cx.doc, sp, types: cx.types, defined: cx.defined });
  }

  /** A subschema for a part of the data; as ajv, the parent then shares the child's fresh defined set. */
  descend(schema: unknown, cx: Cx, sp: string, types: readonly string[] = []): Check {
    cx.defined = new Set();
    return this.schema(schema, { doc: cx.doc, sp, types, defined: cx.defined });
  }

  /** One keyword of a schema: its value's type checked (ajv's `schemaType`), then its compiler. */
  private keyword(kw: string, s: Obj, cx: Cx, group: string): Check {
    const v = s[kw];
    const allowed = VALUE_TYPES[kw];
    if (allowed !== undefined && !allowed.some((t) => fits(t, v)))
      throw new Error(`${kw} value must be ${JSON.stringify(allowed)}`);
    const compile = COMPILERS[kw];
    return compile === undefined ? PASS : compile(this, v, `${cx.sp}/${kw}`, kw, s, cx, group);
  }
}
