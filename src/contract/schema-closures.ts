/**
 * A JSON Schema 2020-12 validator that compiles each schema once into closures instead of code, for
 * pages whose Content-Security-Policy forbids `unsafe-eval`: no `new Function`, no `eval`. `ClosureAjv`
 * implements the part of ajv's `Ajv2020` that ./validator-schemas.ts and mocks/engine/data-file/schema.ts
 * use, and reports the errors ajv reports with `allErrors: true`: same instancePath, keyword, params,
 * message and schemaPath, in the same order. The order follows ajv's: the type checked up front (unless a
 * single type whose keyword group is used, then inside that group), the untyped keywords, then the
 * number, string, array and object groups, each in ajv's keyword order. Keywords outside that subset
 * throw at compile time, naming the keyword, as ajv's strict mode does.
 */
import type { ErrorObject, Format, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { AjvModules } from './ajv-load.ts';

type Obj = Record<string, unknown>;
/** A compiled schema: checks `data` found at `path`, pushing errors; `pn` is set inside `propertyNames`. */
type Check = (data: unknown, path: string, errors: ErrorObject[], pn: string | undefined) => void;
type FormatCheck = readonly [type: string, test: (data: never) => boolean];

/** A document references resolve in: a registered or compiled root schema and its compiled fragments. */
interface Doc {
  readonly schema: unknown;
  readonly baseId: string;
  readonly fns: Map<string, Entry>;
}
interface Entry {
  fn: Check;
  validate?: ValidateFunction;
}
/** Compile-time context of one schema (ajv's `it`): where it is, the data types known, defined properties. */
interface Cx {
  readonly doc: Doc;
  readonly sp: string;
  types: readonly string[];
  defined: Set<string>;
}

const PASS: Check = () => {};
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const UNTYPED = ['$ref', 'const', 'enum', 'not', 'anyOf', 'oneOf', 'allOf', 'if', 'then', 'else'];
/** ajv's typed rule groups in order, each with its keywords in ajv's order (lib/compile/rules.ts). */
const GROUPS: readonly (readonly [string, readonly string[]])[] = [
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
const RULES = new Set([...UNTYPED, ...GROUPS.flatMap(([, kws]) => kws), 'type', 'nullable', '$comment']);
const ANNOTATIONS = new Set(
  '$schema $id $defs $vocabulary definitions title description default deprecated readOnly writeOnly examples contentMediaType contentEncoding contentSchema'.split(
    ' ',
  ),
);
const UNSUPPORTED = new Set(
  'id $async $dynamicAnchor $dynamicRef $recursiveAnchor $recursiveRef dependencies dependentSchemas unevaluatedItems unevaluatedProperties formatMaximum formatMinimum formatExclusiveMaximum formatExclusiveMinimum'.split(
    ' ',
  ),
);
const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const REF_KEYWORDS = new Set(['$ref', '$recursiveRef', '$recursiveAnchor', '$dynamicRef', '$dynamicAnchor']);
const NUM = ['number'];
const SCHEMA = ['object', 'boolean'];
/** The JSON types each keyword's value may have (ajv's `schemaType`). */
const VALUE_TYPES: Readonly<Record<string, readonly string[]>> = {
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
const LIMITS: Readonly<Record<string, readonly [ok: string, fails: (d: number, l: number) => boolean]>> = {
  maximum: ['<=', (d, l) => d > l],
  minimum: ['>=', (d, l) => d < l],
  exclusiveMaximum: ['<', (d, l) => d >= l],
  exclusiveMinimum: ['>', (d, l) => d <= l],
};

function typeIs(type: string, d: unknown, strictNumbers: boolean): boolean {
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

/** ajv's `validSchemaType`. */
function fits(type: string, v: unknown): boolean {
  if (type === 'array') return Array.isArray(v);
  if (type === 'object') return isObj(v);
  return typeof v === type;
}

/** fast-deep-equal over JSON values, as ajv's `const`, `enum` and `uniqueItems` compare. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (a.constructor !== b.constructor) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((x, i) => equal(x, other[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && equal((a as Obj)[k], (b as Obj)[k]));
}

/** Length in code points, as ajv's `ucs2length`. */
export function ucs2length(s: string): number {
  let length = 0;
  for (let pos = 0; pos < s.length; length++) {
    const c = s.charCodeAt(pos++);
    if (c >= 0xd800 && c <= 0xdbff && pos < s.length && (s.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return length;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const escapeFragment = (s: string) => encodeURIComponent(escapePointer(s));
const unescapeFragment = (s: string) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~');
const normalizeId = (id: string) => id.replace(/#\/?$/, '');

function hasRef(s: unknown): boolean {
  if (typeof s !== 'object' || s === null) return false;
  for (const [k, v] of Object.entries(s)) if (REF_KEYWORDS.has(k) || hasRef(v)) return true;
  return false;
}

function report(
  errors: ErrorObject[],
  instancePath: string,
  schemaPath: string,
  keyword: string,
  params: Obj,
  message: string,
  pn: string | undefined,
): void {
  const error: ErrorObject = { instancePath, schemaPath, keyword, params, message };
  if (pn !== undefined) error.propertyName = pn;
  errors.push(error);
}

function all(checks: readonly Check[]): Check {
  if (checks.length === 0) return PASS;
  if (checks.length === 1) return checks[0] ?? PASS;
  return (d, p, e, pn) => {
    for (const check of checks) check(d, p, e, pn);
  };
}

/** Runs `check` and tells whether it added no error. */
function passes(check: Check, d: unknown, p: string, e: ErrorObject[], pn: string | undefined): boolean {
  const n = e.length;
  check(d, p, e, pn);
  return e.length === n;
}

const unsupported = (what: string) => new Error(`ClosureAjv does not support ${what}`);

interface Settings {
  readonly strictSchema: boolean;
  readonly strictTypes: boolean;
  readonly strictTuples: boolean;
  readonly strictRequired: boolean;
  readonly strictNumbers: boolean;
  readonly allowUnionTypes: boolean;
  readonly allowMatchingProperties: boolean;
  readonly validateFormats: boolean;
}

const UNSUPPORTED_OPTIONS = [
  '$data',
  'coerceTypes',
  'useDefaults',
  'removeAdditional',
  'verbose',
  'ownProperties',
  'discriminator',
  'jtd',
  'multipleOfPrecision',
  'jsPropertySyntax',
  'passContext',
] as const;

function settingsOf(o: Options): Settings {
  if (o.allErrors !== true) throw unsupported('allErrors other than true');
  for (const name of UNSUPPORTED_OPTIONS) if (o[name]) throw unsupported(`option ${name}`);
  if (o.messages === false || o.unicodeRegExp === false) throw unsupported('messages or unicodeRegExp false');
  // ajv's defaults: "log" (warn only) counts as not strict here.
  const on = (v: boolean | 'log' | undefined, fallback: boolean) => (v ?? o.strict ?? fallback) === true;
  return {
    strictSchema: on(o.strictSchema, true),
    strictTypes: on(o.strictTypes, false),
    strictTuples: on(o.strictTuples, false),
    strictRequired: on(o.strictRequired, false),
    strictNumbers: on(o.strictNumbers, true),
    allowUnionTypes: o.allowUnionTypes === true,
    allowMatchingProperties: o.allowMatchingProperties === true,
    validateFormats: o.validateFormats ?? true,
  };
}

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
  private readonly settings: Settings;
  private readonly keywords = new Set<string>();
  private readonly formats = new Map<string, FormatCheck | true>();
  private readonly docs = new Map<string, Doc>();
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(options: Options = {}) {
    this.settings = settingsOf(options);
  }

  /** Registers annotation keywords (a definition with nothing but `keyword`). */
  addKeyword(definition: string | { readonly keyword: string | readonly string[] }): this {
    const def = typeof definition === 'string' ? { keyword: definition } : definition;
    if (Object.keys(def).some((k) => k !== 'keyword')) throw unsupported('keywords that validate');
    for (const keyword of typeof def.keyword === 'string' ? [def.keyword] : def.keyword) {
      if (this.isKnown(keyword) || UNSUPPORTED.has(keyword))
        throw new Error(`Keyword ${keyword} is already defined`);
      if (!/^[a-z_$][a-z0-9_$:-]*$/i.test(keyword)) throw new Error(`Keyword ${keyword} has invalid name`);
      this.keywords.add(keyword);
    }
    return this;
  }

  /** The keyword's definition when it is a rule (as ajv: annotations such as `title` give false). */
  getKeyword(keyword: string): { readonly keyword: string } | false {
    return this.isRule(keyword) ? { keyword } : false;
  }

  addFormat(name: string, format: Format): this {
    if (typeof format === 'string' || format instanceof RegExp) {
      const rx = typeof format === 'string' ? new RegExp(format) : format;
      this.formats.set(name, ['string', (d: string) => rx.test(d)]);
    } else if (typeof format === 'function') {
      this.formats.set(name, ['string', format]);
    } else if (format === true) {
      this.formats.set(name, true);
    } else {
      if (format.async) throw unsupported(`async format ${name}`);
      const test = format.validate;
      const rx = typeof test === 'function' ? undefined : new RegExp(test);
      const fn = rx === undefined ? test : (d: string) => rx.test(d);
      this.formats.set(name, [format.type ?? 'string', fn as (d: never) => boolean]);
    }
    return this;
  }

  addSchema(schema: unknown, key?: string): this {
    const id = isObj(schema) && typeof schema['$id'] === 'string' ? normalizeId(schema['$id']) : undefined;
    const name = normalizeId(key ?? id ?? '');
    this.register({ schema, baseId: id ?? name, fns: new Map() }, name, id);
    return this;
  }

  private register(doc: Doc, ...keys: (string | undefined)[]): void {
    for (const key of new Set(keys)) {
      if (key === undefined || this.docs.get(key) === doc) continue;
      if (this.docs.has(key)) throw new Error(`schema with key or id "${key}" already exists`);
      this.docs.set(key, doc);
    }
  }

  /** The validator of a registered schema (`id`, optionally with a `#/json/pointer`), compiled once. */
  getSchema(id: string): ValidateFunction | undefined {
    const full = normalizeId(id);
    const hash = full.indexOf('#');
    const doc = this.docs.get(hash < 0 ? full : full.slice(0, hash));
    if (doc === undefined) return undefined;
    const frag = hash < 0 ? '' : full.slice(hash + 1);
    const target = this.pointer(doc, frag);
    if (target === undefined) return undefined;
    const entry = this.entry(target.doc, target.frag, target.schema);
    entry.validate ??= wrap(entry.fn, target.schema);
    return entry.validate;
  }

  compile(schema: unknown): ValidateFunction {
    const cached = this.compiled.get(schema);
    if (cached !== undefined) return cached;
    const id = isObj(schema) && typeof schema['$id'] === 'string' ? normalizeId(schema['$id']) : '';
    const registered = this.docs.get(id);
    const doc: Doc =
      registered !== undefined && registered.schema === schema
        ? registered
        : { schema, baseId: id, fns: new Map() };
    const validate = wrap(this.entry(doc, '', schema).fn, schema);
    if (id !== '') this.register(doc, id);
    this.compiled.set(schema, validate);
    return validate;
  }

  private isRule(keyword: string): boolean {
    return RULES.has(keyword) || this.keywords.has(keyword);
  }

  private isKnown(keyword: string): boolean {
    return this.isRule(keyword) || ANNOTATIONS.has(keyword);
  }

  private hasRules(s: Obj, except?: string): boolean {
    return Object.keys(s).some((k) => k !== except && this.isRule(k));
  }

  /** The compiled function of a document's fragment; a placeholder first, so recursive refs can call it. */
  private entry(doc: Doc, frag: string, schema: unknown): Entry {
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

  /** A JSON pointer fragment of a document, following a target that is only a `$ref` (as ajv). */
  private pointer(
    doc: Doc,
    frag: string,
    depth = 0,
  ): { doc: Doc; frag: string; schema: unknown } | undefined {
    if (frag === '' || frag === '/') return { doc, frag: '', schema: doc.schema };
    if (!frag.startsWith('/')) return undefined;
    let schema: unknown = doc.schema;
    for (const part of frag.slice(1).split('/')) {
      if (!isObj(schema) && !Array.isArray(schema)) return undefined;
      schema = (schema as Obj)[unescapeFragment(part)];
      if (schema === undefined) return undefined;
    }
    if (isObj(schema) && typeof schema['$ref'] === 'string' && !this.hasRules(schema, '$ref') && depth < 32)
      return this.resolve(schema['$ref'], doc, depth + 1);
    return { doc, frag, schema };
  }

  private resolve(ref: string, doc: Doc, depth = 0): { doc: Doc; frag: string; schema: unknown } {
    let full = ref;
    // As ajv, a reference is normalised as a URI (non-ASCII percent-encoded) but ids are looked up as given.
    if (ref.startsWith('#')) full = `${doc.baseId}${ref}`;
    else full = relativeUrl(ref, doc.baseId);
    full = normalizeId(full);
    const hash = full.indexOf('#');
    const id = hash < 0 ? full : full.slice(0, hash);
    const target = id === doc.baseId ? doc : this.docs.get(id);
    const found = target && this.pointer(target, hash < 0 ? '' : full.slice(hash + 1), depth);
    if (found === undefined) throw new Error(`can't resolve reference ${ref} from id ${doc.baseId}`);
    return found;
  }

  /** ajv's `checkStrictMode`: throws when that strict option is on (a warning only in ajv's "log" mode). */
  private strict(message: string, on = this.settings.strictSchema): void {
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
  private alwaysValid(schema: unknown): boolean {
    if (typeof schema === 'boolean') return schema;
    if (!isObj(schema)) return false;
    this.checkKeys(schema);
    return !this.hasRules(schema);
  }

  /** One schema (ajv's `subschemaCode` and `typeAndKeywords`). */
  private schema(schema: unknown, cx: Cx): Check {
    if (schema === true) return PASS;
    if (schema === false)
      return (_d, p, e, pn) =>
        report(e, p, `${cx.sp}/false schema`, 'false schema', {}, 'boolean schema is false', pn);
    if (!isObj(schema)) throw new Error(`schema must be object or boolean at "${cx.doc.baseId}${cx.sp}"`);
    this.checkKeys(schema);
    if (!this.hasRules(schema)) return PASS;
    if (schema['$id'] !== undefined && schema !== cx.doc.schema) throw unsupported('$id in a subschema');
    if (schema['$ref'] && !this.hasRules(schema, '$ref')) return this.keyword('$ref', schema, cx, '');

    const types = this.typesOf(schema, cx);
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

  /** The schema's types (ajv's `getSchemaTypes`), checked against the context in strict mode. */
  private typesOf(schema: Obj, cx: Cx): string[] {
    const types = schemaTypes(schema);
    if (schema['nullable'] !== undefined && typeof schema['nullable'] !== 'boolean')
      throw new Error('nullable value must be ["boolean"]');
    if (!this.settings.strictTypes) return types;
    const at = ` at "${cx.doc.baseId}${cx.sp}" (strictTypes)`;
    const includes = (ts: readonly string[], t: string) =>
      ts.includes(t) || (t === 'integer' && ts.includes('number'));
    if (types.length > 0 && cx.types.length === 0) cx.types = types;
    else if (types.length > 0) {
      for (const t of types)
        if (!includes(cx.types, t))
          this.strict(`type "${t}" not allowed by context "${cx.types.join(',')}"${at}`, true);
      cx.types = cx.types.flatMap((t) =>
        includes(types, t) ? [t] : types.includes('integer') && t === 'number' ? ['integer'] : [],
      );
    }
    if (!this.settings.allowUnionTypes && types.length > 1 && !(types.length === 2 && types.includes('null')))
      this.strict(`use allowUnionTypes to allow union type keyword${at}`, true);
    for (const [group, kws] of GROUPS)
      for (const kw of kws) {
        if (schema[kw] === undefined) continue;
        const kwTypes = GROUPS.filter(([, k]) => k.includes(kw)).map(([t]) => t);
        const applicable = (t: string) =>
          cx.types.includes(t) || (t === 'number' && cx.types.includes('integer'));
        if (group === kwTypes[0] && !kwTypes.some(applicable))
          this.strict(`missing type "${kwTypes.join(',')}" for keyword "${kw}"${at}`, true);
      }
    return types;
  }

  /** A subschema that validates the same data (ajv's in-place subschema: same types, same defined properties). */
  private inPlace(schema: unknown, cx: Cx, sp: string): Check {
    return this.schema(schema, { doc: cx.doc, sp, types: cx.types, defined: cx.defined });
  }

  /** A subschema for a part of the data; as ajv, the parent then shares the child's fresh defined set. */
  private descend(schema: unknown, cx: Cx, sp: string, types: readonly string[] = []): Check {
    cx.defined = new Set();
    return this.schema(schema, { doc: cx.doc, sp, types, defined: cx.defined });
  }

  private keyword(kw: string, s: Obj, cx: Cx, group: string): Check {
    const v = s[kw];
    const allowed = VALUE_TYPES[kw];
    if (allowed !== undefined && !allowed.some((t) => fits(t, v)))
      throw new Error(`${kw} value must be ${JSON.stringify(allowed)}`);
    const sp = `${cx.sp}/${kw}`;
    const fail =
      (params: Obj, message: string): Check =>
      (_d, p, e, pn) =>
        report(e, p, sp, kw, params, message, pn);
    const num = v as number;
    switch (kw) {
      case '$ref': {
        const target = this.resolve(v as string, cx.doc);
        if (typeof target.schema === 'boolean' || !hasRef(target.schema))
          return this.schema(target.schema, {
            doc: target.doc,
            sp: v as string,
            types: [],
            defined: cx.defined,
          });
        const entry = this.entry(target.doc, target.frag, target.schema);
        return (d, p, e) => entry.fn(d, p, e, undefined);
      }
      case 'const': {
        const error = fail({ allowedValue: v }, 'must be equal to constant');
        return (d, p, e, pn) => (equal(d, v) ? undefined : error(d, p, e, pn));
      }
      case 'enum': {
        const values = v as unknown[];
        if (values.length === 0) throw new Error('enum must have non-empty array');
        const error = fail({ allowedValues: values }, 'must be equal to one of the allowed values');
        return (d, p, e, pn) => (values.some((x) => equal(d, x)) ? undefined : error(d, p, e, pn));
      }
      case 'not': {
        const sub = this.inPlace(v, cx, sp);
        const error = fail({}, 'must NOT be valid');
        return (d, p, e, pn) => {
          const n = e.length;
          if (passes(sub, d, p, e, pn)) error(d, p, e, pn);
          else e.length = n;
        };
      }
      case 'allOf':
        return all((v as unknown[]).map((sub, i) => this.inPlace(sub, cx, `${sp}/${i}`)));
      case 'anyOf': {
        const subs = (v as unknown[]).map((sub, i) => this.inPlace(sub, cx, `${sp}/${i}`));
        const error = fail({}, 'must match a schema in anyOf');
        return (d, p, e, pn) => {
          const n = e.length;
          if (subs.some((sub) => passes(sub, d, p, e, pn))) e.length = n;
          else error(d, p, e, pn);
        };
      }
      case 'oneOf': {
        const subs = (v as unknown[]).map((sub, i) => this.inPlace(sub, cx, `${sp}/${i}`));
        return (d, p, e, pn) => {
          const n = e.length;
          let valid = false;
          let passing: unknown = null;
          // ajv nests each next schema in the else branch of "a second one passed": it stops there.
          for (const [i, sub] of subs.entries()) {
            const ok = passes(sub, d, p, e, pn);
            if (i > 0 && ok && valid) {
              valid = false;
              passing = [passing, i];
              break;
            }
            if (ok) {
              valid = true;
              passing = i;
            }
          }
          if (valid) e.length = n;
          else
            report(e, p, sp, kw, { passingSchemas: passing }, 'must match exactly one schema in oneOf', pn);
        };
      }
      case 'if': {
        if (s['then'] === undefined && s['else'] === undefined)
          this.strict('"if" without "then" and "else" is ignored');
        const has = (k: string) => s[k] !== undefined && !this.alwaysValid(s[k]);
        const [hasThen, hasElse] = [has('then'), has('else')];
        if (!hasThen && !hasElse) return PASS;
        const test = this.inPlace(v, cx, sp);
        const then = hasThen ? this.inPlace(s['then'], cx, `${cx.sp}/then`) : PASS;
        const otherwise = hasElse ? this.inPlace(s['else'], cx, `${cx.sp}/else`) : PASS;
        return (d, p, e, pn) => {
          const n = e.length;
          const ok = passes(test, d, p, e, pn);
          e.length = n;
          const [name, sub] = ok ? ['then', then] : ['else', otherwise];
          if (sub !== PASS && !passes(sub, d, p, e, pn))
            report(e, p, sp, kw, { failingKeyword: name }, `must match "${name}" schema`, pn);
        };
      }
      case 'then':
      case 'else':
        if (s['if'] === undefined) this.strict(`"${kw}" without "if" is ignored`);
        return PASS;
      case 'maximum':
      case 'minimum':
      case 'exclusiveMaximum':
      case 'exclusiveMinimum': {
        const [ok, fails] = LIMITS[kw] ?? ['', () => false];
        const error = fail({ comparison: ok, limit: num }, `must be ${ok} ${num}`);
        return (d, p, e, pn) => (fails(d as number, num) || Number.isNaN(d) ? error(d, p, e, pn) : undefined);
      }
      case 'multipleOf': {
        const error = fail({ multipleOf: num }, `must be multiple of ${num}`);
        return (d, p, e, pn) => {
          const res = (d as number) / num;
          if (num === 0 || res !== Number.parseInt(String(res), 10)) error(d, p, e, pn);
        };
      }
      case 'format': {
        if (!this.settings.validateFormats) return PASS;
        const format = this.formats.get(v as string);
        if (format === undefined) {
          if (this.settings.strictSchema)
            throw new Error(`unknown format "${String(v)}" ignored in schema at path "${cx.sp}"`);
          return PASS;
        }
        if (format === true || format[0] !== group) return PASS;
        const test = format[1] as (d: unknown) => boolean;
        const error = fail({ format: v }, `must match format "${String(v)}"`);
        return (d, p, e, pn) => (test(d) ? undefined : error(d, p, e, pn));
      }
      case 'maxLength':
      case 'minLength': {
        const more = kw === 'maxLength';
        const error = fail({ limit: num }, `must NOT have ${more ? 'more' : 'fewer'} than ${num} characters`);
        return (d, p, e, pn) => {
          const len = ucs2length(d as string);
          if (more ? len > num : len < num) error(d, p, e, pn);
        };
      }
      case 'pattern': {
        const rx = new RegExp(v as string, 'u');
        const error = fail({ pattern: v }, `must match pattern "${String(v)}"`);
        return (d, p, e, pn) => (rx.test(d as string) ? undefined : error(d, p, e, pn));
      }
      case 'maxItems':
      case 'minItems':
      case 'maxProperties':
      case 'minProperties': {
        const more = kw.startsWith('max');
        const noun = kw.endsWith('Items') ? 'items' : 'properties';
        const error = fail({ limit: num }, `must NOT have ${more ? 'more' : 'fewer'} than ${num} ${noun}`);
        return (d, p, e, pn) => {
          const len = Array.isArray(d) ? d.length : Object.keys(d as Obj).length;
          if (more ? len > num : len < num) error(d, p, e, pn);
        };
      }
      case 'prefixItems':
        return this.prefixItems(v as unknown[], s, cx, sp);
      case 'items':
        return this.items(s, cx, sp);
      case 'contains':
        return this.contains(s, cx, sp);
      case 'maxContains':
      case 'minContains':
        if (s['contains'] === undefined) this.strict(`"${kw}" without "contains" is ignored`);
        return PASS;
      case 'uniqueItems':
        return v === true ? this.uniqueItems(s, sp) : PASS;
      case 'required':
        return this.required(v as unknown[], s, cx, sp);
      case 'propertyNames': {
        if (this.alwaysValid(v)) return PASS;
        const sub = this.descend(v, cx, sp, ['string']);
        return (d, p, e, pn) => {
          for (const key in d as Obj)
            if (!passes(sub, key, p, e, key))
              report(e, p, sp, kw, { propertyName: key }, 'property name must be valid', pn);
        };
      }
      case 'additionalProperties':
        return this.additionalProperties(s, cx, sp);
      case 'properties': {
        const props = Object.keys(v as Obj).filter((k) => k !== '__proto__');
        for (const prop of props) cx.defined.add(prop);
        const checks = props.flatMap((prop) => {
          if (this.alwaysValid((v as Obj)[prop])) return [];
          const sub = this.descend((v as Obj)[prop], cx, `${sp}/${escapeFragment(prop)}`);
          cx.defined.add(prop);
          return [[prop, `/${escapePointer(prop)}`, sub] as const];
        });
        return (d, p, e) => {
          for (const [prop, at, sub] of checks) {
            const value = (d as Obj)[prop];
            if (value !== undefined) sub(value, p + at, e, undefined);
          }
        };
      }
      case 'patternProperties':
        return this.patternProperties(v as Obj, s, cx, sp);
      case 'dependentRequired': {
        const deps = Object.entries(v as Obj).filter(([, list]) => (list as string[]).length > 0);
        return (d, p, e, pn) => {
          for (const [property, list] of deps) {
            const names = list as string[];
            if ((d as Obj)[property] === undefined) continue;
            for (const missingProperty of names)
              if ((d as Obj)[missingProperty] === undefined)
                report(
                  e,
                  p,
                  sp,
                  kw,
                  { property, missingProperty, depsCount: names.length, deps: names.join(', ') },
                  `must have ${names.length === 1 ? 'property' : 'properties'} ${names.join(', ')} when property ${property} is present`,
                  pn,
                );
          }
        };
      }
      default:
        return PASS;
    }
  }

  private prefixItems(schemas: unknown[], s: Obj, cx: Cx, sp: string): Check {
    const l = schemas.length;
    if (this.settings.strictTuples && !(l === s['minItems'] && (l === s['maxItems'] || s['items'] === false)))
      this.strict(
        `"prefixItems" is ${l}-tuple, but minItems or maxItems/items are not specified or different at path "${cx.sp}"`,
        true,
      );
    const subs = schemas.map((sub, i) =>
      this.alwaysValid(sub) ? PASS : this.descend(sub, cx, `${sp}/${i}`),
    );
    return (d, p, e) => {
      const items = d as unknown[];
      subs.forEach((sub, i) => {
        if (items.length > i) sub(items[i], `${p}/${i}`, e, undefined);
      });
    };
  }

  private items(s: Obj, cx: Cx, sp: string): Check {
    const items = s['items'];
    if (this.alwaysValid(items)) return PASS;
    // After `prefixItems`, `items: false` is a size limit; else it is a schema for each further item.
    const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'].length : undefined;
    if (items === false && prefix !== undefined)
      return (d, p, e, pn) => {
        if ((d as unknown[]).length > prefix)
          report(e, p, sp, 'items', { limit: prefix }, `must NOT have more than ${prefix} items`, pn);
      };
    const sub = this.descend(items, cx, sp);
    return (d, p, e) => {
      const list = d as unknown[];
      for (let i = prefix ?? 0; i < list.length; i++) sub(list[i], `${p}/${i}`, e, undefined);
    };
  }

  private contains(s: Obj, cx: Cx, sp: string): Check {
    const min = typeof s['minContains'] === 'number' ? s['minContains'] : 1;
    const max = typeof s['maxContains'] === 'number' ? s['maxContains'] : undefined;
    const params = max === undefined ? { minContains: min } : { minContains: min, maxContains: max };
    const message =
      max === undefined
        ? `must contain at least ${min} valid item(s)`
        : `must contain at least ${min} and no more than ${max} valid item(s)`;
    if (max === undefined && min === 0) {
      this.strict('"minContains" == 0 without "maxContains": "contains" keyword ignored');
      return PASS;
    }
    const error: Check = (_d, p, e, pn) => report(e, p, sp, 'contains', params, message, pn);
    if (max !== undefined && min > max) {
      this.strict('"minContains" > "maxContains" is always invalid');
      return error;
    }
    const sub = this.alwaysValid(s['contains']) ? PASS : this.descend(s['contains'], cx, sp);
    return (d, p, e, pn) => {
      const items = d as unknown[];
      const n = e.length;
      let count = 0;
      let valid = min === 0;
      for (let i = 0; i < items.length; i++) {
        if (sub !== PASS && !passes(sub, items[i], `${p}/${i}`, e, undefined)) continue;
        count++;
        if (max !== undefined && count > max) {
          valid = false;
          break;
        }
        if (count >= min) valid = true;
        if (max === undefined && valid) break;
      }
      if (valid) e.length = n;
      else error(d, p, e, pn);
    };
  }

  private uniqueItems(s: Obj, sp: string): Check {
    const itemTypes = isObj(s['items']) ? schemaTypes(s['items']) : [];
    const byKey = itemTypes.length > 0 && !itemTypes.some((t) => t === 'object' || t === 'array');
    const { strictNumbers } = this.settings;
    const error = (e: ErrorObject[], p: string, pn: string | undefined, i: number, j: number) =>
      report(
        e,
        p,
        sp,
        'uniqueItems',
        { i, j },
        `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
        pn,
      );
    return (d, p, e, pn) => {
      const items = d as unknown[];
      let i = items.length;
      if (i <= 1) return;
      if (byKey) {
        const indices: Record<string, unknown> = {};
        while (i--) {
          let item = items[i];
          if (!itemTypes.some((t) => typeIs(t, item, strictNumbers))) continue;
          if (itemTypes.length > 1 && typeof item === 'string') item += '_';
          const key = String(item);
          const j = indices[key];
          if (typeof j === 'number') return error(e, p, pn, i, j);
          indices[key] = i;
        }
        return;
      }
      while (i--) for (let j = i; j--; ) if (equal(items[i], items[j])) return error(e, p, pn, i, j);
    };
  }

  private required(names: unknown[], s: Obj, cx: Cx, sp: string): Check {
    if (names.length === 0) return PASS;
    if (this.settings.strictRequired) {
      const props = s['properties'] as Obj | undefined;
      for (const name of names as string[])
        if (props?.[name] === undefined && !cx.defined.has(name))
          this.strict(
            `required property "${name}" is not defined at "${cx.doc.baseId}${cx.sp}" (strictRequired)`,
            true,
          );
    }
    return (d, p, e, pn) => {
      for (const missingProperty of names as string[])
        if ((d as Obj)[missingProperty] === undefined)
          report(
            e,
            p,
            sp,
            'required',
            { missingProperty },
            `must have required property '${missingProperty}'`,
            pn,
          );
    };
  }

  private additionalProperties(s: Obj, cx: Cx, sp: string): Check {
    const value = s['additionalProperties'];
    if (this.alwaysValid(value)) return PASS;
    const sub = value === false ? PASS : this.descend(value, cx, sp);
    const properties = isObj(s['properties']) ? s['properties'] : {};
    const props = Object.keys(properties).filter((k) => k !== '__proto__');
    const patterns = Object.keys(isObj(s['patternProperties']) ? s['patternProperties'] : {})
      .filter((k) => k !== '__proto__')
      .map((k) => new RegExp(k, 'u'));
    const defined = (key: string) =>
      (props.length > 8 ? Object.hasOwn(properties, key) : props.includes(key)) ||
      patterns.some((rx) => rx.test(key));
    const isFalse = value === false;
    return (d, p, e, pn) => {
      for (const key in d as Obj) {
        if (defined(key)) continue;
        if (isFalse)
          report(
            e,
            p,
            sp,
            'additionalProperties',
            { additionalProperty: key },
            'must NOT have additional properties',
            pn,
          );
        else sub((d as Obj)[key], `${p}/${escapePointer(key)}`, e, undefined);
      }
    };
  }

  private patternProperties(v: Obj, s: Obj, cx: Cx, sp: string): Check {
    const patterns = Object.keys(v).filter((k) => k !== '__proto__');
    const properties = s['properties'];
    if (this.settings.strictSchema && !this.settings.allowMatchingProperties && isObj(properties))
      for (const pat of patterns)
        for (const prop in properties)
          if (new RegExp(pat).test(prop))
            this.strict(`property ${prop} matches pattern ${pat} (use allowMatchingProperties)`);
    const checks = patterns.flatMap((pat) =>
      this.alwaysValid(v[pat])
        ? []
        : [[new RegExp(pat, 'u'), this.descend(v[pat], cx, `${sp}/${escapeFragment(pat)}`)] as const],
    );
    return (d, p, e) => {
      for (const [rx, sub] of checks)
        for (const key in d as Obj)
          if (rx.test(key)) sub((d as Obj)[key], `${p}/${escapePointer(key)}`, e, undefined);
    };
  }
}

function relativeUrl(ref: string, base: string): string {
  try {
    return new URL(ref, base || undefined).href;
  } catch {
    return ref;
  }
}

/** ajv's `getSchemaTypes`: `type` as a list, `null` added by `nullable: true`. */
function schemaTypes(schema: Obj): string[] {
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

/** The validate function ajv's `compile` returns: `(data) => boolean`, `.errors` null when valid. */
function wrap(fn: Check, schema: unknown): ValidateFunction {
  const validate = Object.assign(
    (data: unknown): boolean => {
      const errors: ErrorObject[] = [];
      fn(data, '', errors, undefined);
      validate.errors = errors.length > 0 ? errors : null;
      return errors.length === 0;
    },
    { errors: null as ErrorObject[] | null, schema },
  );
  return validate as unknown as ValidateFunction;
}

/** Registers ajv-formats' full formats, byte for byte its own (ajv-formats' `addFormats(ajv)`). */
export function addFormats(ajv: ClosureAjv): ClosureAjv {
  for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format);
  return ajv;
}

/**
 * The modules ./ajv-load.ts's `loadAjv()` returns, with `ClosureAjv` standing in for ajv: the cast is
 * sound for the calls this package makes (see the module comment), not for ajv's whole API.
 */
export const closureAjvModules = { Ajv2020: ClosureAjv, addFormats } as unknown as AjvModules;
